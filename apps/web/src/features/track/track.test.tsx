// Over 400 lines: every test of the /track screen in one place (precision filter, validity, table, and the
// page with its fix detail), sharing the signed-in set-up, the fixtures and the wrapper above.
import { Code, encodeTrackSet, FixValidValue, TrackFlag, type Fix } from '@wildtrack/contract';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { setLang } from '../../i18n';
import { resetTreeSelection, setTreeSelection } from '../../widgets/device-tree';
import { getViewContext, rangeFromText, resetPositionSelection, setPositionRange, setTrackTable } from '../../lib/positionSelection';
import { clearSession } from '../../lib/session';
import { folder, tree, treeDevice } from '../../test/devices';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { applyContextSearch } from '../../lib/contextUrl';
import { countOlder } from './api';
import { FixFilters } from './components/FixFilters';
import { FixTable, type FixPaging } from './components/FixTable';
import { FIX_COLUMNS } from './components/fixColumns';
import {
  activeFilterCount,
  fixState,
  idsToMark,
  locateStep,
  NO_FILTER,
  pageOf,
  precisionInput,
  precisionWasReset,
  rowPosition,
  toPositionFilter,
  trackIndexOf,
} from './model';
import { TrackPage } from './TrackPage';
import { signInForTest } from '../../test/session';

const IMEI = '860000000000777';
const BASE = Date.UTC(2026, 10, 20, 0, 0, 0);

beforeEach(() => {
  signInForTest();
  resetTreeSelection();
  resetPositionSelection();
});

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

function wrap(node: React.ReactNode) {
  return render(<AppProviders>{node}</AppProviders>);
}

function fix(i: number, over: Partial<Fix> = {}): Fix {
  const time = BASE + i * 600_000;
  return {
    Id: String(time),
    Caption: 'Stork',
    IMEI,
    PickTime: `2026-11-20 ${String(8 + Math.floor(i / 6)).padStart(2, '0')}:${String((i % 6) * 10).padStart(2, '0')}:00`,
    Longitude: 116.3 + i * 0.001,
    LongitudeTag: 'E',
    Latitude: 39.9,
    LatitudeTag: 'N',
    Speed: 12.5,
    Course: 90,
    Altitude: 48,
    Temperature: 21.4,
    Exercise: 30,
    Voltage: 3.91,
    Channel: 2,
    Satellites: 9,
    HDOP: 1.1,
    VDOP: 1.6,
    PrecisionGrade: 1,
    Validity: 1,
    TransmissionTime: '2026-11-20 09:00:00',
    ValidValue: FixValidValue.Valid,
    ...over,
  };
}

describe('the precision filter input (§5)', () => {
  it('keeps A–E and N in order, without repeats, in either case', () => {
    expect(precisionInput('ab')).toBe('AB');
    expect(precisionInput('BA')).toBe('AB');
    expect(precisionInput('aabbb')).toBe('AB');
    expect(precisionInput('n, e')).toBe('EN');
    expect(precisionWasReset('ab')).toBe(false);
  });

  it('resets to every letter on anything else', () => {
    for (const raw of ['AX', 'F', '1', 'A-B', '']) expect(precisionInput(raw), raw).toBe('ABCDEN');
    expect(precisionWasReset('AX')).toBe(true);
    expect(precisionWasReset('')).toBe(false);
  });

  it('sends only the filters in use; every letter is no precision filter; N stays N (6 and 7 on the server)', () => {
    expect(toPositionFilter(NO_FILTER)).toEqual({});
    expect(toPositionFilter({ ...NO_FILTER, speed: 0, voltage: 3.7, precision: 'nA' })).toEqual({ speed: 0, voltage: 3.7, precision: 'AN' });
    expect(toPositionFilter({ ...NO_FILTER, precision: 'ABCDEN', validOnly: true })).toEqual({ validOnly: true });
    expect(activeFilterCount({ ...NO_FILTER, altitude: 100, precision: 'AB' })).toBe(2);
  });

  it('chooses the letters with boxes: the last ticked one stays, so the rule holds by construction', async () => {
    const onApply = vi.fn();
    wrap(<FixFilters value={NO_FILTER} onApply={onApply} />);
    const box = (letter: string) => {
      const el = screen.getByTestId(`filter-grade-${letter}`);
      return (el.tagName === 'INPUT' ? el : el.querySelector('input')) as HTMLInputElement;
    };
    const group = screen.getByTestId('filter-precision');
    for (const letter of ['C', 'D', 'E', 'N']) fireEvent.click(box(letter));
    expect(group.getAttribute('data-value')).toBe('AB');
    fireEvent.click(box('A'));
    expect(group.getAttribute('data-value')).toBe('B');
    // the last letter can't be unticked
    expect(box('B').disabled).toBe(true);
    fireEvent.click(box('A'));
    expect(group.getAttribute('data-value')).toBe('AB');

    fireEvent.change(screen.getByTestId('filter-speed'), { target: { value: '5' } });
    fireEvent.click(screen.getByTestId('filter-apply'));
    expect(onApply).toHaveBeenLastCalledWith({ ...NO_FILTER, speed: 5, precision: 'AB' });
  });
});

