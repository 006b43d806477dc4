import { Code, SensorFlag } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { setLang } from '../../i18n';
import { resetPositionSelection, setSelectedImeis } from '../../lib/positionSelection';
import { clearSession } from '../../lib/session';
import { folder, tree, treeDevice } from '../../test/devices';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { MediaPage } from './MediaPage';

const PHONE = '860000000000333';
const GPS = '860000000000444';
const FILES = '/prod-api/files/media';

beforeEach(() => {
  signInForTest();
  resetPositionSelection();
});

afterEach(async () => {
  clearSession();
  vi.unstubAllGlobals();
  await setLang('en');
});

const pad = (n: number) => String(n).padStart(2, '0');
/** 25 photos an hour apart, newest first (as the server answers). */
const images = Array.from({ length: 25 }, (_, i) => {
  const t = Date.UTC(2026, 10, 1, 0, 0, 0) - i * 3_600_000;
  const d = new Date(t + 8 * 3_600_000);
  return {
    IMEI: PHONE,
    PickTime: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:00:00`,
    Longitude: 118.9,
    Latitude: 37.7,
    Altitude: 4,
    Url: `${FILES}/${PHONE}/image-${t}.jpg`,
    Size: 3900,
    Mime: 'image/jpeg',
    Width: 160,
    Height: 120,
    ThumbUrl: `${FILES}/${PHONE}/thumb-${t}.jpg`,
  };
});
const recording = {
  IMEI: PHONE,
  PickTime: '2026-11-01 09:03:01',
  Longitude: 118.9,
  Latitude: 37.7,
  Altitude: 4,
  Url: `${FILES}/${PHONE}/audio-1.pdm`,
  Size: 51200,
  Mime: 'audio/x-pdm',
  Rate: 512000,
  BitDepth: 1,
  Track: 1,
  Duration: 0.8,
  Pdm: true,
  OssFile: '',
};

function server(opts: { imagesFail?: boolean } = {}) {
  const data = tree(
    folder('-1', 'Delta Reserve', {
      devices: [
        treeDevice(PHONE, { Caption: 'Field phone', Sensor: SensorFlag.GNSS | SensorFlag.Image | SensorFlag.Audio }),
        treeDevice(GPS, { Caption: 'GPS only', Sensor: SensorFlag.GNSS }),
      ],
    }),
  );
  return fakeServer({
    '/api/Device/GetTree': () => envelope(Code.Success, '', data),
    '/api/Sensor/GetImageAll': () => (opts.imagesFail ? envelope(Code.ServerError, 'database unreachable') : envelope(Code.Success, '', { List: images, Total: 25 })),
    '/api/Sensor/GetAudioAll': () => envelope(Code.Success, '', { List: [recording], Total: 1 }),
    '/api/Sensor/ConvertPDMToWAV': () => envelope(Code.Success, '', { Url: `${FILES}/${PHONE}/audio-1.wav`, Size: 25644, Rate: 16000, BitDepth: 16, Duration: 0.8 }),
  });
}

const page = () =>
  render(
    <AppProviders>
      <MediaPage />
    </AppProviders>,
  );

describe('/media', () => {
  it('asks for devices, and says when the chosen ones take no media', async () => {
    server();
    page();
    expect(await screen.findByText('Choose devices to see their images, videos and recordings.')).toBeTruthy();
    setSelectedImeis([GPS]);
    expect(await screen.findByText('This device takes no images, videos or recordings.')).toBeTruthy();
  }, 30_000);

  it('pages the thumbnails, opens the viewer and steps with the arrow keys across pages', async () => {
    const fetchMock = server();
    setSelectedImeis([PHONE, GPS]);
    page();
    await waitFor(() => expect(screen.getAllByTestId('media-thumb')).toHaveLength(20), { timeout: 10_000 });
    // only the devices offering images are asked, with the range in the user's zone
    const body = JSON.parse(callsTo(fetchMock, '/api/Sensor/GetImageAll')[0]!.body as string) as { imeis: string[]; timeZone: string };
    expect(body).toMatchObject({ imeis: [PHONE], timeZone: '+08:00' });
    expect(screen.getByText('25 files')).toBeTruthy();
    const kinds = screen.getByTestId('media-kinds');
    expect(within(kinds).queryByText('Videos')).toBeNull();
    expect(screen.getAllByTestId('media-thumb')[0]!.querySelector('img')!.getAttribute('src')).toBe(images[0]!.ThumbUrl);

    fireEvent.click(screen.getAllByTestId('media-thumb')[19]!);
    const viewer = await screen.findByTestId('media-viewer-body');
    expect(viewer.getAttribute('data-time')).toBe(images[19]!.PickTime);
    expect(within(viewer).getByText('118.90000, 37.70000')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    // the 21st image is on page 2: the grid behind the viewer follows
    await waitFor(() => expect(screen.getByTestId('media-viewer-body').getAttribute('data-time')).toBe(images[20]!.PickTime));
    await waitFor(() => expect(screen.getAllByTestId('media-thumb')).toHaveLength(5));
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    await waitFor(() => expect(screen.getByTestId('media-viewer-body').getAttribute('data-time')).toBe(images[19]!.PickTime));
  }, 30_000);

  it('converts a PDM recording on the server, then plays its WAV', async () => {
    const fetchMock = server();
    setSelectedImeis([PHONE]);
    page();
    fireEvent.click(await screen.findByText('Audio'));
    fireEvent.click(await screen.findByText('Convert to WAV'));
    const player = await screen.findByTestId('media-audio-element');
    expect(player.getAttribute('src')).toBe(`${FILES}/${PHONE}/audio-1.wav`);
    expect(JSON.parse(callsTo(fetchMock, '/api/Sensor/ConvertPDMToWAV')[0]!.body as string)).toMatchObject({ imei: PHONE, pickTime: recording.PickTime });
  }, 30_000);

  it('shows a failed list with a retry, in Chinese', async () => {
    await setLang('zh');
    server({ imagesFail: true });
    setSelectedImeis([PHONE]);
    page();
    expect(await screen.findByText('媒体加载失败。', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('重试')).toBeTruthy();
  }, 30_000);
});
