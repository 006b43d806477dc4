import { decodeTrackSet, encodeTrackSet, TrackFlag, type Fix } from '@wildtrack/contract';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { clearSession, writeStoredUser } from '../../../lib/session';
import { signInForTest } from '../../../test/session';
import { activeFilterCount, fixesInBox, fixesInLasso, gradesAfter, insidePolygon, NO_FILTER, reversedBounds, toPositionFilter } from '../model';
import { FixColumnChooser } from './FixColumnChooser';
import { FixFilters } from './FixFilters';
import { FixTable } from './FixTable';
import { columnsKey, DEFAULT_CHOICE, normaliseChoice, readColumnChoice, tableWidth, useColumnChoice, type ColumnChoice } from './fixColumns';
import { tablePanelShare } from './TrackView';

/** Issue 12 item 4 on the web: bounded filters, precision boxes, table columns, a box on the map. */

beforeEach(() => {
  localStorage.clear();
  signInForTest();
  writeStoredUser({ userName: 'ranger1' });
});

afterEach(() => {
  clearSession();
  localStorage.clear();
});

const wrap = (node: React.ReactNode) => render(<AppProviders>{node}</AppProviders>);

describe('bounded filters', () => {
  it('sends a lower and an upper bound as the contract names them, and counts a pair once', () => {
    const draft = { ...NO_FILTER, speed: 3, speedMax: 8, hdopMax: 1.5, satellites: 4 };
    expect(toPositionFilter(draft)).toEqual({ speed: 3, speedMax: 8, hdopMax: 1.5, satellites: 4 });
    expect(activeFilterCount(draft)).toBe(3);
    expect(reversedBounds(draft)).toEqual([]);
    expect(reversedBounds({ ...draft, hdop: 1.5 })).toEqual(['hdop']);
    expect(reversedBounds({ ...draft, speedMax: 2 })).toEqual(['speed']);
  });

  it('keeps at least one precision letter, in A–E, N order', () => {
    expect(gradesAfter('ABCDEN', 'C', false)).toBe('ABDEN');
    expect(gradesAfter('N', 'A', true)).toBe('AN');
    expect(gradesAfter('B', 'B', false)).toBe('B');
  });

  it('says a reversed pair and does not apply it; applies the bounds otherwise', () => {
    const onApply = vi.fn();
    wrap(<FixFilters value={NO_FILTER} onApply={onApply} />);
    fireEvent.change(screen.getByTestId('filter-hdop'), { target: { value: '2' } });
    fireEvent.change(screen.getByTestId('filter-hdopMax'), { target: { value: '1.5' } });
    expect(screen.getByTestId('filter-bounds-error').textContent).toBe('HDOP: the upper bound must be greater than the lower one.');
    fireEvent.click(screen.getByTestId('filter-apply'));
    expect(onApply).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('filter-hdop'), { target: { value: '' } });
    fireEvent.change(screen.getByTestId('filter-satellitesMax'), { target: { value: '9' } });
    fireEvent.click(screen.getByTestId('filter-apply'));
    expect(onApply).toHaveBeenLastCalledWith({ ...NO_FILTER, hdopMax: 1.5, satellitesMax: 9 });
  });
});

