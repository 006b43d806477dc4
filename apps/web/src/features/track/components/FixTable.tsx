import { gradeLetter, type Fix } from '@wildtrack/contract';
import { Table, Tag, Tooltip, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { pagingAfterChange, tablePager, type TablePaging } from '../../../components/serverTable';
import type { FixSortField } from '../api';
import { fixState, type FixState } from '../model';

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
}

const dash = <span className="wt-muted">—</span>;

/** A number without trailing zeros (averaged rows carry fractions). */
export function num(value: number | null | undefined, digits = 2): ReactNode {
  if (value === null || value === undefined || !Number.isFinite(value)) return dash;
  return String(Number(value.toFixed(digits)));
}

/** A coordinate in absolute degrees with its hemisphere, or a dash. */
export function coordinate(value: number | null, tag: string): ReactNode {
  if (value === null) return dash;
  return `${value.toFixed(6)}° ${tag}`;
}

const GRADE_TAG: Record<string, string> = { A: 'green', B: 'lime', C: 'gold', D: 'orange', E: 'red', N: 'default' };

const STATE_TAG: Record<FixState, string> = { valid: 'success', noPosition: 'default', outOfRange: 'warning', marked: 'error' };

/** The Validity column: valid, or why not (no position, out of range, marked by whom and when). */
export function Validity({ fix }: { fix: Fix }) {
  const { t } = useTranslation();
  const state = fixState(fix);
  const label = <Tag color={STATE_TAG[state]}>{t(`track.validity.${state}`)}</Tag>;
  if (state !== 'marked') {
    return (
      <span data-testid="fix-validity" data-state={state}>
        {state === 'valid' ? label : <Tooltip title={t(`track.validity.${state}Help`)}>{label}</Tooltip>}
      </span>
    );
  }
  const info = fix.ConvertedInvalid;
  const by = info?.Operator ? t('track.validity.markedBy', { name: info.Operator, time: info.OperateTime }) : t('track.validity.markedAt', { time: info?.OperateTime ?? '' });
  return (
    <span data-testid="fix-validity" data-state={state} className="wt-track-marked">
      {label}
      <span className="wt-track-marked-by">{by}</span>
    </span>
  );
}

/**
 * The fixes table (§3 Fix, every column with its unit), sorted and paged on the server (§9: 10, 20, 40,
 * 50 or 100 rows, 20 by default, total and quick jumper). Invalid fixes are greyed and say why; a
 * second-level average says how many fixes it stands for.
 */
export function FixTable({ rows, total, loading, paging, onPaging, activeId, onActivate, selectedIds, onSelectRows, emptyText, height }: Props) {
  const { t } = useTranslation();
  const sortOrderOf = (field: FixSortField) => {
    const current = paging.sortField ?? 'PickTime';
    const order = paging.sortField ? paging.sortOrder : 'descend';
    return current === field ? (order ?? null) : null;
  };
  const sortable = (field: FixSortField) => ({ key: field, sorter: true, sortOrder: sortOrderOf(field) });

  const columns: TableProps<Fix>['columns'] = [
    {
      ...sortable('PickTime'),
      // Time is the default order: its header turns between the two orders and never to "unsorted".
      sortDirections: ['ascend', 'descend', 'ascend'],
      title: t('track.col.pickTime'),
      width: 262,
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
    { key: 'Longitude', title: t('track.col.longitude'), width: 136, className: 'wt-mono', render: (_, f) => coordinate(f.Longitude, f.LongitudeTag) },
    { key: 'Latitude', title: t('track.col.latitude'), width: 128, className: 'wt-mono', render: (_, f) => coordinate(f.Latitude, f.LatitudeTag) },
    { ...sortable('Speed'), title: `${t('track.col.speed')} (km/h)`, width: 118, align: 'right', render: (_, f) => num(f.Speed, 1) },
    { key: 'Course', title: `${t('track.col.course')} (°)`, width: 90, align: 'right', render: (_, f) => num(f.Course, 0) },
    { ...sortable('Altitude'), title: `${t('track.col.altitude')} (m)`, width: 108, align: 'right', render: (_, f) => num(f.Altitude, 1) },
    { ...sortable('Temperature'), title: `${t('track.col.temperature')} (°C)`, width: 124, align: 'right', render: (_, f) => num(f.Temperature, 1) },
    { ...sortable('Exercise'), title: t('track.col.exercise'), width: 100, align: 'right', render: (_, f) => num(f.Exercise, 1) },
    { ...sortable('Voltage'), title: `${t('track.col.voltage')} (V)`, width: 110, align: 'right', render: (_, f) => num(f.Voltage, 2) },
    { key: 'Channel', title: t('track.col.channel'), width: 84, align: 'right', render: (_, f) => num(f.Channel, 0) },
    { ...sortable('Satellites'), title: t('track.col.satellites'), width: 104, align: 'right', render: (_, f) => num(f.Satellites, 0) },
    { ...sortable('HDOP'), title: 'HDOP', width: 86, align: 'right', render: (_, f) => num(f.HDOP, 1) },
    { key: 'VDOP', title: 'VDOP', width: 76, align: 'right', render: (_, f) => num(f.VDOP, 1) },
    {
      ...sortable('PrecisionGrade'),
      title: t('track.col.precision'),
      width: 104,
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
    { key: 'Validity', title: t('track.col.validity'), width: 250, render: (_, f) => <Validity fix={f} /> },
    { ...sortable('TransmissionTime'), title: t('track.col.transmissionTime'), width: 176, className: 'wt-mono', render: (_, f) => f.TransmissionTime || dash },
  ];

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
      columns={columns}
      dataSource={rows as Fix[]}
      loading={loading}
      scroll={{ x: 2170, y: height }}
      locale={{ emptyText }}
      rowClassName={rowClass}
      onRow={(f) => ({ onClick: () => onActivate(f), 'data-state': fixState(f) }) as React.HTMLAttributes<HTMLElement>}
      rowSelection={
        selectedIds
          ? {
              selectedRowKeys: [...selectedIds],
              preserveSelectedRowKeys: true,
              columnWidth: 40,
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
