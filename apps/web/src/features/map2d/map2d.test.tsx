import { Code, DEFAULT_TILE_LAYERS, DeviceType, encodeAccelerationSeries, encodeTrackSet, SensorFlag, TrackFlag } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { setLang } from '../../i18n';
import { rangeFromText, resetPositionSelection, setPositionRange, setSelectedImeis } from '../../lib/positionSelection';
import { clearSession } from '../../lib/session';
import { folder, tree, treeDevice } from '../../test/devices';
import { callsTo, envelope, fakeServer } from '../../test/server';
import Map2dPage from './Map2dPage';
import { canRecordPois, poiDevices } from './poiLayer';
import { signInForTest } from '../../test/session';

const STORK = '860000000000111';
const DEER = '860000000000222';
const PHONE = '860000000000333';
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

/** The stork's acceleration: a 2 s burst at 10 Hz every 10 minutes over its track, each with its mean ODBA. */
const STORK_ODBA = [0.12, 0.25, 0.4, 0.87];
const bursts = () =>
  toBase64(
    encodeAccelerationSeries(
      STORK_ODBA.map((meanOdba, i) => ({
        start: BASE + i * 600_000,
        hz: 10,
        axes: 'XYZ',
        sampleCount: 20,
        samples: new Uint8Array(20 * 3 * 2),
        odba: new Uint8Array(20 * 2),
        meanOdba,
        scale: [1 / 1024, 1 / 1024, 1 / 1024],
        offset: [0, 0, 0],
      })),
    ),
  );

