import { DeleteOutlined, DragOutlined, EditOutlined, FolderAddOutlined, TagOutlined } from '@ant-design/icons';
import { ROOT_FOLDER_ID } from '@wildtrack/contract';
import { Alert, App, Button, Dropdown, Empty, Skeleton, type MenuProps } from 'antd';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useKindTexts } from '../../../i18n/sensor-kinds';
import { ErrorState } from '../../../components/ErrorState';
import { useBoxHeight } from '../../../components/useBoxHeight';
import { useDeleteFolder, useDeviceTree } from '../api';
import {
  ancestorKeys,
  CHECKABLE_PAGES,
  deviceActions,
  filterTree,
  filtersActive,
  folderActions,
  firstNormalDevice,
  folderKey,
  hiddenByRight,
  NO_FILTERS,
  pageFilters,
  SENSOR_FILTER_NAME,
  SENSOR_FILTER_VALUES,
  sensorCounts,
  setTreeSelection,
  unselectableReason,
  useTreeSelection,
  type FilteredTree,
  type FolderEntry,
  type RightFilter,
  type TreeFilters,
  type TreeIndex,
  type TreeNode,
  type TreePage,
} from '../model';
import { TreeMarksProvider } from './LinkMark';
import { NodeTitle } from './NodeTitle';
import { TreeDialogHost, type TreeDialog } from './TreeDialogHost';
import { TreeTools } from './TreeTools';
import { VirtualTree } from './VirtualTree';
import './deviceTree.css';

export interface DeviceTreeProps {
  /** The screen the tree serves: its selection and its selectability rule (§6). */
  page: TreePage;
  /** Checkboxes (§2.3: only /download, /share and /instr); defaults to the page's rule. */
  checkable?: boolean;
}

const ROW_HEIGHT = 28;

/**
 * The device tree (§2.5, §4, §6): every folder and device the user may see, with search, the sensor
 * filter and the download/share filters, device counts on the folders, checkboxes where the page asks,
 * context menus for folders and devices, and the dialogs of §2.4. The tree is virtualized; searching and
 * filtering run over an index built once per fetch.
 */
