import { gradeLetter, type Fix } from '@wildtrack/contract';
import { CheckCircleFilled, CloseCircleFilled, MinusCircleFilled } from '@ant-design/icons';
import { Table, Tag, Tooltip, type TableProps } from 'antd';
import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { pagingAfterChange, tablePager, type TablePaging } from '../../../components/serverTable';
import type { FixSortField } from '../api';
import { fixState, type FixState } from '../model';
import { DECIMALS, DEFAULT_CHOICE, MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH, tableWidth, widthOf, type ColumnChoice, type FixColumn } from './fixColumns';

export type FixPaging = TablePaging<FixSortField>;

interface Props {
  rows: readonly Fix[];
  total: number;
  loading: boolean;
  paging: FixPaging;
  onPaging: (paging: FixPaging) => void;
  /** The fix chosen in the table or on the map. */
  activeId: string | null;
  onActivate: (fix: Fix) => void;
  /** Rows checked for marking; null when the user can't mark (no checkboxes). */
  selectedIds: readonly string[] | null;
  onSelectRows?: (changes: { add: Fix[]; remove: string[] }) => void;
  emptyText: ReactNode;
  /** The table's body height. */
  height: number;
  /** Shown columns and their widths (the compact default set when not given). */
  choice?: ColumnChoice;
  /** A column's header edge dragged (or moved by the arrow keys) to this width; `done` at the drop. */
  onResize?: (column: FixColumn, width: number, done: boolean) => void;
}

const dash = <span className="wt-muted">—</span>;

/** A number with a column's fixed decimals, or a dash. */
export function num(value: number | null | undefined, digits = 2): ReactNode {
  if (value === null || value === undefined || !Number.isFinite(value)) return dash;
  return value.toFixed(digits);
}

/** A coordinate in absolute degrees with its hemisphere, or a dash (the fix's detail). */
export function coordinate(value: number | null, tag: string): ReactNode {
  if (value === null) return dash;
  return `${value.toFixed(6)}° ${tag}`;
}

/** A coordinate as the table aligns it: signed decimal degrees (south and west negative), 6 decimals. */
export function signedCoordinate(value: number | null, tag: string): ReactNode {
  if (value === null) return dash;
  return (tag === 'S' || tag === 'W' ? -value : value).toFixed(6);
}

const GRADE_TAG: Record<string, string> = { A: 'green', B: 'lime', C: 'gold', D: 'orange', E: 'red', N: 'default' };

const STATE_TAG: Record<FixState, string> = { valid: 'success', noPosition: 'default', outOfRange: 'warning', marked: 'error' };

/** Why a fix is or isn't valid, in words: the state, and who marked it and when. */
function useValidityText(fix: Fix): { state: FixState; label: string; detail: string | null } {
  const { t } = useTranslation();
  const state = fixState(fix);
  const label = t(`track.validity.${state}`);
  if (state === 'marked') {
    const info = fix.ConvertedInvalid;
    const by = info?.Operator ? t('track.validity.markedBy', { name: info.Operator, time: info.OperateTime }) : t('track.validity.markedAt', { time: info?.OperateTime ?? '' });
    return { state, label, detail: by };
  }
  return { state, label, detail: state === 'valid' ? null : t(`track.validity.${state}Help`) };
}

/** The Validity column: valid, or why not (no position, out of range, marked by whom and when). */
export function Validity({ fix }: { fix: Fix }) {
  const { state, label, detail } = useValidityText(fix);
  const tag = <Tag color={STATE_TAG[state]}>{label}</Tag>;
  if (state !== 'marked') {
    return (
      <span data-testid="fix-validity" data-state={state}>
        {detail ? <Tooltip title={detail}>{tag}</Tooltip> : tag}
      </span>
    );
  }
  return (
    <span data-testid="fix-validity" data-state={state} className="wt-track-marked">
      {tag}
      <span className="wt-track-marked-by">{detail}</span>
    </span>
  );
}

const STATE_ICON: Record<FixState, ReactNode> = {
  valid: <CheckCircleFilled className="wt-validity-icon wt-validity-valid" />,
  noPosition: <MinusCircleFilled className="wt-validity-icon wt-validity-none" />,
  outOfRange: <MinusCircleFilled className="wt-validity-icon wt-validity-out" />,
  marked: <CloseCircleFilled className="wt-validity-icon wt-validity-marked" />,
};

/** The table's narrow Validity cell: an icon named by its state, the reason (and who marked it) on hover. */
export function ValidityMark({ fix }: { fix: Fix }) {
  const { state, label, detail } = useValidityText(fix);
  const text = detail ? `${label} · ${detail}` : label;
  return (
    <Tooltip title={text}>
      <span data-testid="fix-validity" data-state={state} role="img" aria-label={text} className="wt-validity">
        {STATE_ICON[state]}
      </span>
    </Tooltip>
  );
}

