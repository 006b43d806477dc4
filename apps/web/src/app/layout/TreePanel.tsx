import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Empty, Grid, Layout, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

const PACKED_KEY = 'wildtrack_tree_packed';

function initiallyPacked(): boolean {
  try {
    const stored = window.localStorage.getItem(PACKED_KEY);
    if (stored !== null) return stored === '1';
  } catch {
    // storage blocked
  }
  return window.innerWidth < 768;
}

/**
 * The left folder-tree panel (§2.3), expanded or packed with a toggle. The device tree itself arrives
 * with the device-tree issue; until then the panel says there are no devices.
 */
export function TreePanel() {
  const { t } = useTranslation();
  const [packed, setPacked] = useState(initiallyPacked);
  const screens = Grid.useBreakpoint();

  const toggle = (): void => {
    const next = !packed;
    setPacked(next);
    try {
      window.localStorage.setItem(PACKED_KEY, next ? '1' : '0');
    } catch {
      // storage blocked: the state lasts until reload
    }
  };

  // On narrow screens the expanded panel floats over the page instead of squeezing it.
  const overlay = screens.md === false && !packed;
  const label = packed ? t('layout.treeExpand') : t('layout.treePack');
  return (
    <Layout.Sider
      className={overlay ? 'wt-tree-panel wt-tree-panel-overlay' : 'wt-tree-panel'}
      breakpoint="md"
      onBreakpoint={(narrow) => {
        if (narrow) setPacked(true);
      }}
      theme="light"
      width={screens.lg ? 300 : 260}
      collapsedWidth={48}
      collapsed={packed}
      trigger={null}
      collapsible
      data-testid="tree-panel"
      data-packed={packed ? '1' : '0'}
    >
      <div className="wt-tree-panel-head">
        {packed ? null : <Typography.Text strong>{t('layout.treeTitle')}</Typography.Text>}
        <Tooltip title={label} placement="right">
          <Button type="text" aria-label={label} aria-expanded={!packed} icon={packed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={toggle} />
        </Tooltip>
      </div>
      {packed ? null : (
        <div className="wt-tree-panel-body">
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('layout.treeEmpty')} />
        </div>
      )}
    </Layout.Sider>
  );
}