export function DeviceTree({ page, checkable = CHECKABLE_PAGES.includes(page) }: DeviceTreeProps) {
  const { t } = useTranslation();
  const texts = useKindTexts();
  const { modal, message } = App.useApp();
  const tree = useDeviceTree();
  const index = tree.data;
  const selection = useTreeSelection(page);

  // ---- filters (deferred so typing stays responsive on large trees) ----
  const [search, setSearch] = useState('');
  const [sensor, setSensor] = useState<number>(NO_FILTERS.sensor);
  const [right, setRight] = useState<RightFilter>(pageFilters(page).right);
  const filters = useMemo<TreeFilters>(() => ({ search, sensor, right }), [search, sensor, right]);
  const deferred = useDeferredValue(filters);
  const active = filtersActive(deferred);

  const filtered = useMemo(() => (index ? filterTree(index, deferred, page, checkable) : null), [index, deferred, page, checkable]);

  // ---- expanded folders: the user's own, or (while a filter applies) every folder with matches ----
  const [expanded, setExpanded] = useState<string[]>([]);
  const [filterExpanded, setFilterExpanded] = useState<{ for: FilteredTree | null; keys: string[] }>({ for: null, keys: [] });
  if (active && filtered && filterExpanded.for !== filtered) {
    setFilterExpanded({ for: filtered, keys: filtered.folderKeys });
  }
  const expandedKeys = active ? filterExpanded.keys : expanded;
  const onExpand = useCallback(
    (keys: string[]) => {
      if (active) setFilterExpanded((prev) => ({ ...prev, keys }));
      else setExpanded(keys);
    },
    [active],
  );

  // ---- default selection (§4: the first normal device), and a new one when the selected item left ----
  useEffect(() => {
    if (!index) return;
    const folderGone = selection.folderId !== null && !index.folderById.has(selection.folderId);
    const deviceGone = selection.imei !== null && !index.keysByImei.has(selection.imei);
    if (selection.initialised && !folderGone && !deviceGone) return;
    const first = firstNormalDevice(index, page);
    if (first) setTreeSelection(page, { folderId: first.folderId, imei: first.device.IMEI });
    else setTreeSelection(page, { folderId: index.top[0]?.id ?? ROOT_FOLDER_ID, imei: null });
  }, [index, page, selection.initialised, selection.folderId, selection.imei]);

  // The selected item shows: when the selection moves to another folder (default selection, a click in
  // the table or the breadcrumb), the folders above it open. A folder the user closes stays closed.
  const [revealed, setRevealed] = useState<string | null>(null);
  const revealKey = index && selection.folderId ? `${selection.folderId}\n${selection.imei ?? ''}` : null;
  if (index && revealKey !== null && revealKey !== revealed && selection.folderId) {
    setRevealed(revealKey);
    const path = ancestorKeys(index, selection.folderId);
    const open = selection.imei ? path : path.slice(0, -1);
    if (open.some((k) => !expanded.includes(k))) setExpanded([...new Set([...expanded, ...open])]);
  }

  const selectedKey = useMemo(() => {
    if (!index) return null;
    if (selection.imei) {
      const keys = index.keysByImei.get(selection.imei) ?? [];
      return keys.find((k) => index.deviceByKey.get(k)?.folderId === selection.folderId) ?? keys[0] ?? null;
    }
    return selection.folderId ? folderKey(selection.folderId) : null;
  }, [index, selection.imei, selection.folderId]);

  const onSelect = useCallback(
    (node: TreeNode) => {
      if (node.folder) setTreeSelection(page, { folderId: node.folder.id, imei: null });
      else if (node.entry) setTreeSelection(page, { folderId: node.entry.folderId, imei: node.entry.device.IMEI });
    },
    [page],
  );

  const onCheck = useCallback((keys: string[]) => setTreeSelection(page, { checkedKeys: keys }), [page]);

  // ---- menus and dialogs ----
  const [dialog, setDialog] = useState<TreeDialog | null>(null);
  const closeDialog = useCallback(() => setDialog(null), []);
  const reveal = useCallback((keys: string[]) => setExpanded((prev) => [...new Set([...prev, ...keys])]), []);
  const { mutateAsync: deleteFolder } = useDeleteFolder();

  const menuFor = useCallback(
    (node: TreeNode | null): MenuProps['items'] | null => {
      if (node?.folder) {
        const a = folderActions(node.folder);
        const items: NonNullable<MenuProps['items']> = [];
        if (a.add) items.push({ key: 'add', icon: <FolderAddOutlined />, label: t('tree.addFolder') });
        if (a.rename) items.push({ key: 'rename', icon: <EditOutlined />, label: t('tree.renameFolder') });
        if (a.move) items.push({ key: 'moveFolder', icon: <DragOutlined />, label: t('tree.moveFolder') });
        if (a.remove) items.push({ key: 'delete', icon: <DeleteOutlined />, danger: true, label: t('tree.deleteFolder') });
        return items.length ? items : null;
      }
      if (node?.entry) {
        const a = deviceActions(node.entry);
        const items: NonNullable<MenuProps['items']> = [];
        if (a.remark) items.push({ key: 'remark', icon: <TagOutlined />, label: t('tree.remarkName') });
        if (a.move) items.push({ key: 'moveDevice', icon: <DragOutlined />, label: t('tree.moveDevice') });
        return items;
      }
      return null;
    },
    [t],
  );

  const confirmDelete = useCallback(
    (folder: FolderEntry) => {
      if (folder.deviceCount > 0) {
        // §5: a folder that holds devices can't be deleted; the warning comes before any call.
        modal.warning({ title: t('tree.deleteFolder'), content: t('tree.deleteNotEmpty', { name: folder.name, count: folder.deviceCount }), okText: t('common.ok') });
        return;
      }
      modal.confirm({
        title: t('tree.deleteFolder'),
        content: t('tree.deleteConfirm', { name: folder.name }),
        okText: t('common.delete'),
        okButtonProps: { danger: true },
        cancelText: t('common.cancel'),
        onOk: async () => {
          try {
            await deleteFolder({ id: folder.id });
            message.success(t('tree.deleted'));
          } catch {
            // refused (a device arrived meanwhile, or the folder is gone): the client showed why
          }
        },
      });
    },
    [modal, message, t, deleteFolder],
  );

  const onMenu = useCallback(
    (node: TreeNode, key: string) => {
      if (node.folder) {
        const folder = node.folder;
        if (key === 'add') setDialog({ kind: 'add', parent: folder });
        if (key === 'rename') setDialog({ kind: 'rename', folder });
        if (key === 'moveFolder') setDialog({ kind: 'moveFolder', folder });
        if (key === 'delete') confirmDelete(folder);
      } else if (node.entry) {
        if (key === 'remark') setDialog({ kind: 'remark', entry: node.entry });
        if (key === 'moveDevice') setDialog({ kind: 'moveDevice', entry: node.entry });
      }
    },
    [confirmDelete],
  );

  // The right-click menu: one dropdown over the whole tree, filled for the node under the pointer.
  const contextNode = useRef<TreeNode | null>(null);
  const onRightClick = useCallback((node: TreeNode) => {
    contextNode.current = node;
  }, []);
  const [contextTarget, setContextTarget] = useState<TreeNode | null>(null);
  const contextItems = contextTarget ? menuFor(contextTarget) : null;

  // The row whose "more" menu was opened last keeps its Dropdown (so that closing animates); other rows
  // show a plain button.
  const [menuRow, setMenuRow] = useState<{ key: string; open: boolean } | null>(null);
  const onMenuOpen = useCallback((node: TreeNode, open: boolean) => {
    setMenuRow((prev) => (open ? { key: node.key, open } : prev?.key === node.key ? { key: node.key, open } : prev));
  }, []);

  const actionsLabel = t('tree.actions');
  const titleRender = useCallback(
    (node: TreeNode) => {
      const items = menuRow?.key === node.key ? menuFor(node) : null;
      return (
        <NodeTitle
          node={node}
          t={t}
          actionsLabel={actionsLabel}
          hasMenu={hasActions(node)}
          menu={items && items.length > 0 ? { items, open: menuRow?.open ?? false } : null}
          onMenuOpen={onMenuOpen}
          onMenu={onMenu}
          reason={node.entry && node.disabled ? unselectableReason(node.entry.device, node.entry.permission, page) : null}
        />
      );
    },
    [t, actionsLabel, menuFor, onMenu, onMenuOpen, menuRow, page],
  );

  const [boxRef, height] = useBoxHeight(480);

  const counts = useMemo(() => (index ? { ...sensorCounts(index), ...serverCounts(index) } : {}), [index]);
  const sensorOptions = useMemo(
    () =>
      SENSOR_FILTER_VALUES.map((value) => ({
        value,
        label: `${texts.flag(SENSOR_FILTER_NAME[value]!, 'tree.sensorFilter')} (${counts[value] ?? 0})`,
      })),
    [texts, counts],
  );

  const expandAll = useCallback((): void => {
    if (!filtered) return;
    if (active) setFilterExpanded((prev) => ({ ...prev, keys: filtered.folderKeys }));
    else setExpanded(filtered.folderKeys);
  }, [filtered, active]);
  const collapseAll = useCallback((): void => {
    if (active) setFilterExpanded((prev) => ({ ...prev, keys: [] }));
    else setExpanded([]);
  }, [active]);
  const root = index?.folderById.get(ROOT_FOLDER_ID);
  const addRoot = useMemo(() => (root ? () => setDialog({ kind: 'add', parent: root }) : null), [root]);

  let content: ReactNode;
  if (tree.isPending) content = <Skeleton active paragraph={{ rows: 8 }} className="wt-tree-skeleton" />;
  else if (tree.isError) content = <ErrorState title={t('tree.loadError')} error={tree.error} onRetry={() => void tree.refetch()} />;
  else if (!filtered || filtered.nodes.length === 0)
    content = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={active ? t('tree.noMatch') : t('tree.empty')} />;
  else
    content = (
      <Dropdown
        menu={{
          items: contextItems ?? [],
          onClick: ({ key }) => {
            setContextTarget(null);
            if (contextTarget) onMenu(contextTarget, key);
          },
        }}
        trigger={['contextMenu']}
        destroyOnHidden
        open={contextItems !== null}
        onOpenChange={(open) => setContextTarget(open && menuFor(contextNode.current) ? contextNode.current : null)}
      >
        <div
          onContextMenuCapture={() => {
            contextNode.current = null;
          }}
          className="wt-tree-box-inner"
        >
          <VirtualTree
            className="wt-tree"
            nodes={filtered.nodes}
            height={height}
            rowHeight={ROW_HEIGHT}
            checkable={checkable}
            checkedKeys={selection.checkedKeys}
            onCheck={onCheck}
            selectedKey={selectedKey}
            onSelect={onSelect}
            expandedKeys={expandedKeys}
            onExpand={onExpand}
            titleRender={titleRender}
            onRightClick={onRightClick}
          />
        </div>
      </Dropdown>
    );

  const summary = index
    ? active && filtered
      ? t('tree.matched', { matched: filtered.matched, total: index.devices.length })
      : t('tree.total', { total: index.total })
    : '';

  return (
    <div className="wt-device-tree" data-testid="device-tree" data-page={page}>
      <TreeTools
        search={search}
        onSearch={setSearch}
        sensor={sensor}
        onSensor={setSensor}
        right={right}
        onRight={setRight}
        sensorOptions={sensorOptions}
        summary={summary}
        onExpandAll={expandAll}
        onCollapseAll={collapseAll}
        onAddRoot={addRoot}
      />
      {page === 'share' && right === 'share' && index && hiddenByRight(index, 'share') > 0 && (
        <Alert
          type="info"
          showIcon
          data-testid="tree-right-hidden"
          style={{ margin: '4px 0' }}
          message={t('tree.hiddenByShare', { count: hiddenByRight(index, 'share') })}
          action={
            <Button size="small" type="link" onClick={() => setRight('all')}>
              {t('tree.showAllRights')}
            </Button>
          }
        />
      )}
      <div className="wt-tree-box" ref={boxRef}>
        <TreeMarksProvider>{content}</TreeMarksProvider>
      </div>
      <TreeDialogHost page={page} dialog={dialog} index={index} onClose={closeDialog} onReveal={reveal} />
    </div>
  );
}

/** Whether a row has a menu at all (without building it). */
function hasActions(node: TreeNode): boolean {
  if (node.folder) {
    const a = folderActions(node.folder);
    return a.add || a.rename || a.move || a.remove;
  }
  if (node.entry) {
    const a = deviceActions(node.entry);
    return a.remark || a.move;
  }
  return false;
}

/** The server's per-sensor counts (§3 "Tree counts per sensor"), keyed by filter value. */
function serverCounts(index: TreeIndex): Record<number, number> {
  const out: Record<number, number> = {};
  for (const [key, value] of Object.entries(index.sensorCounts)) {
    const n = Number(key);
    if (Number.isInteger(n)) out[n] = value;
  }
  return out;
}
