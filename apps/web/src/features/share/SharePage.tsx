import { Card, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ShareForm } from './components/ShareForm';
import { ShareList } from './components/ShareList';
import './share.css';

type Tab = 'new' | 'given' | 'received';

/**
 * /share (§2.1, §5 Sharing): share the devices checked in the tree with another account, and share
 * management: what I shared (changed or revoked here) and what was shared with me.
 */
export function SharePage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('new');
  return (
    <Card className="wt-share" data-testid="share-page">
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as Tab)}
        items={[
          { key: 'new', label: t('share.tab.new'), children: <ShareForm onShared={() => setTab('given')} /> },
          { key: 'given', label: t('share.tab.given'), children: <ShareList side="given" /> },
          { key: 'received', label: t('share.tab.received'), children: <ShareList side="received" /> },
        ]}
      />
    </Card>
  );
}