/** Props antd hands a header cell, with a column's width and resize callback when it is resizable. */
type HeaderCellProps = React.ThHTMLAttributes<HTMLTableCellElement> & {
  resizeWidth?: number;
  resizeLabel?: string;
  onResizeWidth?: (width: number, done: boolean) => void;
};

/**
 * A header cell with a handle on its right edge: dragged (pointer) or moved by the arrow keys, it sets
 * the column's width. A click on it never sorts.
 */
export function ResizableHeaderCell({ resizeWidth, resizeLabel, onResizeWidth, children, ...rest }: HeaderCellProps) {
  const start = useRef<{ x: number; width: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  if (resizeWidth === undefined || !onResizeWidth) return <th {...rest}>{children}</th>;
  const clamp = (w: number) => Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, w)));
  return (
    <th {...rest}>
      {children}
      <span
        className={`wt-col-resize${dragging ? ' wt-col-resize-active' : ''}`}
        role="separator"
        aria-orientation="vertical"
        aria-label={resizeLabel}
        aria-valuenow={resizeWidth}
        aria-valuemin={MIN_COLUMN_WIDTH}
        aria-valuemax={MAX_COLUMN_WIDTH}
        tabIndex={0}
        data-testid="column-resize"
        onClick={(e) => e.stopPropagation()}
        onPointerDown={(e) => {
          e.stopPropagation();
          e.preventDefault();
          e.currentTarget.setPointerCapture(e.pointerId);
          start.current = { x: e.clientX, width: resizeWidth };
          setDragging(true);
        }}
        onPointerMove={(e) => {
          if (start.current) onResizeWidth(clamp(start.current.width + e.clientX - start.current.x), false);
        }}
        onPointerUp={(e) => {
          if (!start.current) return;
          onResizeWidth(clamp(start.current.width + e.clientX - start.current.x), true);
          start.current = null;
          setDragging(false);
        }}
        onPointerCancel={() => {
          start.current = null;
          setDragging(false);
        }}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
          e.preventDefault();
          e.stopPropagation();
          onResizeWidth(clamp(resizeWidth + (e.key === 'ArrowRight' ? 8 : -8)), true);
        }}
      />
    </th>
  );
}

/**
 * The fixes table (§3 Fix, each column with its unit and fixed decimals, numbers aligned right), sorted
 * and paged on the server (§9: 10, 20, 40, 50 or 100 rows, 20 by default, total and quick jumper). It
 * shows the chosen columns (a compact set by default) at their widths; a header's right edge resizes its
 * column. Invalid fixes are greyed and say why; a second-level average says how many fixes it stands for.
 */
