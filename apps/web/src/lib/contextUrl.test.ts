import { parseTime } from '@wildtrack/contract';
import { act, cleanup, render, renderHook, waitFor } from '@testing-library/react';
import { createElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contextLoader } from '../app/contextLoader';
import { applyContextSearch, ContextInUrl, contextSearch, parseContextSearch, useChosenDeviceInTree, useUnknownMapDevices } from './contextUrl';
import {
  getViewContext,
  markExplicit,
  rangeFromText,
  resetPositionSelection,
  resolveRange,
  setChosenDevice,
  setPositionRange,
  setSelectedImeis,
  setTrackKind,
  setTrackTable,
  setTrackZoom,
} from './positionSelection';
import { clearSession, setToken } from './session';

const A = '860000000000001';
const B = '860000000000002';
const C = '860000000000003';
const params = (text: string) => new URLSearchParams(text);

beforeEach(() => setToken('sid-1.tok-1'));

afterEach(() => {
  // the routers unmounted first: a mounted screen would write the reset context back through its URL
  cleanup();
  resetPositionSelection();
});

describe('search params', () => {
  it('reads each valid param and ignores each invalid one without throwing', () => {
    expect(parseContextSearch(params(`device=${A}&tab=work&span=30`))).toEqual({ device: A, tab: 'work', span: 30 });
    expect(parseContextSearch(params(`devices=${A},${B},${A}&from=2025-03-07T00:00:00%2B08:00&to=1741391999000`))).toEqual({
      devices: [A, B],
      from: Date.parse('2025-03-06T16:00:00Z'),
      to: 1741391999000,
    });
    // a device name too long, a tab that does not exist, a span §9 does not offer, a time without its zone, an empty list
    expect(parseContextSearch(params(`device=${'x'.repeat(60)}&tab=photos&span=5&from=2025-03-07T00:00:00&to=yesterday&devices=,`))).toEqual({});
  });

  it('reads a link into the context: the device on /device and /track, the devices on the maps, a range with both ends', () => {
    applyContextSearch('device', params(`device=${A}&tab=animal&span=30`));
    expect(getViewContext()).toMatchObject({ device: A, imeis: [A], tab: 'animal', range: { span: 7 } });
    applyContextSearch('map', params(`devices=${B},${C}&from=2025-03-07T00:00:00%2B08:00`));
    // one end alone is no range: kept as it was
    expect(getViewContext()).toMatchObject({ device: A, imeis: [B, C], range: { span: 7 } });
    applyContextSearch('track', params(`device=${C}&from=2025-03-07T00:00:00%2B08:00&to=2025-03-07T23:59:59%2B08:00`));
    // C is among the maps' devices: their selection stays
    expect(getViewContext()).toMatchObject({ device: C, imeis: [B, C], range: { span: null, start: parseTime('2025-03-07 00:00:00', '+08:00') } });
  });

  it("writes a screen's part of the context, the range as ISO text in the zone, and keeps other params", () => {
    setChosenDevice(A);
    setPositionRange(rangeFromText('2025-03-07 00:00:00', '2025-03-07 23:59:59', '+08:00'));
    const ctx = getViewContext();
    expect(contextSearch('device', ctx, '+08:00', params('fix=12')).toString()).toBe(`fix=12&device=${A}&tab=details`);
    expect(contextSearch('track', ctx, '+08:00').toString()).toBe(`device=${A}&from=2025-03-07T00%3A00%3A00%2B08%3A00&to=2025-03-07T23%3A59%3A59%2B08%3A00`);
    // the same instants in another zone: other text, the same instants once read back
    const utc = contextSearch('map', ctx, '+00:00');
    expect(utc.get('from')).toBe('2025-03-06T16:00:00Z');
    expect(utc.get('devices')).toBe(A);
    const back = parseContextSearch(utc);
    expect([back.from, back.to]).toEqual([ctx.range.start, ctx.range.end]);
  });
});

