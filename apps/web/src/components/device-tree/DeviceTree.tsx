import {
  DeleteOutlined,
  DragOutlined,
  EditOutlined,
  EnvironmentOutlined,
  ExperimentOutlined,
  FolderAddOutlined,
  FolderOutlined,
  MobileOutlined,
  MoreOutlined,
  NodeCollapseOutlined,
  NodeExpandOutlined,
  ShareAltOutlined,
  TagOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import { DeviceType, ROOT_FOLDER_ID } from '@wildtrack/contract';
import { App, Button, Dropdown, Empty, Input, Select, Skeleton, Tooltip, Tree, Typography, type MenuProps } from 'antd';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorState } from '../ErrorState';
import {
  useCreateFolder,
  useDeleteFolder,
  useDeviceTree,
  useMoveDevice,
  useMoveFolder,
  useRenameFolder,
  useUpdateRemarkName,
} from './api';
import {
  ancestorKeys,
  CHECKABLE_PAGES,
  deviceActions,
  filterTree,
  filtersActive,
  folderActions,
  firstNormalDevice,
  NO_FILTERS,
  SENSOR_FILTER_NAME,
  SENSOR_FILTER_VALUES,
  sensorCounts,
  unselectableReason,
  type DeviceEntry,
  type FilteredTree,
  type FolderEntry,
  type RightFilter,
  type TreeFilters,
  type TreeIndex,
  type TreeNode,
  type TreePage,
} from './model';
import { folderLabel } from './labels';
import { setTreeSelection, useTreeSelection } from './selection';
import { MoveDialog, NameDialog } from './TreeDialogs';
import './deviceTree.css';

export interface DeviceTreeProps {
  /** The screen the tree serves: its selection and its selectability rule (§6). */
  page: TreePage;
  /** Checkboxes (§2.3: only /download, /share and /instr); defaults to the page's rule. */
  checkable?: boolean;
}

type Dialog =
  | { kind: 'add'; parent: FolderEntry }
  | { kind: 'rename'; folder: FolderEntry }
  | { kind: 'moveFolder'; folder: FolderEntry }
  | { kind: 'moveDevice'; entry: DeviceEntry }
  | { kind: 'remark'; entry: DeviceEntry };

const ROW_HEIGHT = 28;

/** The height the virtual list gets: the box it sits in, measured. */
function useBoxHeight(fallback: number): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement | null>(null);
  const [height, setHeight] = useState(fallback);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = (): void => {
      const h = Math.floor(box.getBoundingClientRect().height);
      if (h > 0) setHeight(h);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return [ref, height];
}

function DeviceIcon({ type }: { type: number }) {
  if (type === DeviceType.VHFReceiver) return <WifiOutlined />;
  if (type === DeviceType.Phone) return <MobileOutlined />;
  return <EnvironmentOutlined />;
}

interface TitleProps {
  node: TreeNode;
  menu: MenuProps['items'] | null;
  onMenu: (node: TreeNode, key: string) => void;
  reason: string | null;
}

/** One row's title: icon, name, count or remark, and the "more" button with the row's menu. */
const NodeTitle = memo(function NodeTitle({ node, menu, onMenu, reason }: TitleProps) {
  const { t } = useTranslation();
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
        <span className="wt-tree-name" title={reason ? `${name} — ${t(reason)}` : `${name} · ${d.IMEI}`}>
          {name}
        </span>
        {d.RemarkName && d.Caption && d.RemarkName !== d.Caption ? <span className="wt-tree-sub">{d.Caption}</span> : null}
      </>
    );
  }
  return (
    <span className="wt-tree-title" data-key={node.key} data-testid={node.folder ? `tree-folder-${node.folder.id}` : `tree-device-${node.entry?.device.IMEI}`}>
      {body}
      {menu && menu.length > 0 ? (
        <Dropdown menu={{ items: menu, onClick: ({ key, domEvent }) => (domEvent.stopPropagation(), onMenu(node, key)) }} trigger={['click']} destroyOnHidden>
          <Button
            type="text"
            size="small"
            className="wt-tree-more"
            icon={<MoreOutlined />}
            aria-label={t('tree.actions')}
            onClick={(e) => e.stopPropagation()}
          />
        </Dropdown>
      ) : null}
    </span>
  );
});

/**
 * The device tree (§2.5, §4, §6): every folder and device the user may see, with search, the sensor
 * filter and the download/share filters, device counts on the folders, checkboxes where the page asks,
 * context menus for folders and devices, and the dialogs of §2.4. The tree is virtualized; searching and
 * filtering run over an index built once per fetch.
 */