function server(opts: { empty?: boolean; tdtKey?: string } = {}) {
  const data = tree(
    folder('-1', 'Qinling Reserve', {
      // the stork carries an accelerometer, the deer does not
      devices: [
        treeDevice(STORK, { Caption: 'Stork 11', Sensor: SensorFlag.Acceleration }),
        treeDevice(DEER, { Caption: 'Deer 22', Sensor: 0 }),
        // a ranger's phone: the only one of them that records points of interest
        treeDevice(PHONE, { Caption: 'Ranger 33', Type: DeviceType.Phone, SpeciesType: 0, Sensor: SensorFlag.GNSS | SensorFlag.Image }),
      ],
    }),
  );
  return fakeServer({
    '/api/Device/GetTree': () => envelope(Code.Success, '', data),
    '/api/Fix/GetAvgListByImeisAndTime': () => envelope(Code.Success, '', tracks(opts.empty)),
    '/api/Fix/GetLastList': () => envelope(Code.Success, '', []),
    '/api/Sensor/GetAccelerationBinaryV2': () => envelope(Code.Success, '', { Count: STORK_ODBA.length, SampleCount: STORK_ODBA.length * 20, Data: bursts() }),
    '/api/Map/GetTileLayers': () => envelope(Code.Success, '', DEFAULT_TILE_LAYERS),
    '/api/POI/GetList': () =>
      envelope(Code.Success, '', {
        List: [
          {
            Id: 1,
            IdStr: '1',
            UserId: 2017,
            UserIdStr: '2017',
            UserName: 'Wang Lei',
            Name: 'Stork nest',
            Target: 'Oriental stork',
            Longitude: 121.81,
            Latitude: 40.9,
            Altitude: null,
            Photos: [],
            Address: '',
            Description: '',
            RecordTime: '2025-03-07 09:00:00',
          },
        ],
        Total: 1,
      }),
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

/** The page with the stork and the deer chosen over 7 March: the fake server and their legend rows. */
async function bothDevices() {
  const fetchMock = server();
  setSelectedImeis([STORK, DEER]);
  setPositionRange(rangeFromText('2025-03-07 00:00:00', '2025-03-07 23:59:59', '+08:00'));
  page();
  const legend = await screen.findByTestId('map2d-legend', {}, { timeout: 10_000 });
  const row = (imei: string) => legend.querySelector(`[data-imei="${imei}"]`) as HTMLElement;
  return { fetchMock, stork: row(STORK), deer: row(DEER) };
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
    const { fetchMock, stork, deer } = await bothDevices();
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

  it('shows, during a replay, the ODBA of the moment beside each device with an accelerometer', async () => {
    const { fetchMock, stork, deer } = await bothDevices();
    // Not replaying: no figure.
    expect(within(stork).queryByTestId('replay-odba')).toBeNull();
    const handle = within(screen.getByTestId('replay')).getByRole('slider');
    // The replay at the start: the first burst's mean ODBA.
    fireEvent.keyDown(handle, { key: 'Home', keyCode: 36 });
    await waitFor(() => expect(within(stork).getByTestId('replay-odba').textContent).toBe('ODBA 0.120 g'), { timeout: 10_000 });
    // To the end: the last burst's.
    fireEvent.keyDown(handle, { key: 'End', keyCode: 35 });
    await waitFor(() => expect(within(stork).getByTestId('replay-odba').textContent).toBe('ODBA 0.870 g'));
    // A click a third of the way along the bar (10 of the 30 minutes): the second burst's. (jsdom lays
    // nothing out: the bar is given a width. Key presses to get there took 300 ms each on a busy machine.)
    const bar = within(screen.getByTestId('replay')).getByRole('slider').closest('.ant-slider') as HTMLElement;
    vi.spyOn(bar, 'getBoundingClientRect').mockReturnValue(DOMRect.fromRect({ x: 0, y: 0, width: 999, height: 10 }));
    fireEvent.mouseDown(bar, { clientX: 333 });
    fireEvent.mouseUp(document, { clientX: 333 });
    await waitFor(() => expect(within(stork).getByTestId('replay-odba').dataset.odba).toBe(String(Math.fround(0.25))));
    // The deer has no accelerometer: nothing said of it, and its bursts never asked for.
    expect(within(deer).queryByTestId('replay-odba')).toBeNull();
    const calls = callsTo(fetchMock, '/api/Sensor/GetAccelerationBinaryV2');
    expect(calls).toHaveLength(1);
    expect(JSON.parse(String(calls[0]!.body))).toMatchObject({ imei: STORK, startTime: '2025-03-07 00:00:00', endTime: '2025-03-07 23:59:59', timeZone: '+08:00' });

    setLang('zh');
    await waitFor(() => expect(within(stork).getByTestId('replay-odba').textContent).toBe('ODBA 0.250 g'));
  }, 120_000);

  it("asks for the points of interest of the chosen phones only, not of the tags beside them", async () => {
    const fetchMock = server();
    setSelectedImeis([STORK, DEER, PHONE]);
    setPositionRange(rangeFromText('2025-03-07 00:00:00', '2025-03-07 23:59:59', '+08:00'));
    page();
    await screen.findByTestId('map2d-legend', {}, { timeout: 10_000 });
    // the phone's one POI counted beside the layer's switch
    await waitFor(() => expect(document.querySelector('.wt-poi-toggle')?.textContent?.trim()).toBe('Points of interest (1)'), { timeout: 20_000 });
    const asked = callsTo(fetchMock, '/api/POI/GetList').map((c) => (JSON.parse(String(c.body)) as { imei: string }).imei);
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked)).toEqual(new Set([PHONE]));
  }, 30_000);

  it('asks for no points of interest when no phone is chosen', async () => {
    const { fetchMock } = await bothDevices();
    // the tracks are drawn (the tree was read, so the devices' types were known) and no POI was asked for
    await waitFor(() => expect(callsTo(fetchMock, '/api/Fix/GetAvgListByImeisAndTime').length).toBeGreaterThan(0));
    expect(callsTo(fetchMock, '/api/POI/GetList')).toHaveLength(0);
    expect(screen.getByText('Points of interest')).toBeTruthy();
  }, 30_000);

  it('says when the range holds no fixes', async () => {
    server({ empty: true });
    setSelectedImeis([STORK]);
    setPositionRange(rangeFromText('2025-03-07 00:00:00', '2025-03-07 23:59:59', '+08:00'));
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

describe('which devices record points of interest', () => {
  it('phones only; a device the tree does not hold is not asked for', () => {
    expect([DeviceType.Unknown, DeviceType.Tracker, DeviceType.VHFReceiver, DeviceType.Phone].filter(canRecordPois)).toEqual([DeviceType.Phone]);
    const types = new Map([
      [STORK, DeviceType.Tracker],
      [DEER, DeviceType.VHFReceiver],
      [PHONE, DeviceType.Phone],
    ]);
    expect(poiDevices([STORK, PHONE, DEER, '860000000000444'], types)).toEqual([PHONE]);
    expect(poiDevices([PHONE], new Map())).toEqual([]);
  });
});
