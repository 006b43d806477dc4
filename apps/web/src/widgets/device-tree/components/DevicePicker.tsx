import { Select } from 'antd';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeviceTree } from '../api';
import { checkedImeis, filterTree, filtersActive, NO_FILTERS, unselectableReason, type FilteredTree, type TreeIndex, type TreeNode } from '../model';
import { NodeTitle } from './NodeTitle';
import { VirtualTree } from './VirtualTree';
import './DevicePicker.css';

interface Props {
  value: readonly string[];
  onChange: (imeis: string[]) => void;
}

/** The position screens' rule of the tree (§6): any device but a VHF receiver. */
const PAGE = 'track' as const;
const ROW_HEIGHT = 28;
const LIST_HEIGHT = 320;

/**
 * The devices chosen after a check or uncheck in the tree: those unchecked leave, those checked join at
 * the end (a device's colour is its place in the selection, so the others keep theirs). A device in two
 * folders is one device: unchecking it in either takes it out.
 */
export function nextImeis(index: TreeIndex, value: readonly string[], before: readonly string[], after: readonly string[]): string[] {
  const was = new Set(before);
  const now = new Set(after);
  const removed = new Set(checkedImeis(index, before.filter((k) => !now.has(k))));
  const added = checkedImeis(
    index,
    after.filter((k) => !was.has(k)),
  );
  const out = value.filter((imei) => !removed.has(imei));
  for (const imei of added) if (!removed.has(imei) && !out.includes(imei)) out.push(imei);
  return out;
}

/** Every tree key of the chosen devices (a device shared into a folder has a row there too). */
export function keysOf(index: TreeIndex, imeis: readonly string[]): string[] {
  return imeis.flatMap((imei) => index.keysByImei.get(imei) ?? []);
}

/**
 * The devices a position screen (/map2d, /map3d) shows, chosen in the user's device tree itself (§2.3:
 * the tree panel is not shown on the map screens, so it opens under the box): the tree's folders, rows,
 * search (name, remark name, IMEI, or a folder's name) and rules (devices without positions, VHF
 * receivers, are greyed out with the reason), with a checkbox per device and per folder. The box shows
 * the chosen devices as tags.
 */