describe("/track's data kind and its zoom in the URL", () => {
  const zoomFrom = Date.parse('2025-03-07T00:00:00Z');
  const zoomTo = Date.parse('2025-03-08T12:00:00Z');

  it('writes the kind shown (none for positions) and its zoom as ISO text, only on /track', () => {
    setChosenDevice(A);
    setPositionRange({ span: 30 });
    expect(contextSearch('track', getViewContext(), '+08:00').toString()).toBe(`device=${A}&span=30`);
    setTrackKind('temperature');
    expect(contextSearch('track', getViewContext(), '+08:00').toString()).toBe(`device=${A}&span=30&kind=temperature`);
    setTrackZoom({ from: zoomFrom, to: zoomTo });
    const track = contextSearch('track', getViewContext(), '+08:00');
    expect([track.get('kind'), track.get('zoomFrom'), track.get('zoomTo')]).toEqual(['temperature', '2025-03-07T08:00:00+08:00', '2025-03-08T20:00:00+08:00']);
    // not the other screens' business
    expect(contextSearch('device', getViewContext(), '+08:00').has('kind')).toBe(false);
    expect(contextSearch('map', getViewContext(), '+08:00').has('zoomFrom')).toBe(false);
  });

  it('reads them back from a link: the same kind and zoom; a kind without a zoom is the whole range; bad ones ignored', () => {
    applyContextSearch('track', params(`device=${A}&span=30&kind=humidity&zoomFrom=2025-03-07T08:00:00%2B08:00&zoomTo=2025-03-08T12:00:00Z`));
    expect(getViewContext()).toMatchObject({ device: A, kind: 'humidity', zoom: { from: zoomFrom, to: zoomTo }, range: { span: 30 } });
    // the round trip: the URL written from it names the same view
    const again = parseContextSearch(contextSearch('track', getViewContext(), '-05:00'));
    expect([again.kind, again.zoomFrom, again.zoomTo]).toEqual(['humidity', zoomFrom, zoomTo]);
    applyContextSearch('track', params(`device=${A}&kind=humidity`));
    expect(getViewContext()).toMatchObject({ kind: 'humidity', zoom: null });
    // an unknown kind and a reversed zoom: read as absent
    expect(parseContextSearch(params('kind=rainfall&zoomFrom=x'))).toEqual({});
    applyContextSearch('track', params(`device=${A}&kind=pressure&zoomFrom=2025-03-08T12:00:00Z&zoomTo=2025-03-07T00:00:00Z`));
    expect(getViewContext()).toMatchObject({ kind: 'pressure', zoom: null });
  });

  it('in the router: a reload of the URL the screen wrote opens the same kind and zoom', async () => {
    const router = createMemoryRouter([{ path: '/track', loader: contextLoader('track'), Component: () => createElement(ContextInUrl, { page: 'track' }) }], {
      initialEntries: [`/track?device=${B}&span=7`],
    });
    render(createElement(RouterProvider, { router }));
    await waitFor(() => expect(router.state.location.search).toBe(`?device=${B}&span=7`));
    act(() => {
      setTrackKind('light');
      setTrackZoom({ from: zoomFrom, to: zoomTo });
    });
    await waitFor(() => expect(router.state.location.search).toContain('kind=light'));
    const written = router.state.location.search;
    expect(written).toContain('zoomFrom=');
    cleanup();
    resetPositionSelection();
    expect(getViewContext()).toMatchObject({ kind: 'positions', zoom: null });
    const reload = createMemoryRouter([{ path: '/track', loader: contextLoader('track'), Component: () => createElement(ContextInUrl, { page: 'track' }) }], {
      initialEntries: [`/track${written}`],
    });
    render(createElement(RouterProvider, { router: reload }));
    await waitFor(() => expect(getViewContext()).toMatchObject({ device: B, kind: 'light', zoom: { from: zoomFrom, to: zoomTo } }));
    expect(reload.state.location.search).toBe(written);
  });
});