export function DeviceTree({ page, checkable = CHECKABLE_PAGES.includes(page) }: DeviceTreeProps) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const tree = useDeviceTree();
  const index = tree.data;
  const selection = useTreeSelection(page);

  // ---- filters (deferred so typing stays responsive on large trees) ----
  const [search, setSearch] = useState('');
  const [sensor, setSensor] = useState<number>(NO_FILTERS.sensor);
  const [right, setRight] = useState<RightFilter>(NO_FILTERS.right);
  const filters = useMemo<TreeFilters>(() => ({ search, sensor, right }), [search, sensor, right]);
  const deferred = useDeferredValue(filters);
  const active = filtersActive(deferred);

  const filtered = useMemo(() => (index ? filterTree(index, deferred, page, checkable) : null), [index, deferred, page, checkable]);

  // ---- expanded folders: the user's own, or (while a filter applies) every folder with matches ----
  const [expanded, setExpanded] = useState<Key[]>([]);
  const [filterExpanded, setFilterExpanded] = useState<{ for: FilteredTree | null; keys: Key[] }>({ for: null, keys: [] });
  if (active && filtered && filterExpanded.for !== filtered) {
    setFilterExpanded({ for: filtered, keys: filtered.folderKeys });
  }
  const expandedKeys = active ? filterExpanded.keys : expanded;
  const onExpand = useCallback(
    (keys: Key[]) => {
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

  const selectedKeys = useMemo(() => {
    if (!index) return [];
    if (selection.imei) {
      const keys = index.keysByImei.get(selection.imei) ?? [];
      const inFolder = keys.find((k) => index.deviceByKey.get(k)?.folderId === selection.folderId);
      return inFolder ? [inFolder] : keys.slice(0, 1);
    }
    return selection.folderId ? [`f:${selection.folderId}`] : [];
  }, [index, selection.imei, selection.folderId]);

  const onSelect = useCallback(
    (_keys: Key[], info: { selected: boolean; node: unknown }) => {
      const node = info.node as TreeNode;
      if (node.folder) setTreeSelection(page, { folderId: node.folder.id, imei: null });
      else if (node.entry) setTreeSelection(page, { folderId: node.entry.folderId, imei: node.entry.device.IMEI });
    },
    [page],
  );

  const onCheck = useCallback(
    (checked: Key[] | { checked: Key[] }) => {
      const keys = Array.isArray(checked) ? checked : checked.checked;
      setTreeSelection(page, { checkedKeys: keys.map(String) });
    },
    [page],
  );

  // ---- menus and dialogs ----
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const createFolder = useCreateFolder();
  const renameFolder = useRenameFolder();
  const deleteFolder = useDeleteFolder();
  const moveFolder = useMoveFolder();
  const moveDevice = useMoveDevice();
  const updateRemark = useUpdateRemarkName();

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
            await deleteFolder.mutateAsync({ id: folder.id });
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
  const [contextTarget, setContextTarget] = useState<TreeNode | null>(null);
  const contextItems = contextTarget ? menuFor(contextTarget) : null;

  const titleRender = useCallback(
    (raw: unknown) => {
      const node = raw as TreeNode;
      return <NodeTitle node={node} menu={menuFor(node)} onMenu={onMenu} reason={node.entry && node.disabled ? unselectableReason(node.entry.device, node.entry.permission, page) : null} />;
    },
    [menuFor, onMenu, page],
  );

  const [boxRef, height] = useBoxHeight(480);

  const counts = useMemo(() => (index ? { ...sensorCounts(index), ...serverCounts(index) } : {}), [index]);
  const sensorOptions = useMemo(
    () =>
      SENSOR_FILTER_VALUES.map((value) => ({
        value,
        label: `${t(`tree.sensorFilter.${SENSOR_FILTER_NAME[value]}`)} (${counts[value] ?? 0})`,
      })),
    [t, counts],
  );

  const expandAll = (): void => {
    if (!filtered) return;
    if (active) setFilterExpanded((prev) => ({ ...prev, keys: filtered.folderKeys }));
    else setExpanded(filtered.folderKeys);
  };
  const collapseAll = (): void => {
    if (active) setFilterExpanded((prev) => ({ ...prev, keys: [] }));
    else setExpanded([]);
  };

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
          <Tree
            className="wt-tree"
            treeData={filtered.nodes as never}
            virtual
            height={height}
            itemHeight={ROW_HEIGHT}
            blockNode
            showLine={false}
            checkable={checkable}
            checkedKeys={checkable ? (selection.checkedKeys as Key[]) : undefined}
            onCheck={checkable ? onCheck : undefined}
            selectedKeys={selectedKeys}
            onSelect={onSelect}
            expandedKeys={expandedKeys}
            onExpand={onExpand}
            autoExpandParent={false}
            titleRender={titleRender}
            onRightClick={({ node }) => {
              contextNode.current = node as unknown as TreeNode;
            }}
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
      <div className="wt-tree-tools">
        <Input.Search
          allowClear
          size="middle"
          placeholder={t('tree.searchPlaceholder')}
          aria-label={t('tree.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          data-testid="tree-search"
        />
        <div className="wt-tree-filters">
          <Select
            size="small"
            value={sensor}
            onChange={setSensor}
            options={sensorOptions}
            aria-label={t('tree.sensorFilterLabel')}
            popupMatchSelectWidth={false}
            data-testid="tree-sensor-filter"
            className="wt-tree-sensor-select"
          />
          <Select
            size="small"
            value={right}
            onChange={setRight}
            aria-label={t('tree.rightFilterLabel')}
            popupMatchSelectWidth={false}
            data-testid="tree-right-filter"
            options={[
              { value: 'all', label: t('tree.rightFilter.all') },
              { value: 'download', label: t('tree.rightFilter.download') },
              { value: 'share', label: t('tree.rightFilter.share') },
            ]}
          />
        </div>
        <div className="wt-tree-bar">
          <Typography.Text type="secondary" className="wt-tree-summary" data-testid="tree-summary">
            {summary}
          </Typography.Text>
          <span>
            <Tooltip title={t('tree.expandAll')}>
              <Button size="small" type="text" icon={<NodeExpandOutlined />} aria-label={t('tree.expandAll')} onClick={expandAll} />
            </Tooltip>
            <Tooltip title={t('tree.collapseAll')}>
              <Button size="small" type="text" icon={<NodeCollapseOutlined />} aria-label={t('tree.collapseAll')} onClick={collapseAll} />
            </Tooltip>
            <Tooltip title={t('tree.addRootFolder')}>
              <Button
                size="small"
                type="text"
                icon={<FolderAddOutlined />}
                aria-label={t('tree.addRootFolder')}
                disabled={!index?.folderById.get(ROOT_FOLDER_ID)}
                onClick={() => {
                  const root = index?.folderById.get(ROOT_FOLDER_ID);
                  if (root) setDialog({ kind: 'add', parent: root });
                }}
              />
            </Tooltip>
          </span>
        </div>
      </div>
      <div className="wt-tree-box" ref={boxRef}>
        {content}
      </div>

      <NameDialog
        open={dialog?.kind === 'add' || dialog?.kind === 'rename'}
        kind="folder"
        title={dialog?.kind === 'rename' ? t('tree.renameFolder') : t('tree.addFolder')}
        label={t('tree.folderName')}
        initial={dialog?.kind === 'rename' ? dialog.folder.name : ''}
        context={dialog?.kind === 'add' ? t('tree.addUnder', { name: folderLabel(dialog.parent, t) }) : undefined}
        onClose={() => setDialog(null)}
        onSubmit={async (name) => {
          if (dialog?.kind === 'add') {
            const parent = dialog.parent;
            await createFolder.mutateAsync({ name, parentId: parent.id });
            const opened = index ? ancestorKeys(index, parent.id) : [parent.key];
            setExpanded((prev) => [...new Set([...prev, ...opened])]);
            message.success(t('tree.created'));
          } else if (dialog?.kind === 'rename') {
            await renameFolder.mutateAsync({ id: dialog.folder.id, name });
            message.success(t('common.saved'));
          }
        }}
      />
      <NameDialog
        open={dialog?.kind === 'remark'}
        kind="remark"
        title={t('tree.remarkName')}
        label={t('tree.remarkName')}
        initial={dialog?.kind === 'remark' ? dialog.entry.device.RemarkName : ''}
        context={dialog?.kind === 'remark' ? `${dialog.entry.device.Caption} · ${dialog.entry.device.IMEI}` : undefined}
        onClose={() => setDialog(null)}
        onSubmit={async (remarkName) => {
          if (dialog?.kind !== 'remark') return;
          await updateRemark.mutateAsync({ imei: dialog.entry.device.IMEI, remarkName });
          message.success(t('common.saved'));
        }}
      />
      <MoveDialog
        open={dialog?.kind === 'moveFolder' || dialog?.kind === 'moveDevice'}
        title={
          dialog?.kind === 'moveFolder'
            ? t('tree.moveFolderTitle', { name: dialog.folder.name })
            : dialog?.kind === 'moveDevice'
              ? t('tree.moveDeviceTitle', { name: dialog.entry.device.RemarkName || dialog.entry.device.Caption })
              : ''
        }
        moving={dialog?.kind === 'moveFolder' ? dialog.folder.id : undefined}
        current={dialog?.kind === 'moveFolder' ? (dialog.folder.parentId ?? undefined) : dialog?.kind === 'moveDevice' ? dialog.entry.folderId : undefined}
        onClose={() => setDialog(null)}
        onSubmit={async (target) => {
          if (dialog?.kind === 'moveFolder') await moveFolder.mutateAsync({ id: dialog.folder.id, parentId: target });
          else if (dialog?.kind === 'moveDevice') {
            const imei = dialog.entry.device.IMEI;
            await moveDevice.mutateAsync({ imei, folderId: target });
            // the moved device stays selected where it went
            if (selection.imei === imei) setTreeSelection(page, { folderId: target, imei });
          }
          // §4: moving reloads the tree and keeps the expanded nodes (and opens the way to the target)
          const opened = index ? ancestorKeys(index, target) : [`f:${target}`];
          setExpanded((prev) => [...new Set([...prev, ...opened])]);
          message.success(t('tree.moved'));
        }}
      />
    </div>
  );
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
