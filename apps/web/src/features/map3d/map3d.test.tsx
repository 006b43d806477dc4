import { Code, encodeTrackSet, TrackFlag } from '@wildtrack/contract';
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { setLang } from '../../i18n';
import { rangeFromText, resetPositionSelection, setPositionRange, setSelectedImeis } from '../../lib/positionSelection';
import { clearSession } from '../../lib/session';
import { folder, tree, treeDevice } from '../../test/devices';
import { envelope, fakeServer } from '../../test/server';
import Map3dPage from './Map3dPage';
import { signInForTest } from '../../test/session';

const IMEI = '860000000000888';
const BASE = Date.UTC(2025, 2, 7, 0, 0, 0);

beforeEach(() => {
  signInForTest();
  resetPositionSelection();
});

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** A stork taking off: on the ground, then 300, 900 m up; the second fix has no altitude. */
const trackReply = () =>
  toBase64(
    encodeTrackSet([
      {
        imei: IMEI,
        count: 4,
        times: [0, 1, 2, 3].map((i) => BASE + i * 600_000),
        lonLat: [121.8, 40.9, 121.82, 40.9, 121.9, 40.85, 122.1, 40.8],
        alt: [4, null, 300, 900],
        grade: [1, 1, 1, 1],
        flags: [TrackFlag.Valid, TrackFlag.Valid, TrackFlag.Valid, TrackFlag.Valid],
      },
    ]),
  );

function server() {
  const data = tree(folder('-1', 'Qinling Reserve', { devices: [treeDevice(IMEI, { Caption: 'Stork 3D' })] }));
  return fakeServer({
    '/api/Device/GetTree': () => envelope(Code.Success, '', data),
    '/api/Fix/GetAvgListByImeisAndTime': () => envelope(Code.Success, '', trackReply()),
    '/api/Fix/GetLastFixList': () => envelope(Code.Success, '', []),
  });
}

describe('/map3d', () => {
  it('asks for devices, and says the globe cannot be drawn in a browser without WebGL', async () => {
    server();
    render(
      <AppProviders>
        <Map3dPage />
      </AppProviders>,
    );
    expect(await screen.findByText('Choose devices above to see their tracks on the globe')).toBeTruthy();
    // jsdom has no WebGL: the globe's chunk loads and shows why there is no globe, the page still works.
    expect(await screen.findByTestId('globe-unavailable', {}, { timeout: 20_000 })).toBeTruthy();
    expect(screen.getByText('This browser cannot draw the 3D globe (WebGL is off or unavailable).')).toBeTruthy();
    expect(screen.getByTestId('device-picker')).toBeTruthy();
  }, 30_000);

  it('lists the chosen device with its fixes and the height of the fix shown, in either language', async () => {
    server();
    setSelectedImeis([IMEI]);
    setPositionRange(rangeFromText('2025-03-07 00:00:00', '2025-03-07 23:59:59', '+08:00'));
    render(
      <AppProviders>
        <Map3dPage />
      </AppProviders>,
    );
    const legend = await screen.findByTestId('map3d-legend', {}, { timeout: 10_000 });
    const row = legend.querySelector(`[data-imei="${IMEI}"]`) as HTMLElement;
    expect(row.dataset.count).toBe('4');
    // No replay: the last fix, 900 m up.
    expect(row.dataset.altitude).toBe('900');
    expect(within(row).getByText('4 fixes')).toBeTruthy();
    expect(within(row).getByText('900 m')).toBeTruthy();

    setLang('zh');
    await waitFor(() => expect(within(row).getByText('900 米')).toBeTruthy());
    expect(within(row).getByText('4 个定位')).toBeTruthy();
  }, 30_000);
});
