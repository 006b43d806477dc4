import { DEFAULT_PAGE_SIZE } from '@wildtrack/contract';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { pagingAfterChange, useServerTable } from './serverTable';

type Field = 'Caption' | 'IMEI';

describe('server-paged tables', () => {
  const onPage3 = { currentPage: 3, pageSize: 20, sortField: 'IMEI' as Field, sortOrder: 'ascend' as const };

  it('goes to the page asked for while the sort and the size stay', () => {
    expect(pagingAfterChange(onPage3, { current: 4, pageSize: 20 }, { columnKey: 'IMEI', order: 'ascend' }, 'paginate')).toEqual({ ...onPage3, currentPage: 4 });
  });

  it('starts again at page 1 on a new sort, a cleared sort or a new page size', () => {
    expect(pagingAfterChange(onPage3, { current: 3, pageSize: 20 }, { columnKey: 'Caption', order: 'descend' }, 'sort')).toEqual({ currentPage: 1, pageSize: 20, sortField: 'Caption', sortOrder: 'descend' });
    expect(pagingAfterChange(onPage3, { current: 3, pageSize: 20 }, { columnKey: 'IMEI', order: null }, 'sort')).toEqual({ currentPage: 1, pageSize: 20, sortField: undefined, sortOrder: undefined });
    expect(pagingAfterChange(onPage3, { current: 3, pageSize: 50 }, { columnKey: 'IMEI', order: 'ascend' }, 'paginate')).toEqual({ ...onPage3, currentPage: 1, pageSize: 50 });
  });

  it('starts again at page 1 when the filters change, keeping the size and the sort', () => {
    const { result, rerender } = renderHook(({ filters }) => useServerTable<Field>(filters), { initialProps: { filters: 'folder 1' } });
    expect(result.current.paging).toEqual({ currentPage: 1, pageSize: DEFAULT_PAGE_SIZE });
    act(() => result.current.onChange({ current: 1, pageSize: 50 }, {}, { columnKey: 'Caption', order: 'ascend' }, { action: 'sort' }));
    act(() => result.current.onChange({ current: 3, pageSize: 50 }, {}, { columnKey: 'Caption', order: 'ascend' }, { action: 'paginate' }));
    expect(result.current.paging).toEqual({ currentPage: 3, pageSize: 50, sortField: 'Caption', sortOrder: 'ascend' });
    expect(result.current.sortOrderOf('Caption')).toBe('ascend');
    expect(result.current.sortOrderOf('IMEI')).toBeNull();
    rerender({ filters: 'folder 2' });
    expect(result.current.paging).toEqual({ currentPage: 1, pageSize: 50, sortField: 'Caption', sortOrder: 'ascend' });
    // the same filters again change nothing
    act(() => result.current.setPaging((p) => ({ ...p, currentPage: 2 })));
    rerender({ filters: 'folder 2' });
    expect(result.current.paging.currentPage).toBe(2);
  });
});
