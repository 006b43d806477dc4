import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, type SortOrder } from '@wildtrack/contract';
import type { TablePaginationConfig } from 'antd';
import type { Key, ReactNode } from 'react';
import { useCallback, useState } from 'react';

/** A server-paged table's request: the page, its size and the sort (the paged calls' fields). */
export interface TablePaging<F extends string> {
  currentPage: number;
  pageSize: number;
  sortField?: F | undefined;
  sortOrder?: SortOrder | undefined;
}

/** What antd's Table hands its onChange, as far as paging and sorting go. */
interface SorterLike {
  columnKey?: Key | undefined;
  order?: SortOrder | null | undefined;
}
interface ChangeLike {
  current?: number | undefined;
  pageSize?: number | undefined;
}

/**
 * The next request after the user used the table's pager or a column header: a new sort or a new page
 * size starts again at page 1 (the page the user looked at means nothing in the new order).
 */
export function pagingAfterChange<F extends string>(prev: TablePaging<F>, pagination: ChangeLike, sorter: SorterLike | SorterLike[], action: string): TablePaging<F> {
  const s = Array.isArray(sorter) ? sorter[0] : sorter;
  const field = s?.order ? (s.columnKey as F) : undefined;
  const pageSize = pagination.pageSize ?? prev.pageSize;
  const restart = action === 'sort' || pageSize !== prev.pageSize;
  return { currentPage: restart ? 1 : (pagination.current ?? 1), pageSize, sortField: field, sortOrder: field ? (s?.order ?? undefined) : undefined };
}

/** antd's pager of a server-paged table: the page sizes of §9, the total and a quick jumper. */
export function tablePager(paging: { currentPage: number; pageSize: number }, total: number, showTotal: (total: number) => ReactNode): TablePaginationConfig {
  return {
    current: paging.currentPage,
    pageSize: paging.pageSize,
    total,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
    showQuickJumper: true,
    showTotal,
    size: 'small',
  };
}

/**
 * The state of a server-paged table (§2.5 Pager: total, quick jumper, page sizes of §9) with the rules
 * every such table keeps: a new sort, a new page size, or new filters (`filtersKey`: what else the call
 * asks for, e.g. the folder or the range) start again at page 1; page size and sort survive new filters.
 */
export function useServerTable<F extends string = never>(filtersKey: string, initial?: TablePaging<F>) {
  // `initial`: the paging to open on (one kept in the URL), read at mount only
  const [state, setState] = useState<TablePaging<F> & { for: string }>(() => ({ ...(initial ?? { currentPage: 1, pageSize: DEFAULT_PAGE_SIZE }), for: filtersKey }));
  let paging = state;
  if (state.for !== filtersKey) {
    paging = { ...state, currentPage: 1, for: filtersKey };
    setState(paging);
  }

  const setPaging = useCallback(
    (next: TablePaging<F> | ((prev: TablePaging<F>) => TablePaging<F>)) =>
      setState((prev) => ({ ...(typeof next === 'function' ? next(prev) : next), for: prev.for })),
    [],
  );

  const onChange = useCallback(
    (pagination: ChangeLike, _filters: unknown, sorter: SorterLike | SorterLike[], extra: { action: string }) =>
      setState((prev) => ({ ...pagingAfterChange(prev, pagination, sorter, extra.action), for: prev.for })),
    [],
  );

  /** The header's arrow for a column: the order when the table is sorted by it. */
  const sortOrderOf = (field: F): SortOrder | null => (paging.sortField === field ? (paging.sortOrder ?? null) : null);

  /** antd's pager for this table. */
  const pagination = (total: number, showTotal: (total: number) => ReactNode): TablePaginationConfig => tablePager(paging, total, showTotal);

  const { for: _for, ...request } = paging;
  return { paging: request as TablePaging<F>, setPaging, onChange, sortOrderOf, pagination };
}
