import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { EventTab } from './components/EventTab';
import { NoticeTab } from './components/NoticeTab';

export type NoticeTabKey = 'events' | 'notices';

/**
 * /notice (§2.1: not kept alive): two tabs, the event notifications and the system notices; the tab is in
 * the address (?tab=notices), so the user menu's "notices" and the menu's "event notifications" open each.
 */
export function NoticePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: NoticeTabKey = params.get('tab') === 'notices' ? 'notices' : 'events';
  return (
    <Card variant="borderless" data-testid="notice-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'notices' ? { tab: 'notices' } : {}, { replace: true })}
        destroyOnHidden
        items={[
          { key: 'events', label: t('notice.eventsTab'), children: <EventTab /> },
          { key: 'notices', label: t('notice.noticesTab'), children: <NoticeTab /> },
        ]}
      />
    </Card>
  );
}
