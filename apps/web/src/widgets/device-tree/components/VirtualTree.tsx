import { CaretDownFilled } from '@ant-design/icons';
// antd's own tree styles (not a public entry point): the rows below use antd's tree class names, so
// they look and behave like antd's Tree without its per-change cost.
import useTreeStyle from 'antd/es/tree/style';
import { memo, useCallback, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { folderChecks, toggleCheck, visibleRows, type FolderCheck, type TreeNode, type TreeRow } from '../model';

/**
 * A virtualized tree for the device tree's large organisations (10,000 devices in 1,000 folders).
 *
 * antd's Tree (rc-tree) rebuilds an entity for every node and flattens the whole tree again whenever its
 * data or its expanded keys change, and draws each row through several components: expanding every
 * folder of such a tree was one main-thread task of more than 100 ms. Here the rows are a flat list
 * built from the already filtered tree (one pass over the expanded part), rows have a fixed height, and
 * only the rows in view (and a few around them) are drawn. The markup and class names are antd's
 * (`ant-tree-treenode`, `-switcher`, `-checkbox`, `-node-content-wrapper`, `ant-tree-list-holder`), and
 * antd's tree styles are used, so it looks as before.
 */

const PREFIX = 'ant-tree';
/** Rows drawn above and below the visible ones, so that scrolling does not show blanks. */
const OVERSCAN = 8;

export interface VirtualTreeProps {
  nodes: readonly TreeNode[];
  height: number;
  /** Every row's height: antd's tree row (24 px title + 4 px gap) in the default theme. */
  rowHeight: number;
  expandedKeys: readonly string[];
  onExpand: (keys: string[]) => void;
  selectedKey: string | null;
  onSelect: (node: TreeNode) => void;
  /** Checkboxes (§2.3: only some pages). */
  checkable: boolean;
  checkedKeys: readonly string[];
  onCheck: (keys: string[]) => void;
  titleRender: (node: TreeNode) => ReactNode;
  onRightClick: (node: TreeNode) => void;
  className?: string;
}

export function VirtualTree({
  nodes,
  height,
  rowHeight,
  expandedKeys,
  onExpand,
  selectedKey,
  onSelect,
  checkable,
  checkedKeys,
  onCheck,
  titleRender,
  onRightClick,
  className,
}: VirtualTreeProps) {
  const [hashId, cssVarCls] = useTreeStyle(PREFIX);
  const treeId = useId();
  const holder = useRef<HTMLDivElement | null>(null);

  const expanded = useMemo(() => new Set(expandedKeys), [expandedKeys]);
  const rows = useMemo(() => visibleRows(nodes, expanded), [nodes, expanded]);
  const checked = useMemo(() => new Set(checkable ? checkedKeys : []), [checkable, checkedKeys]);
  const folders = useMemo(() => (checkable ? folderChecks(nodes, checked) : null), [checkable, nodes, checked]);

  // ---- the window of rows in view ----
  const [scrollTop, setScrollTop] = useState(0);
  const total = rows.length * rowHeight;
  // the list may have shrunk (collapse, filter) before the holder reports its new scroll position
  const top = Math.max(0, Math.min(scrollTop, total - height));
  const first = Math.max(0, Math.floor(top / rowHeight) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((top + height) / rowHeight) + OVERSCAN);

  // ---- actions (stable, so that rows drawn before need not be drawn again) ----
  const state = useRef({ expandedKeys, checkedKeys, nodes, onExpand, onCheck, onSelect, onRightClick });
  useLayoutEffect(() => {
    state.current = { expandedKeys, checkedKeys, nodes, onExpand, onCheck, onSelect, onRightClick };
  });

  const toggle = useCallback((node: TreeNode) => {
    const { expandedKeys: keys, onExpand: expand } = state.current;
    expand(keys.includes(node.key) ? keys.filter((k) => k !== node.key) : [...keys, node.key]);
  }, []);
  const check = useCallback((node: TreeNode, on: boolean) => {
    const s = state.current;
    s.onCheck(toggleCheck(s.nodes, s.checkedKeys, node, on));
  }, []);
  const select = useCallback((node: TreeNode) => state.current.onSelect(node), []);
  const rightClick = useCallback((node: TreeNode) => state.current.onRightClick(node), []);

  // ---- keyboard: arrows move, right/left open and close, Enter selects, Space checks ----
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const activate = useCallback((node: TreeNode) => setActiveKey(node.key), []);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (rows.length === 0) return;
    let index = rows.findIndex((r) => r.node.key === (activeKey ?? selectedKey));
    if (index < 0) index = 0;
    const row = rows[index]!;
    const moveTo = (i: number): void => {
      const to = Math.max(0, Math.min(rows.length - 1, i));
      setActiveKey(rows[to]!.node.key);
      const el = holder.current;
      if (el) {
        if (to * rowHeight < el.scrollTop) el.scrollTop = to * rowHeight;
        else if ((to + 1) * rowHeight > el.scrollTop + height) el.scrollTop = (to + 1) * rowHeight - height;
      }
    };
    switch (e.key) {
      case 'ArrowDown':
        moveTo(index + 1);
        break;
      case 'ArrowUp':
        moveTo(index - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(rows.length - 1);
        break;
      case 'ArrowRight':
        if (row.hasChildren && !row.expanded) toggle(row.node);
        else if (row.expanded) moveTo(index + 1);
        break;
      case 'ArrowLeft':
        if (row.expanded) toggle(row.node);
        else if (row.parentKey !== null) moveTo(rows.findIndex((r) => r.node.key === row.parentKey));
        break;
      case 'Enter':
        if (!row.node.disabled) select(row.node);
        break;
      // The context-menu key and Shift+F10: the browser's contextmenu event that follows opens the tree's
      // menu, for this row (its "more" button is not a tab stop).
      case 'ContextMenu':
        rightClick(row.node);
        return;
      case 'F10':
        if (e.shiftKey) rightClick(row.node);
        return;
      case ' ':
        if (checkable && !row.node.disabled && !row.node.disableCheckbox) check(row.node, !isChecked(row.node, checked, folders));
        else if (!checkable && !row.node.disabled) select(row.node);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const activeIndex = activeKey === null ? -1 : rows.findIndex((r) => r.node.key === activeKey);
  const drawn: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const row = rows[i]!;
    const key = row.node.key;
    drawn.push(
      <Row
        key={key}
        id={`${treeId}-${i}`}
        row={row}
        selected={key === selectedKey}
        active={i === activeIndex}
        checkable={checkable}
        check={checkable ? (row.node.children ? (folders?.get(key) ?? null) : checked.has(key) ? 'all' : null) : null}
        titleRender={titleRender}
        onToggle={toggle}
        onSelect={select}
        onCheck={check}
        onActivate={activate}
        onRightClick={rightClick}
      />,
    );
  }

  return (
    <div className={[PREFIX, `${PREFIX}-block-node`, `${PREFIX}-icon-hide`, className, hashId, cssVarCls].filter(Boolean).join(' ')}>
      <div
        className={`${PREFIX}-list`}
        role="tree"
        tabIndex={0}
        aria-activedescendant={activeIndex >= 0 ? `${treeId}-${activeIndex}` : undefined}
        onKeyDown={onKeyDown}
        // focus from the keyboard lands on the chosen row (or the first): the row the arrows move from is ringed;
        // so too when the row last ringed is no longer shown (a search left it out, its folder was closed)
        onFocus={(e) => {
          if (e.target === e.currentTarget && activeIndex < 0 && rows.length > 0) setActiveKey(rows.some((r) => r.node.key === selectedKey) ? selectedKey : rows[0]!.node.key);
        }}
        style={{ position: 'relative' }}
      >
        <div
          ref={holder}
          className={`${PREFIX}-list-holder`}
          style={{ maxHeight: height, overflowY: 'auto', overflowAnchor: 'none' }}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        >
          <div style={{ height: total, position: 'relative' }}>
            <div
              className={`${PREFIX}-list-holder-inner`}
              style={{ display: 'flex', flexDirection: 'column', position: 'absolute', left: 0, right: 0, top: 0, transform: `translateY(${first * rowHeight}px)` }}
            >
              {drawn}
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}

function isChecked(node: TreeNode, checked: ReadonlySet<string>, folders: Map<string, FolderCheck> | null): boolean {
  return node.children ? folders?.get(node.key) === 'all' : checked.has(node.key);
}

interface RowProps {
  id: string;
  row: TreeRow;
  selected: boolean;
  active: boolean;
  checkable: boolean;
  check: FolderCheck | null;
  titleRender: (node: TreeNode) => ReactNode;
  onToggle: (node: TreeNode) => void;
  onSelect: (node: TreeNode) => void;
  onCheck: (node: TreeNode, on: boolean) => void;
  onActivate: (node: TreeNode) => void;
  onRightClick: (node: TreeNode) => void;
}

/** One row, in antd's tree markup: indent, switcher, checkbox, title. */
const Row = memo(function Row({ id, row, selected, active, checkable, check, titleRender, onToggle, onSelect, onCheck, onActivate, onRightClick }: RowProps) {
  const { node, depth, hasChildren, expanded } = row;
  const disabled = Boolean(node.disabled);
  const checkDisabled = disabled || Boolean(node.disableCheckbox);
  const folder = Boolean(node.children);
  const cls = [`${PREFIX}-treenode`];
  if (disabled) cls.push(`${PREFIX}-treenode-disabled`);
  if (folder) cls.push(`${PREFIX}-treenode-switcher-${expanded ? 'open' : 'close'}`);
  else cls.push(`${PREFIX}-treenode-leaf`);
  if (check === 'all') cls.push(`${PREFIX}-treenode-checkbox-checked`);
  if (check === 'some') cls.push(`${PREFIX}-treenode-checkbox-indeterminate`);
  if (selected) cls.push(`${PREFIX}-treenode-selected`);
  if (active) cls.push(`${PREFIX}-treenode-active`);

  const indent: ReactNode[] = [];
  for (let i = 0; i < depth; i++) indent.push(<span key={i} className={`${PREFIX}-indent-unit`} />);

  const state = hasChildren ? (expanded ? 'open' : 'close') : 'normal';
  return (
    <div
      id={id}
      role="treeitem"
      aria-level={depth + 1}
      aria-expanded={hasChildren ? expanded : undefined}
      aria-selected={disabled ? undefined : selected}
      aria-checked={checkable && !disabled ? (check === 'some' ? 'mixed' : check === 'all') : undefined}
      aria-disabled={disabled}
      className={cls.join(' ')}
    >
      <span aria-hidden="true" className={`${PREFIX}-indent`}>
        {indent}
      </span>
      {hasChildren ? (
        <span
          className={`${PREFIX}-switcher ${PREFIX}-switcher_${expanded ? 'open' : 'close'}`}
          onClick={() => {
            onActivate(node);
            onToggle(node);
          }}
        >
          <CaretDownFilled className={`${PREFIX}-switcher-icon`} />
        </span>
      ) : (
        <span className={`${PREFIX}-switcher ${PREFIX}-switcher-noop`} />
      )}
      {checkable ? (
        <span
          className={[
            `${PREFIX}-checkbox`,
            check === 'all' ? `${PREFIX}-checkbox-checked` : '',
            check === 'some' ? `${PREFIX}-checkbox-indeterminate` : '',
            checkDisabled ? `${PREFIX}-checkbox-disabled` : '',
          ]
            .filter(Boolean)
            .join(' ')}
          role="checkbox"
          aria-checked={check === 'some' ? 'mixed' : check === 'all'}
          aria-disabled={checkDisabled}
          onClick={() => {
            if (checkDisabled) return;
            onActivate(node);
            onCheck(node, check !== 'all');
          }}
        >
          <span className={`${PREFIX}-checkbox-inner`} />
        </span>
      ) : null}
      <span
        className={`${PREFIX}-node-content-wrapper ${PREFIX}-node-content-wrapper-${state}${selected && !disabled ? ` ${PREFIX}-node-selected` : ''}`}
        onClick={() => {
          if (disabled) return;
          onActivate(node);
          onSelect(node);
        }}
        onContextMenu={() => onRightClick(node)}
      >
        <span className={`${PREFIX}-title`}>{titleRender(node)}</span>
      </span>
    </div>
  );
});