export function DevicePicker({ value, onChange }: Props) {
  const { t } = useTranslation();
  const tree = useDeviceTree();
  const index = tree.data;
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  const deferred = useDeferredValue(search);
  const box = useRef<HTMLDivElement | null>(null);
  const panelRef = useRef<HTMLDivElement | null>(null);
  // ArrowDown in the box moves the focus into the tree, once the tree is open and drawn.
  const [treeWanted, setTreeWanted] = useState(0);
  const filters = useMemo(() => ({ ...NO_FILTERS, search: deferred }), [deferred]);
  const active = filtersActive(filters);
  const filtered = useMemo(() => (index ? filterTree(index, filters, PAGE, true) : null), [index, filters]);

  // Open folders: the top ones to begin with; while searching, every folder with a match (as the tree).
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const [searchExpanded, setSearchExpanded] = useState<{ for: FilteredTree | null; keys: string[] }>({ for: null, keys: [] });
  if (active && filtered && searchExpanded.for !== filtered) setSearchExpanded({ for: filtered, keys: filtered.folderKeys });
  const topKeys = useMemo(() => filtered?.nodes.map((n) => n.key) ?? [], [filtered]);
  const expandedKeys = active ? searchExpanded.keys : (expanded ?? topKeys);
  const onExpand = useCallback((keys: string[]) => (active ? setSearchExpanded((prev) => ({ ...prev, keys })) : setExpanded(keys)), [active]);

  const checkedKeys = useMemo(() => (index ? keysOf(index, value) : []), [index, value]);
  const onCheck = useCallback((keys: string[]) => index && onChange(nextImeis(index, value, checkedKeys, keys)), [index, value, checkedKeys, onChange]);
  // A click on a device's name checks or unchecks it; on a folder's, opens or closes it.
  const onSelect = useCallback(
    (node: TreeNode) => {
      if (!index) return;
      if (node.entry) {
        const imei = node.entry.device.IMEI;
        onChange(value.includes(imei) ? value.filter((x) => x !== imei) : [...value, imei]);
      } else onExpand(expandedKeys.includes(node.key) ? expandedKeys.filter((k) => k !== node.key) : [...expandedKeys, node.key]);
    },
    [index, value, onChange, onExpand, expandedKeys],
  );

  const titleRender = useCallback(
    (node: TreeNode) => (
      <NodeTitle
        node={node}
        t={t}
        actionsLabel=""
        hasMenu={false}
        menu={null}
        onMenuOpen={noop}
        onMenu={noop}
        reason={node.entry && node.disabled ? unselectableReason(node.entry.device, node.entry.permission, PAGE) : null}
      />
    ),
    [t],
  );

  // The tags' names (and a removed tag's device) come from the tree's devices.
  const options = useMemo(() => {
    const seen = new Set<string>();
    const list: { value: string; label: string }[] = [];
    for (const entry of index?.devices ?? []) {
      const d = entry.device;
      if (seen.has(d.IMEI)) continue;
      seen.add(d.IMEI);
      list.push({ value: d.IMEI, label: d.RemarkName || d.Caption || d.IMEI });
    }
    return list;
  }, [index]);

  useEffect(() => {
    if (treeWanted === 0) return;
    // the tree is drawn a frame or two after the box opens (its popup mounts, then shows)
    let frame = 0;
    let tries = 0;
    const focus = (): void => {
      const list = panelRef.current?.querySelector<HTMLElement>('[role="tree"]');
      if (list && list.offsetParent !== null) list.focus();
      else if (++tries < 30) frame = requestAnimationFrame(focus);
    };
    focus();
    return () => cancelAnimationFrame(frame);
  }, [treeWanted]);

  const input = (): HTMLInputElement | null => box.current?.querySelector('input') ?? null;
  const close = (): void => {
    setOpen(false);
    setSearch('');
  };
  // In the tree (one tab stop, its own arrows, Space and Enter): Esc closes it and gives the box the focus
  // back; a letter goes on with the search in the box.
  const onPanelKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
      input()?.focus();
    } else if (e.key.length === 1 && e.key !== ' ' && !e.ctrlKey && !e.metaKey && !e.altKey) input()?.focus();
  };

  const panel = (
    <div ref={panelRef} className="wt-device-picker-panel" data-testid="device-picker-tree" onMouseDown={(e) => e.preventDefault()} onKeyDown={onPanelKeyDown}>
      <div className="wt-device-picker-summary">
        {index ? (active && filtered ? t('tree.matched', { matched: filtered.matched, total: index.devices.length }) : t('tree.total', { total: index.total })) : ''}
      </div>
      {filtered && filtered.nodes.length > 0 ? (
        <VirtualTree
          className="wt-tree wt-device-picker-tree"
          nodes={filtered.nodes}
          height={LIST_HEIGHT}
          rowHeight={ROW_HEIGHT}
          checkable
          checkedKeys={checkedKeys}
          onCheck={onCheck}
          selectedKey={null}
          onSelect={onSelect}
          expandedKeys={expandedKeys}
          onExpand={onExpand}
          titleRender={titleRender}
          onRightClick={noop}
        />
      ) : (
        <div className="wt-device-picker-empty">{tree.isLoading ? t('common.loading') : active ? t('tree.noMatch') : t('map2d.noDevices')}</div>
      )}
    </div>
  );

  // The tree opens inside this box's own element, right after the box: Tab from the box reaches the tree
  // (one tab stop), and Tab from the tree the next control of the bar, as the eye reads them.
  return (
    <div ref={box} className="wt-device-picker">
      <Select
        mode="multiple"
        data-testid="device-picker"
        aria-label={t('map2d.devices')}
        placeholder={t('map2d.devicesPlaceholder')}
        className="wt-device-picker-select"
        value={[...value]}
        onChange={(imeis: string[]) => onChange(imeis)}
        options={options}
        loading={tree.isLoading}
        allowClear
        maxTagCount="responsive"
        // The search is the tree's (filterTree): typed here, it filters the tree below.
        showSearch={{ searchValue: search, onSearch: setSearch, autoClearSearchValue: false, filterOption: false }}
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) setSearch('');
        }}
        getPopupContainer={() => box.current ?? document.body}
        // Enter on a search that leaves one device chooses it (or takes it out), as a click on its row.
        onInputKeyDown={(e) => {
          // Esc closes the tree (the box keeps the focus).
          if (e.key === 'Escape') {
            close();
            return;
          }
          // ArrowDown opens the tree (the Select does) and moves into it, on the first device or folder.
          if (e.key === 'ArrowDown' && !e.altKey) {
            setTreeWanted((n) => n + 1);
            return;
          }
          if (e.key !== 'Enter' || !filtered || !active) return;
          const only = singleDevice(filtered.nodes);
          if (only && !only.disabled) onSelect(only);
        }}
        popupMatchSelectWidth={360}
        popupRender={() => panel}
      />
    </div>
  );
}

function noop(): void {}

/** The one device the (searched) tree holds, or null when it holds none or several. */
export function singleDevice(nodes: readonly TreeNode[]): TreeNode | null {
  let found: TreeNode | null = null;
  const imeis = new Set<string>();
  const walk = (list: readonly TreeNode[]): void => {
    for (const node of list) {
      if (node.children) walk(node.children);
      else if (node.entry) {
        imeis.add(node.entry.device.IMEI);
        found ??= node;
      }
    }
  };
  walk(nodes);
  return imeis.size === 1 ? found : null;
}