describe("/track's fixes table in the URL (issue 28)", () => {
  const sorted = { imei: A, page: 3, pageSize: 50, sortField: 'Speed' as const, sortOrder: 'ascend' as const, filter: { speed: 2, speedMax: 40, hdop: 0.5, precision: 'AB', validOnly: true } };

  it('writes its sort, page, size and filters on /track only, the defaults left out', () => {
    setChosenDevice(A);
    setPositionRange({ span: 30 });
    setTrackTable({ imei: A, page: 1, pageSize: 20, filter: {} });
    expect(contextSearch('track', getViewContext(), '+08:00').toString()).toBe(`device=${A}&span=30`);
    setTrackTable(sorted);
    expect(contextSearch('track', getViewContext(), '+08:00').toString()).toBe(
      `device=${A}&span=30&sort=Speed&order=ascend&page=3&size=50&speed=2&speedMax=40&hdop=0.5&precision=AB&valid=1`,
    );
    expect(contextSearch('device', getViewContext(), '+08:00').toString()).toBe(`device=${A}&tab=details`);
    // another device's table is not this one's
    setChosenDevice(B);
    expect(contextSearch('track', getViewContext(), '+08:00').toString()).toBe(`device=${B}&span=30`);
  });

  it('reads them back from a link; each invalid one reads as absent', () => {
    applyContextSearch('track', params(`device=${A}&sort=Speed&order=ascend&page=3&size=50&speed=2&speedMax=40&hdop=0.5&precision=ba&valid=1`));
    expect(getViewContext().table).toEqual(sorted);
    // a field the table can't sort by, an order alone, page 0, a size §9 does not offer, a word for a
    // number, HDOP above its ceiling, a fractional satellite count, letters outside A–E/N, valid=yes
    expect(
      parseContextSearch(params('sort=Caption&order=up&page=0&size=30&speed=fast&hdop=120&satellites=2.5&precision=AX&valid=yes')),
    ).toEqual({});
    applyContextSearch('track', params(`device=${A}&order=descend&page=-2&size=30&altitude=100&altitudeMax=50&precision=ABCDEN`));
    // an order without a field is no sort; an upper bound not above its lower one is dropped; every letter is no filter
    expect(getViewContext().table).toEqual({ imei: A, page: 1, pageSize: 20, filter: { altitude: 100 } });
  });

  it('in the router: a reload of the URL the screen wrote opens the same sorted, filtered page', async () => {
    const route = { path: '/track', loader: contextLoader('track'), Component: () => createElement(ContextInUrl, { page: 'track' }) };
    const router = createMemoryRouter([route], { initialEntries: [`/track?device=${B}&span=7`] });
    render(createElement(RouterProvider, { router }));
    await waitFor(() => expect(router.state.location.search).toBe(`?device=${B}&span=7`));
    act(() => setTrackTable({ ...sorted, imei: B }));
    await waitFor(() => expect(router.state.location.search).toContain('sort=Speed'));
    const written = router.state.location.search;
    cleanup();
    resetPositionSelection();
    expect(getViewContext().table).toBeNull();
    const reload = createMemoryRouter([route], { initialEntries: [`/track${written}`] });
    render(createElement(RouterProvider, { router: reload }));
    await waitFor(() => expect(getViewContext().table).toEqual({ ...sorted, imei: B }));
    expect(reload.state.location.search).toBe(written);
  });
});

describe('the view context', () => {
  it('keeps a multi-device map selection when the chosen device is among it, and opens the maps on a new one', () => {
    setSelectedImeis([A, B]);
    setChosenDevice(B);
    expect(getViewContext().imeis).toEqual([A, B]);
    setChosenDevice(C);
    expect(getViewContext().imeis).toEqual([C]);
  });

  it('keeps the instants of a custom range when the zone changes: the text moves by the offset', () => {
    const range = rangeFromText('2025-03-07 00:00:00', '2025-03-07 23:59:59', '+08:00');
    expect(resolveRange(range, '+08:00')).toEqual({ start: '2025-03-07 00:00:00', end: '2025-03-07 23:59:59' });
    expect(resolveRange(range, '-05:00')).toEqual({ start: '2025-03-06 11:00:00', end: '2025-03-07 10:59:59' });
    expect(parseTime(resolveRange(range, '-05:00').start, '-05:00')).toBe(range.start);
  });

  it('starts afresh from a kept value of an older shape', () => {
    resetPositionSelection();
    sessionStorage.setItem('wildtrack_position_selection', JSON.stringify({ imeis: [A], range: { span: null, start: '2025-03-07 00:00:00', end: '' } }));
    expect(getViewContext()).toEqual({ device: null, imeis: [], range: { span: 7 }, tab: 'details', kind: 'positions', zoom: null, table: null, explicit: false });
  });

  it("reads a kept value without /track's kind and zoom (an earlier version's) with positions and no zoom", () => {
    resetPositionSelection();
    sessionStorage.setItem('wildtrack_position_selection', JSON.stringify({ device: A, imeis: [A], range: { span: 30 }, tab: 'work', explicit: true }));
    expect(getViewContext()).toEqual({ device: A, imeis: [A], range: { span: 30 }, tab: 'work', kind: 'positions', zoom: null, table: null, explicit: true });
  });

  it("forgets /track's zoom with a new kind, range or device, and keeps it in whole seconds", () => {
    setChosenDevice(A);
    setTrackKind('temperature');
    setTrackZoom({ from: 1_741_305_600_400, to: 1_741_392_000_600 });
    expect(getViewContext().zoom).toEqual({ from: 1_741_305_600_000, to: 1_741_392_001_000 });
    setTrackKind('pressure');
    expect(getViewContext()).toMatchObject({ kind: 'pressure', zoom: null });
    setTrackZoom({ from: 1_741_305_600_000, to: 1_741_392_000_000 });
    setPositionRange({ span: 30 });
    expect(getViewContext().zoom).toBeNull();
    setTrackZoom({ from: 1_741_305_600_000, to: 1_741_392_000_000 });
    setChosenDevice(B);
    expect(getViewContext()).toMatchObject({ device: B, kind: 'pressure', zoom: null });
  });
});

