import { Badge, Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useUnreadEventCount } from './api';
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
  const unreadEvents = useUnreadEventCount().data;
  return (
    <Card variant="borderless" data-testid="notice-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'notices' ? { tab: 'notices' } : {}, { replace: true })}
        destroyOnHidden
        items={[
          {
            key: 'events',
            label: (
              // the unread events among the devices the user can read; it changes live as events arrive
              <span data-testid="event-unread" data-unread={unreadEvents ?? ''}>
                {t('notice.eventsTab')}
                {unreadEvents ? (
                  <Badge count={unreadEvents} overflowCount={999} size="small" style={{ marginInlineStart: 6 }} title={t('notice.unreadCount', { count: unreadEvents })} />
                ) : null}
              </span>
            ),
            children: <EventTab />,
          },
          { key: 'notices', label: t('notice.noticesTab'), children: <NoticeTab /> },
        ]}
      />
    </Card>
  );
}