describe('validity and marking', () => {
  it('says why a fix is not valid', () => {
    expect(fixState(fix(0))).toBe('valid');
    expect(fixState(fix(0, { Validity: 0, ValidValue: 0, Longitude: null, Latitude: null, LongitudeTag: '', LatitudeTag: '' }))).toBe('noPosition');
    expect(fixState(fix(0, { Validity: 0, ValidValue: 0, Latitude: 95 }))).toBe('outOfRange');
    expect(fixState(fix(0, { Validity: 0, ValidValue: 2, ConvertedInvalid: { Id: '1', OperateTime: '2026-11-21 10:00:00', Operator: 'Ranger One' } }))).toBe('marked');
  });

  it('marks every fix an averaged row stands for', () => {
    expect(idsToMark([fix(0), fix(1, { GroupSize: 3, GroupIds: ['10', '11', '12'] }), fix(0)])).toEqual([fix(0).Id, '10', '11', '12']);
  });
});

describe('table and map', () => {
  it('finds a fix of the track by its time', () => {
    const track = { imei: IMEI, count: 3, times: new Float64Array([10, 20, 30]), lonLat: new Float64Array(6), alt: new Float32Array(3), grade: new Uint8Array(3), valid: new Uint8Array(3), averaged: new Uint8Array(3) };
    expect(trackIndexOf(track, '20')).toBe(1);
    expect(trackIndexOf(track, '25')).toBe(-1);
    expect(trackIndexOf(undefined, '20')).toBe(-1);
  });

  it('computes the page of a fix from the rows older than it', () => {
    // 45 rows, newest first: the fix with 44 older rows is the first row of page 1
    expect(rowPosition(44, 45, 'descend')).toBe(0);
    expect(rowPosition(0, 45, 'descend')).toBe(44);
    expect(pageOf(rowPosition(0, 45, 'descend'), 20)).toBe(3);
    expect(pageOf(rowPosition(25, 45, 'descend'), 20)).toBe(1);
    expect(pageOf(rowPosition(25, 45, 'ascend'), 20)).toBe(2);
    expect(pageOf(rowPosition(20, 45, 'ascend'), 20)).toBe(2);
  });

  it('tries the neighbouring page when the counted one does not hold the fix', () => {
    const rows = (...ids: number[]) => ids.map((id) => ({ Id: String(id) }));
    const desc = { currentPage: 2, pageSize: 3 };
    expect(locateStep('50', rows(60, 50, 40), 9, desc)).toBe('found');
    // newest first: a fix newer than the page's first row is on the page before
    expect(locateStep('70', rows(60, 50, 40), 9, desc)).toBe(1);
    expect(locateStep('30', rows(60, 50, 40), 9, desc)).toBe(3);
    expect(locateStep('45', rows(60, 50, 40), 9, desc)).toBe('lost');
    const asc = { currentPage: 1, pageSize: 3, sortField: 'PickTime', sortOrder: 'ascend' as const };
    expect(locateStep('70', rows(40, 50, 60), 9, asc)).toBe(2);
    expect(locateStep('30', rows(40, 50, 60), 9, asc)).toBe('lost');
    expect(locateStep('30', [], 0, asc)).toBe('lost');
  });

  it('counts the rows older than a fix up to the second before it, with the same filters', async () => {
    const server = fakeServer({ '/api/Fix/GetCount': () => envelope(Code.Success, '', { Count: 17 }) });
    const q = { imei: IMEI, start: '2026-11-20 00:00:00', end: '2026-11-20 23:59:59', secondLevel: 'avg' as const, filter: { precision: 'AB' } };
    // 2026-11-20 10:00:00 at +08:00
    expect(await countOlder(q, Date.UTC(2026, 10, 20, 2, 0, 0), '+08:00')).toBe(17);
    const body = JSON.parse(callsTo(server, '/api/Fix/GetCount')[0]!.body as string) as Record<string, unknown>;
    expect(body).toMatchObject({ imei: IMEI, startTime: '2026-11-20 00:00:00', endTime: '2026-11-20 09:59:59', precision: 'AB', secondLevel: 'avg', timeZone: '+08:00' });
    // a fix in the range's first second has nothing older: no call
    expect(await countOlder(q, Date.UTC(2026, 10, 19, 16, 0, 0), '+08:00')).toBe(0);
    expect(callsTo(server, '/api/Fix/GetCount')).toHaveLength(1);
  });
});