describe('in the router', () => {
  it("reads a link before the screen renders and rewrites the URL from the context (bad params dropped)", async () => {
    const seen: string[] = [];
    function Screen() {
      seen.push(getViewContext().device ?? '');
      return createElement(ContextInUrl, { page: 'track' });
    }
    const router = createMemoryRouter([{ path: '/track', loader: contextLoader('track'), Component: Screen }], {
      initialEntries: [`/track?device=${B}&span=3&tab=nonsense&from=garbage`],
    });
    render(createElement(RouterProvider, { router }));
    await waitFor(() => expect(router.state.location.search).toBe(`?device=${B}&span=3`));
    // the screen's first render already had the link's device
    expect(seen[0]).toBe(B);
    act(() => setPositionRange({ span: 30 }));
    await waitFor(() => expect(router.state.location.search).toBe(`?device=${B}&span=30`));
  });
});

describe('a link with a custom range', () => {
  it('is read once and rewritten at most once (no loop between the loader and the screen)', async () => {
    const router = createMemoryRouter([{ path: '/track', loader: contextLoader('track'), Component: () => createElement(ContextInUrl, { page: 'track' }) }], {
      initialEntries: [`/track?device=${B}&from=2026-04-18T00%3A00%3A00Z&to=2026-04-19T23%3A59%3A59%2B08%3A00`],
    });
    let navigations = 0;
    router.subscribe(() => navigations++);
    render(createElement(RouterProvider, { router }));
    await waitFor(() => expect(router.state.location.search).toBe(`?device=${B}&from=2026-04-18T00%3A00%3A00Z&to=2026-04-19T15%3A59%3A59Z`));
    await new Promise((r) => setTimeout(r, 300));
    expect(navigations).toBeLessThan(6);
    expect(getViewContext().range).toEqual({ span: null, start: Date.parse('2026-04-18T00:00:00Z'), end: Date.parse('2026-04-19T15:59:59Z') });
  });
});

describe('a link naming nothing valid', () => {
  it('chose nothing: its bad params go and the URL stays bare while the tree picks its default device', async () => {
    const router = createMemoryRouter([{ path: '/track', loader: contextLoader('track'), Component: () => createElement(ContextInUrl, { page: 'track' }) }], {
      initialEntries: ['/track?tab=photos&span=5&from=yesterday&fix=12'],
    });
    render(createElement(RouterProvider, { router }));
    // the tree's default device, no choice of the user's
    act(() => setChosenDevice(A));
    await waitFor(() => expect(router.state.location.search).toBe('?fix=12'));
    expect(getViewContext()).toMatchObject({ device: A, explicit: false });
  });
});

describe('a bare URL', () => {
  it('stays bare while the context holds only defaults, and carries the context once the user chose', async () => {
    const router = createMemoryRouter([{ path: '/track', loader: contextLoader('track'), Component: () => createElement(ContextInUrl, { page: 'track' }) }], {
      initialEntries: ['/track'],
    });
    render(createElement(RouterProvider, { router }));
    // the tree's default device
    act(() => setChosenDevice(A));
    await waitFor(() => expect(router.state.location.pathname).toBe('/track'));
    expect(router.state.location.search).toBe('');
    act(() => markExplicit());
    await waitFor(() => expect(router.state.location.search).toBe(`?device=${A}&span=7`));
  });

  it('a first selection in the tree is its default; a later one is a choice', () => {
    const select = vi.fn();
    const { rerender } = renderHook(({ selected, initialised }) => useChosenDeviceInTree('device', selected, initialised, locate2, select), {
      initialProps: { selected: null as string | null, initialised: false },
    });
    rerender({ selected: A, initialised: true });
    expect(getViewContext()).toMatchObject({ device: A, explicit: false });
    rerender({ selected: B, initialised: true });
    expect(getViewContext()).toMatchObject({ device: B, explicit: true });
  });
});