describe('table columns', () => {
  it('keeps known columns in the table order with Fix time, widths within bounds', () => {
    expect(normaliseChoice({ columns: ['HDOP', 'Nope', 'Latitude'], widths: { HDOP: 9999, Speed: 10, Nope: 80 } })).toEqual({
      columns: ['PickTime', 'Latitude', 'HDOP'],
      widths: { HDOP: 480, Speed: 48 },
    });
    expect(tableWidth(DEFAULT_CHOICE, true)).toBe(32 + 150 + 88 + 96 + 64 + 60 + 56 + 60 + 56);
  });

  it('opens the table panel as wide as the columns need, between half and 77 %', () => {
    expect(tablePanelShare(622, 0)).toBe(60);
    expect(tablePanelShare(622, 900)).toBe(71);
    expect(tablePanelShare(2000, 900)).toBe(77);
    expect(tablePanelShare(200, 900)).toBe(50);
  });

  it('remembers the choice per user in the browser', () => {
    function Probe() {
      const [choice, setChoice] = useColumnChoice();
      return <FixColumnChooser value={choice} onChange={setChoice} />;
    }
    const { unmount } = wrap(<Probe />);
    fireEvent.click(screen.getByTestId('columns-toggle'));
    fireEvent.click(screen.getByTestId('column-option-Altitude'));
    fireEvent.click(screen.getByTestId('column-option-HDOP'));
    expect(screen.getByTestId('columns-toggle').getAttribute('data-shown')).toBe('PickTime,Latitude,Longitude,Altitude,Speed,Satellites,PrecisionGrade,Validity');
    unmount();
    expect(readColumnChoice('ranger1').columns).toContain('Altitude');
    expect(localStorage.getItem(columnsKey('ranger1'))).toContain('Altitude');
    // another account on this browser opens with the defaults
    expect(readColumnChoice('ranger2')).toEqual(DEFAULT_CHOICE);
    // and the default set comes back on request
    wrap(<Probe />);
    fireEvent.click(screen.getByTestId('columns-toggle'));
    expect(screen.getByTestId('columns-toggle').getAttribute('data-shown')).toContain('Altitude');
    fireEvent.click(screen.getByTestId('columns-reset'));
    expect(readColumnChoice('ranger1')).toEqual(DEFAULT_CHOICE);
  });

  it('shows fixed decimals aligned right, and resizes a column from its header by keyboard', () => {
    const fix: Fix = {
      Id: '1', Caption: 'Stork', IMEI: '1', PickTime: '2026-11-20 08:00:00', Longitude: 70.5, LongitudeTag: 'W', Latitude: 33.25, LatitudeTag: 'S',
      Speed: 12, Course: 90, Altitude: 1234.56, Temperature: 20, Exercise: 3, Voltage: 3.9, Channel: 1, Satellites: 7, HDOP: 1.25, VDOP: 1.5,
      PrecisionGrade: 1, Validity: 1, TransmissionTime: '2026-11-20 08:01:00', ValidValue: 1,
    };
    const onResize = vi.fn();
    const onPaging = vi.fn();
    const choice: ColumnChoice = { columns: ['PickTime', 'Latitude', 'Longitude', 'Altitude', 'Speed', 'HDOP'], widths: { Speed: 90 } };
    wrap(
      <FixTable rows={[fix]} total={1} loading={false} paging={{ currentPage: 1, pageSize: 20 }} onPaging={onPaging} activeId={null} onActivate={() => undefined} selectedIds={null} emptyText="none" height={300} choice={choice} onResize={onResize} />,
    );
    const row = document.querySelector('tr[data-row-key="1"]') as HTMLElement;
    const numbers = [...row.querySelectorAll('td.wt-num')].map((td) => td.textContent);
    expect(numbers).toEqual(['-33.250000', '-70.500000', '1235', '12.0', '1.3']);
    expect([...row.querySelectorAll('td.wt-num')].every((td) => (td as HTMLElement).style.textAlign === 'right' || td.className.includes('ant-table-cell-align-right'))).toBe(true);
    const speed = document.querySelector('th[data-column="Speed"]') as HTMLElement;
    const handle = within(speed).getByRole('separator');
    expect(handle.getAttribute('aria-valuenow')).toBe('90');
    fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(onResize).toHaveBeenLastCalledWith('Speed', 98, true);
    // a click on the handle does not sort; one on the header does
    fireEvent.click(handle);
    expect(onPaging).not.toHaveBeenCalled();
    fireEvent.click(speed);
    expect(onPaging).toHaveBeenCalledTimes(1);
  });
});

describe('a box drawn on the map', () => {
  it('chooses the valid single fixes inside it and counts the averages apart', () => {
    const times = [1000, 2000, 3000, 4000, 5000];
    const [track] = decodeTrackSet(
      encodeTrackSet([
        {
          imei: 'X',
          count: 5,
          times: Float64Array.from(times),
          lonLat: Float64Array.from([0, 0, 1, 1, 2, 2, 3, 3, 10, 10]),
          alt: [null, null, null, null, null],
          grade: Uint8Array.from([1, 1, 1, 1, 1]),
          // fix 2 invalid, fix 3 an average
          flags: Uint8Array.from([TrackFlag.Valid, TrackFlag.Valid, 0, TrackFlag.Valid | TrackFlag.Averaged, TrackFlag.Valid]),
        },
      ]),
    );
    // one degree = 10 px
    const project = (lon: number, lat: number) => ({ x: lon * 10, y: lat * 10 });
    expect(fixesInBox(track, { x0: 35, y0: 35, x1: -5, y1: -5 }, project)).toEqual({ ids: ['1000', '2000'], averaged: 1 });
    expect(fixesInBox(track, { x0: 95, y0: 95, x1: 105, y1: 105 }, project)).toEqual({ ids: ['5000'], averaged: 0 });
    expect(fixesInBox(undefined, { x0: 0, y0: 0, x1: 1, y1: 1 }, project)).toEqual({ ids: [], averaged: 0 });
  });

  it('chooses the fixes inside a lasso, not those in its bounding box outside the outline', () => {
    const [track] = decodeTrackSet(
      encodeTrackSet([
        {
          imei: 'X',
          count: 4,
          times: Float64Array.from([1000, 2000, 3000, 4000]),
          lonLat: Float64Array.from([1, 1, 8, 1, 1, 8, 6, 6]),
          alt: [null, null, null, null],
          grade: Uint8Array.from([1, 1, 1, 1]),
          flags: Uint8Array.from([TrackFlag.Valid, TrackFlag.Valid, TrackFlag.Valid, TrackFlag.Valid]),
        },
      ]),
    );
    const project = (lon: number, lat: number) => ({ x: lon * 10, y: lat * 10 });
    // a triangle over the top-left half of the 0..100 px square: (10,10), (80,10), (10,80) in; (60,60) in its bounds, outside it
    const triangle = [{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 0, y: 100 }];
    expect(fixesInLasso(track, triangle, project)).toEqual({ ids: ['1000', '2000', '3000'], averaged: 0 });
    expect(insidePolygon({ x: 50, y: 50 }, triangle)).toBe(false);
    expect(insidePolygon({ x: 49, y: 49 }, triangle)).toBe(true);
    expect(fixesInLasso(track, [{ x: 0, y: 0 }, { x: 100, y: 0 }], project)).toEqual({ ids: [], averaged: 0 });
  });
});
