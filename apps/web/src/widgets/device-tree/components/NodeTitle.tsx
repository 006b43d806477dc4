import {
  EnvironmentOutlined,
  ExperimentOutlined,
  FolderOutlined,
  MobileOutlined,
  MoreOutlined,
  ShareAltOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import { DeviceType } from '@wildtrack/contract';
import { Dropdown, type MenuProps } from 'antd';
import { memo, type ReactNode } from 'react';
import type { useTranslation } from 'react-i18next';
import { folderLabel, type TreeNode } from '../model';
import { LinkMark } from './LinkMark';

function DeviceIcon({ type }: { type: number }) {
  if (type === DeviceType.VHFReceiver) return <WifiOutlined />;
  if (type === DeviceType.Phone) return <MobileOutlined />;
  return <EnvironmentOutlined />;
}

type T = ReturnType<typeof useTranslation>['t'];

export interface TitleProps {
  node: TreeNode;
  t: T;
  /** The "more" button's label (translated once for all rows). */
  actionsLabel: string;
  /** Whether the row offers a menu (its "more" button shows). */
  hasMenu: boolean;
  /**
   * The row's menu while it is the row whose menu was opened last, else null. An antd Dropdown (a
   * Trigger, a Portal and a Button) costs more to mount than the rest of a row, and expanding every folder
   * mounts a screenful of rows in one task: so a row shows a plain button and gets its Dropdown only when
   * that button is used.
   */
  menu: { items: NonNullable<MenuProps['items']>; open: boolean } | null;
  onMenuOpen: (node: TreeNode, open: boolean) => void;
  onMenu: (node: TreeNode, key: string) => void;
  reason: string | null;
}

/** One row's title: icon, name, count or remark, and the "more" button with the row's menu. */
export const NodeTitle = memo(function NodeTitle({ node, t, actionsLabel, hasMenu, menu, onMenuOpen, onMenu, reason }: TitleProps) {
  let body: ReactNode;
  if (node.folder) {
    const f = node.folder;
    const icon = f.kind === 'experience' ? <ExperimentOutlined /> : f.kind === 'shared' ? <ShareAltOutlined /> : <FolderOutlined />;
    body = (
      <>
        <span className="wt-tree-icon">{icon}</span>
        <span className="wt-tree-name">{folderLabel(f, t)}</span>
        <span className="wt-tree-count" data-testid="folder-count">
          {node.count ?? 0}
        </span>
      </>
    );
  } else if (node.entry) {
    const d = node.entry.device;
    const name = d.RemarkName || d.Caption || d.IMEI;
    body = (
      <>
        <span className="wt-tree-icon">
          <DeviceIcon type={d.Type} />
        </span>
        <LinkMark imei={d.IMEI} />
        <span className="wt-tree-name" title={reason ? `${name} — ${t(reason)}` : `${name} · ${d.IMEI}`}>
          {name}
        </span>
        {d.RemarkName && d.Caption && d.RemarkName !== d.Caption ? <span className="wt-tree-sub">{d.Caption}</span> : null}
      </>
    );
  }
  let more: ReactNode = null;
  if (hasMenu && menu) {
    more = (
      <Dropdown
        menu={{ items: menu.items, onClick: ({ key, domEvent }) => (domEvent.stopPropagation(), onMenuOpen(node, false), onMenu(node, key)) }}
        trigger={['click']}
        open={menu.open}
        onOpenChange={(open) => onMenuOpen(node, open)}
        destroyOnHidden
      >
        <button
          type="button"
          className="wt-tree-more"
          // one tab stop per tree (the rows are reached with the arrows); the row's menu opens with the
          // context-menu key or Shift+F10 on the tree
          tabIndex={-1}
          aria-label={actionsLabel}
          aria-haspopup="menu"
          aria-expanded={menu.open}
          onClick={(e) => e.stopPropagation()}
          // the Dropdown replaced the plain button that was pressed: the focus stays on the button
          ref={focusOnMount}
        >
          <MoreOutlined />
        </button>
      </Dropdown>
    );
  } else if (hasMenu) {
    more = (
      <button
        type="button"
        className="wt-tree-more"
        tabIndex={-1}
        aria-label={actionsLabel}
        aria-haspopup="menu"
        aria-expanded={false}
        onClick={(e) => (e.stopPropagation(), onMenuOpen(node, true))}
      >
        <MoreOutlined />
      </button>
    );
  }
  return (
    <span className="wt-tree-title" data-key={node.key} data-testid={node.folder ? `tree-folder-${node.folder.id}` : `tree-device-${node.entry?.device.IMEI}`}>
      {body}
      {more}
    </span>
  );
});

function focusOnMount(el: HTMLButtonElement | null): void {
  el?.focus({ preventScroll: true });
}