describe('the fixes table', () => {
  const paging: FixPaging = { currentPage: 1, pageSize: 20 };
  const rows = [
    fix(0),
    fix(1, { GroupSize: 10, GroupIds: Array.from({ length: 10 }, (_, i) => String(i)), PrecisionGrade: 6 }),
    fix(2, { Validity: 0, ValidValue: 0, Longitude: null, Latitude: null, LongitudeTag: '', LatitudeTag: '', PrecisionGrade: null }),
    fix(3, { Validity: 0, ValidValue: 0, Latitude: 95 }),
    fix(4, { Validity: 0, ValidValue: 2, ConvertedInvalid: { Id: fix(4).Id, OperateTime: '2026-11-21 10:00:00', Operator: 'Ranger One' } }),
  ];

  function table(props: Partial<React.ComponentProps<typeof FixTable>> = {}) {
    return wrap(
      <FixTable
        rows={rows}
        total={45}
        loading={false}
        paging={paging}
        onPaging={() => undefined}
        activeId={null}
        onActivate={() => undefined}
        selectedIds={[]}
        onSelectRows={() => undefined}
        emptyText="none"
        height={400}
        choice={{ columns: [...FIX_COLUMNS], widths: {} }}
        {...props}
      />,
    );
  }

  it('shows every §3 column with its unit, grade letters, tags and averages', () => {
    table();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    for (const title of ['Fix time', 'Lon (°)', 'Lat (°)', 'Speed (km/h)', 'Course (°)', 'Altitude (m)', 'Temperature (°C)', 'Activity', 'Voltage (V)', 'Channel', 'Sats', 'HDOP', 'VDOP', 'Grade', 'Valid', 'Transmission time']) {
      expect(headers, title).toContain(title);
    }
    expect(screen.getAllByText('116.300000').length).toBeGreaterThan(0);
    expect(screen.getAllByTestId('fix-grade').map((g) => g.getAttribute('data-grade'))).toEqual(['A', 'N', 'A', 'A']);
    expect(screen.getByTestId('fix-average').textContent).toBe('average of 10');
  });

  it('labels invalid fixes with the reason, and who marked one and when', () => {
    table();
    const states = screen.getAllByTestId('fix-validity');
    expect(states.map((s) => s.getAttribute('data-state'))).toEqual(['valid', 'valid', 'noPosition', 'outOfRange', 'marked']);
    expect(states[2]!.getAttribute('aria-label')).toBe('No position · The device recorded an attempt without a position');
    expect(states[3]!.getAttribute('aria-label')).toMatch(/^Out of range · /);
    expect(states[4]!.getAttribute('aria-label')).toBe('Marked invalid · by Ranger One at 2026-11-21 10:00:00');
    const markedRow = document.querySelector(`tr[data-row-key="${rows[4]!.Id}"]`)!;
    expect(markedRow.className).toContain('wt-fix-marked');
    // a marked fix can't be marked again
    expect((within(markedRow as HTMLElement).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
  });

  it('offers the page sizes of §9 with the total and a quick jumper', () => {
    table();
    expect(screen.getByText('45 fixes')).toBeTruthy();
    expect(document.querySelector('.ant-pagination-options-quick-jumper')).toBeTruthy();
    fireEvent.mouseDown(document.querySelector('.ant-pagination-options .ant-select')!);
    const options = [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);
    expect(options).toEqual(['10 / page', '20 / page', '40 / page', '50 / page', '100 / page']);
  });

  it('sorts on the server: time turns between its orders, other columns start at page 1', () => {
    const onPaging = vi.fn();
    const { rerender } = table({ onPaging, paging: { currentPage: 2, pageSize: 20 } });
    const header = (title: string) => screen.getAllByRole('columnheader').find((h) => h.textContent === title)!;
    fireEvent.click(header('Fix time'));
    expect(onPaging).toHaveBeenLastCalledWith({ currentPage: 1, pageSize: 20, sortField: 'PickTime', sortOrder: 'ascend' });
    rerender(
      <AppProviders>
        <FixTable rows={rows} total={45} loading={false} paging={{ currentPage: 1, pageSize: 20, sortField: 'PickTime', sortOrder: 'ascend' }} onPaging={onPaging} activeId={null} onActivate={() => undefined} selectedIds={null} emptyText="none" height={400} choice={{ columns: [...FIX_COLUMNS], widths: {} }} />
      </AppProviders>,
    );
    fireEvent.click(header('Fix time'));
    expect(onPaging).toHaveBeenLastCalledWith({ currentPage: 1, pageSize: 20, sortField: 'PickTime', sortOrder: 'descend' });
    fireEvent.click(header('Altitude (m)'));
    expect(onPaging).toHaveBeenLastCalledWith({ currentPage: 1, pageSize: 20, sortField: 'Altitude', sortOrder: 'ascend' });
    // without the right to mark there are no checkboxes
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
  });

  it('names the row clicked and rings the chosen one', () => {
    const onActivate = vi.fn();
    table({ onActivate, activeId: rows[1]!.Id });
    expect(document.querySelector(`tr[data-row-key="${rows[1]!.Id}"]`)!.className).toContain('wt-row-active');
    fireEvent.click(screen.getAllByText('116.300000')[0]!);
    expect(onActivate).toHaveBeenCalledWith(rows[0]);
  });
});

describe('/track', () => {
  const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
  const trackReply = (count: number) =>
    toBase64(
      encodeTrackSet([
        {
          imei: IMEI,
          count,
          times: Array.from({ length: count }, (_, i) => BASE + i * 600_000),
          lonLat: Array.from({ length: count }, (_, i) => [116.3 + i * 0.001, 39.9]).flat(),
          alt: Array.from({ length: count }, () => 48),
          grade: Array.from({ length: count }, () => 1),
          flags: Array.from({ length: count }, () => TrackFlag.Valid),
        },
      ]),
    );

  function server(opts: { editFix?: boolean; secondLevel?: boolean; rows?: Fix[]; annotations?: Record<string, Fix['Annotations']>; span?: { FirstTime: string; LastTime: string } | null } = {}) {
    const rows = opts.rows ?? [fix(0), fix(1, { GroupSize: 10, GroupIds: Array.from({ length: 10 }, (_, i) => String(BASE + 600_000 + i * 1000)) })];
    const data = tree(folder('-1', 'Qinling Reserve', { devices: [treeDevice(IMEI, { Caption: 'Stork A', Permission: opts.editFix === false ? 1 : 0, SecondLevelFix: opts.secondLevel ? 1 : 0 })] }));
    return fakeServer({
      '/api/Device/GetTree': () => envelope(Code.Success, '', data),
      '/api/Fix/GetListByPage': () => envelope(Code.Success, '', { List: rows, Total: rows.length }),
      '/api/Fix/GetAvgListByImeisAndTime': () => envelope(Code.Success, '', trackReply(rows.length)),
      '/api/Fix/GetListByImeis': () => envelope(Code.Success, '', trackReply(rows.length)),
      '/api/Fix/Get': (body) => {
        const found = rows.find((r) => r.Id === body.id);
        const annotations = opts.annotations?.[body.id as string];
        return found ? envelope(Code.Success, '', { ...found, ...(annotations ? { Annotations: annotations } : {}) }) : envelope(Code.NotFound, 'No such fix');
      },
      ...(opts.span !== undefined ? { '/api/Fix/GetSpan': () => envelope(Code.Success, '', opts.span) } : {}),
      '/api/Fix/ConvertInvalid': (body) => envelope(Code.Success, '', { Count: (body.ids as string[]).length }),
      '/api/Fix/GetConvertedInvalidListPage': () =>
        envelope(Code.Success, '', {
          List: [fix(0, { Validity: 0, ValidValue: 2, ConvertedInvalid: { Id: fix(0).Id, OperateTime: '2026-11-21 10:00:00', Operator: 'Ranger One' } })],
          Total: 1,
        }),
    });
  }

  const choose = () => act(() => setTreeSelection('track', { folderId: '-1', imei: IMEI }));

  it('asks to choose a device when none is chosen', async () => {
    server();
    act(() => setTreeSelection('track', { folderId: '-1', imei: null }));
    wrap(<TrackPage />);
    expect(await screen.findByText('Choose a device in the tree to see its fixes and track')).toBeTruthy();
  });

  it("reads the chosen device's fixes and track over the range, and shares the device with the maps", async () => {
    const fetch = server();
    choose();
    act(() => setPositionRange(rangeFromText('2026-11-20 00:00:00', '2026-11-20 23:59:59', '+08:00')));
    wrap(<TrackPage />);
    await screen.findByTestId('fix-average');
    await waitFor(() => expect(screen.getByTestId('track-map').getAttribute('data-points')).toBe('2'));
    const body = JSON.parse(callsTo(fetch, '/api/Fix/GetListByPage')[0]!.body as string) as Record<string, unknown>;
    expect(body).toMatchObject({ imei: IMEI, startTime: '2026-11-20 00:00:00', endTime: '2026-11-20 23:59:59', currentPage: 1, pageSize: 20, secondLevel: 'avg' });
    expect((JSON.parse(sessionStorage.getItem('wildtrack_position_selection') ?? '{}') as { imeis?: string[] }).imeis).toEqual([IMEI]);
    // not a second-level device: no switch
    expect(screen.queryByTestId('every-second')).toBeNull();
  });

  it('marks the chosen rows invalid after a confirmation that it cannot be undone (an average marks its run)', async () => {
    const fetch = server();
    choose();
    wrap(<TrackPage />);
    await screen.findByTestId('fix-average');
    const mark = screen.getByTestId('mark-invalid');
    expect((mark as HTMLButtonElement).disabled).toBe(true);
    const averaged = document.querySelector(`tr[data-row-key="${BASE + 600_000}"]`) as HTMLElement;
    fireEvent.click(within(averaged).getByRole('checkbox'));
    await waitFor(() => expect((screen.getByTestId('mark-invalid') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('mark-invalid'));
    const confirm = await screen.findByTestId('mark-confirm');
    expect(confirm.textContent).toContain("This can't be undone");
    expect(confirm.textContent).toContain('10 fixes in all');
    fireEvent.click(screen.getByTestId('mark-confirm-ok'));
    await waitFor(() => expect(callsTo(fetch, '/api/Fix/ConvertInvalid')).toHaveLength(1));
    const body = JSON.parse(callsTo(fetch, '/api/Fix/ConvertInvalid')[0]!.body as string) as { imei: string; ids: string[] };
    expect(body.imei).toBe(IMEI);
    expect(body.ids).toHaveLength(10);
    // the table is read again
    await waitFor(() => expect(callsTo(fetch, '/api/Fix/GetListByPage').length).toBeGreaterThan(1));
  });

  it('disables marking without EditFix and says why', async () => {
    server({ editFix: false });
    choose();
    wrap(<TrackPage />);
    await screen.findByTestId('fix-average');
    expect((screen.getByTestId('mark-invalid') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    fireEvent.mouseEnter(screen.getByTestId('mark-invalid'));
    fireEvent.pointerEnter(screen.getByTestId('mark-invalid'));
    expect(await screen.findByText("You don't have the right to edit this device's fixes")).toBeTruthy();
  });

  it('shows every second-level fix on request for a second-level device', async () => {
    const fetch = server({ secondLevel: true });
    choose();
    wrap(<TrackPage />);
    await screen.findByTestId('fix-average');
    fireEvent.click(screen.getByTestId('every-second'));
    await waitFor(() => expect(callsTo(fetch, '/api/Fix/GetListByImeis').length).toBeGreaterThan(0));
    const last = callsTo(fetch, '/api/Fix/GetListByPage').at(-1)!;
    expect((JSON.parse(last.body as string) as { secondLevel: string }).secondLevel).toBe('all');
  });

  it('lists the fixes marked invalid with who marked them and when', async () => {
    server();
    choose();
    wrap(<TrackPage />);
    await screen.findByTestId('fix-average');
    fireEvent.click(screen.getByTestId('converted-open'));
    expect((await screen.findByTestId('converted-operator')).textContent).toBe('Ranger One');
    expect(within(screen.getByTestId('converted-table')).getByText('2026-11-21 10:00:00')).toBeTruthy();
  });

  it("shows the chosen fix's detail with its annotations under their own names, in either language, and none for a fix without", async () => {
    const wind = 'ECMWF Interim Full Daily SFC Wind (10 m above Ground U Component)';
    const chlorophyll = 'MODIS Ocean Aqua OceanColor 4km 8d Chlorophyll A (OCI)';
    const fetch = server({ rows: [fix(0), fix(1)], annotations: { [fix(0).Id]: { [wind]: '-3.2145', [chlorophyll]: 0.318, 'eobs:status': 'A', 'event-id': null } } });
    choose();
    wrap(<TrackPage />);
    await screen.findAllByText('116.300000');
    expect(screen.queryByTestId('fix-detail')).toBeNull();
    fireEvent.click(screen.getAllByText('116.300000')[0]!);
    const section = await screen.findByTestId('fix-annotations');
    expect(JSON.parse(callsTo(fetch, '/api/Fix/Get')[0]!.body as string)).toMatchObject({ imei: IMEI, id: fix(0).Id });
    const detail = screen.getByTestId('fix-detail');
    expect(within(detail).getByText('Fix details')).toBeTruthy();
    expect(within(detail).getByText(fix(0).PickTime)).toBeTruthy();
    expect(within(section).getByText('Annotations')).toBeTruthy();
    const shown = [...section.querySelectorAll('.ant-descriptions-row')].map((r) => [r.querySelector('[data-annotation]')?.getAttribute('data-annotation'), r.querySelector('td')?.textContent]);
    expect(shown).toEqual([[wind, '-3.2145'], [chlorophyll, '0.318'], ['eobs:status', 'A'], ['event-id', '—']]);
    // the names are the file's, in whichever language; the section's title follows the language
    act(() => setLang('zh'));
    await waitFor(() => expect(within(screen.getByTestId('fix-annotations')).getByText('附加数据')).toBeTruthy());
    expect(within(screen.getByTestId('fix-detail')).getByText('定位详情')).toBeTruthy();
    expect(within(screen.getByTestId('fix-annotations')).getByText(wind)).toBeTruthy();
    act(() => setLang('en'));
    // a fix without annotations: its detail, no section
    fireEvent.click(screen.getByText('116.301000'));
    await waitFor(() => expect(screen.getByTestId('fix-detail').getAttribute('data-id')).toBe(fix(1).Id));
    await waitFor(() => expect(screen.getByTestId('fix-detail').getAttribute('data-state')).toBe('ready'));
    expect(screen.queryByTestId('fix-annotations')).toBeNull();
    // closed, the fix is let go
    fireEvent.click(screen.getByTestId('fix-detail-close'));
    expect(screen.queryByTestId('fix-detail')).toBeNull();
    expect(document.querySelector('.wt-row-active')).toBeNull();
  });

  it('opens the table as a link or the session kept it for the device, and keeps it as it changes (issue 28)', async () => {
    const fetch = server();
    choose();
    act(() => setTrackTable({ imei: IMEI, page: 2, pageSize: 50, sortField: 'Speed', sortOrder: 'ascend', filter: { speed: 3, validOnly: true } }));
    wrap(<TrackPage />);
    await screen.findByTestId('fix-average');
    const body = JSON.parse(callsTo(fetch, '/api/Fix/GetListByPage')[0]!.body as string) as Record<string, unknown>;
    expect(body).toMatchObject({ currentPage: 2, pageSize: 50, sortField: 'Speed', sortOrder: 'ascend', speed: 3, validOnly: true });
    // the filter badge counts the kept filters
    expect(screen.getByTestId('filters-toggle').closest('.ant-badge')?.textContent).toContain('2');
    fireEvent.click(screen.getByTestId('filters-toggle'));
    fireEvent.click(screen.getByTestId('filter-reset'));
    await waitFor(() => expect(getViewContext().table).toMatchObject({ imei: IMEI, page: 1, pageSize: 50, sortField: 'Speed', filter: {} }));
    // a link read while the table shows (Back to a /track URL): the table follows it
    act(() => applyContextSearch('track', new URLSearchParams(`device=${IMEI}&span=7&page=2&size=10&sort=Altitude&order=descend&valid=1`)));
    await waitFor(() =>
      expect(JSON.parse(callsTo(fetch, '/api/Fix/GetListByPage').at(-1)!.body as string)).toMatchObject({ currentPage: 2, pageSize: 10, sortField: 'Altitude', sortOrder: 'descend', validOnly: true }),
    );
    expect(getViewContext().table).toMatchObject({ page: 2, pageSize: 10, sortField: 'Altitude', filter: { validOnly: true } });
  });

  it("offers an empty range the device's first and last fix dates, and jumps to them (issue 28)", async () => {
    const fetch = server({ rows: [], span: { FirstTime: '2025-03-01 06:00:00', LastTime: '2025-04-02 18:30:15' } });
    choose();
    act(() => setPositionRange(rangeFromText('2026-11-20 00:00:00', '2026-11-20 23:59:59', '+08:00')));
    wrap(<TrackPage />);
    expect((await screen.findByTestId('track-data-span')).textContent).toBe("This device's data runs from 2025-03-01 06:00:00 to 2025-04-02 18:30:15");
    expect(JSON.parse(callsTo(fetch, '/api/Fix/GetSpan')[0]!.body as string)).toMatchObject({ imei: IMEI, timeZone: '+08:00' });
    fireEvent.click(screen.getByTestId('jump-to-data'));
    // the last fix's second in full
    await waitFor(() => expect(getViewContext().range).toEqual({ span: null, start: Date.parse('2025-02-28T22:00:00Z'), end: Date.parse('2025-04-02T10:30:15.999Z') }));
    expect(getViewContext().explicit).toBe(true);
    await waitFor(() =>
      expect(JSON.parse(callsTo(fetch, '/api/Fix/GetListByPage').at(-1)!.body as string)).toMatchObject({ startTime: '2025-03-01 06:00:00', endTime: '2025-04-02 18:30:15' }),
    );
  });

  it('says so when the device has no fixes at all, in Chinese too', async () => {
    server({ rows: [], span: null });
    choose();
    wrap(<TrackPage />);
    expect(await screen.findByText('This device has no fixes yet')).toBeTruthy();
    expect(screen.queryByTestId('jump-to-data')).toBeNull();
    act(() => setLang('zh'));
    expect(await screen.findByText('该设备还没有定位数据')).toBeTruthy();
    act(() => setLang('en'));
  });

  it('says when the range has no fixes', async () => {
    server({ rows: [] });
    choose();
    wrap(<TrackPage />);
    expect(await screen.findByText('No fixes in this time range')).toBeTruthy();
  });
});
