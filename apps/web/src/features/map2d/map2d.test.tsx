import { Code, DEFAULT_TILE_LAYERS, encodeTrackSet, TrackFlag } from '@wildtrack/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { setLang } from '../../i18n';
import { resetPositionSelection, setPositionRange, setSelectedImeis } from '../../lib/positionSelection';
import { clearSession } from '../../lib/session';
import { folder, tree, treeDevice } from '../../test/devices';
import { callsTo, envelope, fakeServer } from '../../test/server';
import Map2dPage from './Map2dPage';
import { signInForTest } from '../../test/session';

const STORK = '860000000000111';
const DEER = '860000000000222';
const BASE = Date.UTC(2025, 2, 7, 0, 0, 0);

beforeEach(() => {
  signInForTest();
  resetPositionSelection();
  localStorage.removeItem('wildtrack_base_layer');
});

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** A stork with 4 fixes 10 minutes apart and a deer with 2 fixes 30 minutes apart. */
const tracks = (empty = false) =>
  toBase64(
    encodeTrackSet(
      empty
        ? []
        : [
            {
              imei: STORK,
              count: 4,
              times: [0, 1, 2, 3].map((i) => BASE + i * 600_000),
              lonLat: [121.8, 40.9, 121.82, 40.9, 121.9, 40.85, 122.1, 40.8],
              alt: [4, null, 30, 90],
              grade: [1, 2, 3, 1],
              flags: [TrackFlag.Valid, TrackFlag.Valid, TrackFlag.Valid, TrackFlag.Valid],
            },
            {
              imei: DEER,
              count: 2,
              times: [BASE, BASE + 1_800_000],
              lonLat: [108.1, 33.5, 108.11, 33.51],
              alt: [900, 905],
              grade: [2, 2],
              flags: [TrackFlag.Valid, TrackFlag.Valid],
            },
          ],
    ),
  );

function server(opts: { empty?: boolean; tdtKey?: string } = {}) {
  const data = tree(
    folder('-1', 'Qinling Reserve', { devices: [treeDevice(STORK, { Caption: 'Stork 11' }), treeDevice(DEER, { Caption: 'Deer 22' })] }),
  );
  return fakeServer({
    '/api/Device/GetTree': () => envelope(Code.Success, '', data),
    '/api/Fix/GetAvgListByImeisAndTime': () => envelope(Code.Success, '', tracks(opts.empty)),
    '/api/Fix/GetLastList': () => envelope(Code.Success, '', []),
    '/api/Map/GetTileLayers': () => envelope(Code.Success, '', DEFAULT_TILE_LAYERS),
    '/api/User/GetAccountSetting': () =>
      envelope(Code.Success, '', { TdtKey: opts.tdtKey ?? '', ReceiveNotification: { APP: 1, Email: 0 }, TimeZone: '+08:00' }),
  });
}

function page() {
  return render(
    <AppProviders>
      <Map2dPage />
    </AppProviders>,
  );
}

describe('/map2d', () => {
  it('asks for devices, offers every layer with the offline basemap, and says when the map cannot be drawn', async () => {
    server();
    page();
    expect(await screen.findByText('Choose devices above to see their last positions and tracks')).toBeTruthy();
    // jsdom has no WebGL: the page says so and still works.
    expect(await screen.findByText('This browser cannot draw the map (WebGL is off or unavailable).')).toBeTruthy();
    // §2.5: an English browser starts on the global image layer.
    const switcher = screen.getByTestId('layer-switcher');
    expect(within(switcher).getByText('Satellite')).toBeTruthy();
    expect(screen.getByTestId('device-picker')).toBeTruthy();
  }, 30_000);

  it('lists the chosen devices with their fixes in their colours, in either language', async () => {
    const fetchMock = server();
    setSelectedImeis([STORK, DEER]);
    setPositionRange({ span: null, start: '2025-03-07 00:00:00', end: '2025-03-07 23:59:59' });
    page();
    const legend = await screen.findByTestId('map2d-legend', {}, { timeout: 10_000 });
    const stork = legend.querySelector(`[data-imei="${STORK}"]`) as HTMLElement;
    const deer = legend.querySelector(`[data-imei="${DEER}"]`) as HTMLElement;
    expect(stork.dataset.count).toBe('4');
    expect(deer.dataset.count).toBe('2');
    // No replay: each device at its last fix.
    expect(stork.dataset.index).toBe('3');
    expect(deer.dataset.fixTime).toBe(String(BASE + 1_800_000));
    expect(within(stork).getByText('4 fixes')).toBeTruthy();
    // One call for both devices, over the chosen range in the user's zone.
    const body = JSON.parse(String(callsTo(fetchMock, '/api/Fix/GetAvgListByImeisAndTime')[0]!.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ imeis: [STORK, DEER], startTime: '2025-03-07 00:00:00', endTime: '2025-03-07 23:59:59', timeZone: '+08:00' });
    // The replay clock spans both tracks.
    expect(screen.getByTestId('replay').dataset.time).toBe('');

    setLang('zh');
    await waitFor(() => expect(within(stork).getByText('4 个定位')).toBeTruthy());
    expect(screen.getByText('卫星图')).toBeTruthy();
  }, 30_000);

  it('says when the range holds no fixes', async () => {
    server({ empty: true });
    setSelectedImeis([STORK]);
    setPositionRange({ span: null, start: '2025-03-07 00:00:00', end: '2025-03-07 23:59:59' });
    page();
    expect(await screen.findByText('No fixes between 2025-03-07 00:00:00 and 2025-03-07 23:59:59', {}, { timeout: 10_000 })).toBeTruthy();
  }, 30_000);

  it('explains that a Tianditu layer needs the key from the settings', async () => {
    server({ tdtKey: '' });
    localStorage.setItem('wildtrack_base_layer', 'tdt-image');
    page();
    const notice = await screen.findByTestId('base-layer-notice', {}, { timeout: 10_000 });
    expect(notice.dataset.notice).toBe('no-key');
    expect(notice.textContent).toContain('Tianditu layers need a map-service key: add yours in Settings.');
  }, 30_000);
});