const locate2 = (imei: string) => (imei === A || imei === B ? '-1' : null);

describe('the tree and the chosen device', () => {
  const folders = new Map([
    [A, '-1'],
    [B, '5'],
  ]);
  const locate = (imei: string) => folders.get(imei) ?? null;

  it('makes the tree follow a device chosen elsewhere, and the context follow the tree', () => {
    const select = vi.fn();
    setChosenDevice(B);
    const { rerender, result } = renderHook(({ selected }) => useChosenDeviceInTree('track', selected, true, locate, select), { initialProps: { selected: A as string | null } });
    expect(select).toHaveBeenCalledWith(B, '5');
    rerender({ selected: B });
    // chosen in the tree
    rerender({ selected: A });
    expect(getViewContext().device).toBe(A);
    // a folder chosen in the tree keeps the chosen device
    rerender({ selected: null });
    expect(getViewContext().device).toBe(A);
    expect(result.current.unknown).toEqual([]);
  });

  it('says when the chosen device is not in the viewer\'s tree, and goes on with what the tree shows', () => {
    const select = vi.fn();
    setChosenDevice(C);
    const { result } = renderHook(() => useChosenDeviceInTree('device', A, true, locate, select));
    expect(select).not.toHaveBeenCalled();
    expect(result.current.unknown).toEqual([C]);
    expect(getViewContext().device).toBe(A);
    act(() => result.current.dismiss());
    expect(result.current.unknown).toEqual([]);
  });

  it('says so too when the tree shows its default before the screen looked at the chosen device', () => {
    setChosenDevice(C);
    const { rerender, result } = renderHook(({ selected, initialised, loaded }) => useChosenDeviceInTree('track', selected, initialised, loaded ? locate : null, vi.fn()), {
      initialProps: { selected: null as string | null, initialised: false, loaded: false },
    });
    // the tree's default came before the screen could look up the chosen device
    rerender({ selected: A, initialised: true, loaded: true });
    expect(getViewContext().device).toBe(A);
    expect(result.current.unknown).toEqual([C]);
  });

  it("drops the maps' devices the viewer cannot see, and says which", () => {
    setSelectedImeis([A, C]);
    const { result } = renderHook(() => useUnknownMapDevices(locate));
    expect(result.current.unknown).toEqual([C]);
    expect(getViewContext().imeis).toEqual([A]);
  });
});

describe('signing out', () => {
  it("forgets the kept context and its notices, in memory and in the browser's storage", () => {
    setChosenDevice(B);
    setPositionRange(rangeFromText('2025-03-07 00:00:00', '2025-03-07 23:59:59', '+08:00'));
    markExplicit();
    const { result } = renderHook(() => useChosenDeviceInTree('device', A, true, (imei) => (imei === A ? '-1' : null), vi.fn()));
    expect(result.current.unknown).toEqual([B]);
    expect(sessionStorage.getItem('wildtrack_position_selection')).not.toBeNull();
    act(() => clearSession());
    expect(getViewContext()).toEqual({ device: null, imeis: [], range: { span: 7 }, tab: 'details', kind: 'positions', zoom: null, table: null, explicit: false });
    expect(sessionStorage.getItem('wildtrack_position_selection')).toBeNull();
    expect(result.current.unknown).toEqual([]);
  });

  it("is not undone by the screen still showing: neither its device nor its URL comes back", async () => {
    function Screen() {
      useChosenDeviceInTree('track', A, true, locate2, vi.fn());
      return createElement(ContextInUrl, { page: 'track' });
    }
    const router = createMemoryRouter([{ path: '/track', loader: contextLoader('track'), Component: Screen }], {
      initialEntries: [`/track?device=${A}&span=30`],
    });
    render(createElement(RouterProvider, { router }));
    await waitFor(() => expect(getViewContext()).toMatchObject({ device: A, range: { span: 30 }, explicit: true }));
    let navigations = 0;
    router.subscribe(() => navigations++);
    act(() => clearSession());
    // what the next user to sign in on this browser opens with
    expect(getViewContext()).toEqual({ device: null, imeis: [], range: { span: 7 }, tab: 'details', kind: 'positions', zoom: null, table: null, explicit: false });
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(getViewContext()).toEqual({ device: null, imeis: [], range: { span: 7 }, tab: 'details', kind: 'positions', zoom: null, table: null, explicit: false });
    expect(navigations).toBe(0);
  });
});