export function FixTable({ rows, total, loading, paging, onPaging, activeId, onActivate, selectedIds, onSelectRows, emptyText, height, choice = DEFAULT_CHOICE, onResize }: Props) {
  const { t } = useTranslation();
  const sortOrderOf = (field: FixSortField) => {
    const current = paging.sortField ?? 'PickTime';
    const order = paging.sortField ? paging.sortOrder : 'descend';
    return current === field ? (order ?? null) : null;
  };
  const sortable = (field: FixSortField) => ({ sorter: true, sortOrder: sortOrderOf(field) });
  const numeric = (column: FixColumn, value: (f: Fix) => number | null) => ({
    align: 'right' as const,
    className: 'wt-num',
    render: (_: unknown, f: Fix) => num(value(f), DECIMALS[column] ?? 0),
  });

  const definitions: Record<FixColumn, NonNullable<TableProps<Fix>['columns']>[number]> = {
    PickTime: {
      ...sortable('PickTime'),
      // Time is the default order: its header turns between the two orders and never to "unsorted".
      sortDirections: ['ascend', 'descend', 'ascend'],
      title: t('track.col.pickTime'),
      fixed: 'left',
      render: (_, f) => (
        <span className="wt-track-time">
          <span className="wt-mono">{f.PickTime}</span>
          {f.GroupSize && f.GroupSize > 1 ? (
            <Tooltip title={t('track.averageHelp')}>
              <Tag className="wt-tag-inline" color="purple" data-testid="fix-average">
                {t('track.average', { count: f.GroupSize })}
              </Tag>
            </Tooltip>
          ) : null}
        </span>
      ),
    },
    Latitude: { title: t('track.col.latitudeShort'), align: 'right', className: 'wt-num', render: (_, f) => signedCoordinate(f.Latitude, f.LatitudeTag) },
    Longitude: { title: t('track.col.longitudeShort'), align: 'right', className: 'wt-num', render: (_, f) => signedCoordinate(f.Longitude, f.LongitudeTag) },
    Altitude: { ...sortable('Altitude'), title: `${t('track.col.altitude')} (m)`, ...numeric('Altitude', (f) => f.Altitude) },
    Speed: { ...sortable('Speed'), title: `${t('track.col.speed')} (km/h)`, ...numeric('Speed', (f) => f.Speed) },
    Course: { title: `${t('track.col.course')} (°)`, ...numeric('Course', (f) => f.Course) },
    HDOP: { ...sortable('HDOP'), title: 'HDOP', ...numeric('HDOP', (f) => f.HDOP) },
    VDOP: { title: 'VDOP', ...numeric('VDOP', (f) => f.VDOP) },
    Satellites: { ...sortable('Satellites'), title: t('track.col.satellitesShort'), ...numeric('Satellites', (f) => f.Satellites) },
    PrecisionGrade: {
      ...sortable('PrecisionGrade'),
      title: t('track.col.precisionShort'),
      align: 'center',
      render: (_, f) => {
        const letter = gradeLetter(f.PrecisionGrade);
        if (!letter) return dash;
        return (
          <Tag color={GRADE_TAG[letter]} className="wt-track-grade" data-testid="fix-grade" data-grade={letter}>
            {letter}
          </Tag>
        );
      },
    },
    Validity: { title: t('track.col.validShort'), align: 'center', render: (_, f) => <ValidityMark fix={f} /> },
    Temperature: { ...sortable('Temperature'), title: `${t('track.col.temperature')} (°C)`, ...numeric('Temperature', (f) => f.Temperature) },
    Exercise: { ...sortable('Exercise'), title: t('track.col.exercise'), ...numeric('Exercise', (f) => f.Exercise) },
    Voltage: { ...sortable('Voltage'), title: `${t('track.col.voltage')} (V)`, ...numeric('Voltage', (f) => f.Voltage) },
    Channel: { title: t('track.col.channel'), ...numeric('Channel', (f) => f.Channel) },
    TransmissionTime: { ...sortable('TransmissionTime'), title: t('track.col.transmissionTime'), className: 'wt-mono', render: (_, f) => f.TransmissionTime || dash },
  };

  const columns: TableProps<Fix>['columns'] = choice.columns.map((column) => {
    const width = widthOf(choice, column);
    const title = definitions[column]!.title as ReactNode;
    return {
      ...definitions[column],
      key: column,
      width,
      onHeaderCell: () =>
        ({
          'data-column': column,
          resizeWidth: width,
          resizeLabel: t('track.columns.resize', { name: typeof title === 'string' ? title : column }),
          onResizeWidth: onResize ? (w: number, done: boolean) => onResize(column, w, done) : undefined,
        }) as React.HTMLAttributes<HTMLElement>,
    };
  });

  const rowClass = (f: Fix): string => {
    const state = fixState(f);
    return [state === 'valid' ? '' : state === 'marked' ? 'wt-fix-invalid wt-fix-marked' : 'wt-fix-invalid', f.Id === activeId ? 'wt-row-active' : ''].filter(Boolean).join(' ');
  };

  return (
    <Table<Fix>
      className="wt-fix-table"
      size="small"
      rowKey="Id"
      data-testid="fix-table"
      data-columns={choice.columns.join(',')}
      columns={columns}
      components={{ header: { cell: ResizableHeaderCell } }}
      dataSource={rows as Fix[]}
      loading={loading}
      tableLayout="fixed"
      scroll={{ x: tableWidth(choice, selectedIds !== null), y: height }}
      locale={{ emptyText }}
      rowClassName={rowClass}
      // each row a tab stop that Enter opens, as a click does (keyboard users, issue 12 item 7)
      onRow={(f) =>
        ({
          onClick: () => onActivate(f),
          tabIndex: 0,
          onKeyDown: (e: React.KeyboardEvent<HTMLElement>) => e.key === 'Enter' && e.target === e.currentTarget && onActivate(f),
          'data-state': fixState(f),
        }) as React.HTMLAttributes<HTMLElement>
      }
      rowSelection={
        selectedIds
          ? {
              selectedRowKeys: [...selectedIds],
              preserveSelectedRowKeys: true,
              columnWidth: 32,
              fixed: true,
              getCheckboxProps: (f) => ({ disabled: fixState(f) === 'marked', 'aria-label': f.PickTime }),
              onSelect: (f, checked) => onSelectRows?.(checked ? { add: [f], remove: [] } : { add: [], remove: [f.Id] }),
              onSelectAll: (checked, _selected, changed) =>
                onSelectRows?.(checked ? { add: changed.filter(Boolean), remove: [] } : { add: [], remove: changed.filter(Boolean).map((f) => f.Id) }),
            }
          : undefined
      }
      pagination={tablePager(paging, total, (n) => t('track.total', { count: n }))}
      onChange={(pagination, _filters, sorter, extra) => onPaging(pagingAfterChange(paging, pagination, sorter, extra.action))}
    />
  );
}
