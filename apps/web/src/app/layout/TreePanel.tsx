import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Grid, Layout, Tooltip, Typography } from 'antd';
import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { oneOf, readStored, writeStored } from '../../browser/storage';
import { DeviceTree, treePageOf } from '../../widgets/device-tree';

const PACKED_KEY = 'wildtrack_tree_packed';

function initiallyPacked(): boolean {
  const stored = readStored('local', PACKED_KEY, oneOf(['0', '1']));
  return stored !== undefined ? stored === '1' : window.innerWidth < 768;
}

/**
 * The left folder-tree panel (§2.3), expanded or packed with a toggle, holding the device tree of the
 * current page (checkboxes on /download, /share and /instr). Packed, the tree stays mounted (hidden) so
 * its expanded folders and filters survive.
 */
export function TreePanel() {
  const { t } = useTranslation();
  const page = treePageOf(useLocation().pathname);
  const [packed, setPacked] = useState(initiallyPacked);
  const screens = Grid.useBreakpoint();

  const toggle = (): void => {
    const next = !packed;
    setPacked(next);
    // storage blocked: the state lasts until reload
    writeStored('local', PACKED_KEY, next ? '1' : '0');
  };

  // On narrow screens the expanded panel floats over the page instead of squeezing it.
  const overlay = screens.md === false && !packed;
  // A phone: the floating panel packs away once a device is chosen in it (tapped, or Enter on the tree),
  // so that its track or details show; the panel covered the page. Not remembered as the user's choice.
  const packAfterChoice = (e: MouseEvent<HTMLElement> | KeyboardEvent<HTMLElement>): void => {
    if (!overlay) return;
    const target = e.target as HTMLElement;
    const row = target.closest('.ant-tree-treenode') ?? (target.getAttribute('role') === 'tree' ? target.querySelector('.ant-tree-treenode-active') : null);
    if (!row || row.classList.contains('ant-tree-treenode-disabled') || target.closest('.wt-tree-more, .ant-tree-switcher')) return;
    if (row.querySelector('[data-testid^="tree-device-"]')) setPacked(true);
  };
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
      <div
        className="wt-tree-panel-body"
        hidden={packed}
        onClick={packAfterChoice}
        onKeyDown={(e) => {
          if (e.key === 'Enter') packAfterChoice(e);
        }}
      >
        <DeviceTree page={page} />
      </div>
    </Layout.Sider>
  );
}
