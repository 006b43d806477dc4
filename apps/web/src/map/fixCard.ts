import { formatTime, GetFixListByPage, type Fix } from '@wildtrack/contract';
import { call } from '../lib/api';
import { gradeLetter, type DevicePosition } from './lastFix';

type T = (key: string, params?: Record<string, unknown>) => string;

const DASH = '—';

/**
 * The card a device's marker opens, the same on the flat map and the globe, built as DOM text (never
 * HTML from data). First from what the track knows (time, position, height, grade), then, once the fix
 * itself has been read (loadFixAt), with its speed and voltage too.
 */
export function positionCard(position: DevicePosition, zone: string, t: T, fix: Fix | null = null): HTMLElement {
  const card = document.createElement('div');
  card.className = 'wt-fix-card';
  card.dataset.imei = position.imei;
  card.dataset.time = String(position.time);
  card.dataset.full = fix ? '1' : '0';
  const title = document.createElement('div');
  title.className = 'wt-fix-card-title';
  title.textContent = position.caption && position.caption !== position.imei ? `${position.caption} (${position.imei})` : position.imei;
  card.append(title);
  const num = (v: number | null | undefined, unit: string, digits = 1): string => (v === null || v === undefined || !Number.isFinite(v) ? DASH : `${v.toFixed(digits)} ${unit}`);
  const lon = position.lon;
  const lat = position.lat;
  const rows: [string, string][] = [
    [t('map.fix.time'), formatTime(position.time, zone) || DASH],
    [t('map.fix.position'), `${Math.abs(lon).toFixed(6)}°${lon < 0 ? 'W' : 'E'} ${Math.abs(lat).toFixed(6)}°${lat < 0 ? 'S' : 'N'}`],
    [t('map.fix.speed'), fix ? num(fix.Speed, 'km/h') : '…'],
    [t('map.fix.altitude'), num(fix ? fix.Altitude : position.alt, 'm', 0)],
    [t('map.fix.voltage'), fix ? num(fix.Voltage, 'V', 2) : '…'],
    [t('map.fix.grade'), gradeLetter(fix ? fix.PrecisionGrade : position.grade || null) || DASH],
  ];
  const list = document.createElement('dl');
  for (const [label, value] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.textContent = value;
    list.append(dt, dd);
  }
  card.append(list);
  return card;
}

/** The fix a marker stands on, read from the server by its device and time (null if it is gone). */
export async function loadFixAt(imei: string, time: number, zone: string): Promise<Fix | null> {
  const at = formatTime(time, zone);
  const page = await call(
    GetFixListByPage,
    { imei, startTime: at, endTime: at, timeZone: zone, secondLevel: 'all', currentPage: 1, pageSize: 10 },
    { loading: false, repeatCheck: false },
  );
  return page.List[0] ?? null;
}

/**
 * Shows a position's card in `host` at once and fills in the fix when it has been read; `current()`
 * says whether the card is still the one shown (a later click replaced it).
 */
export function fillCard(host: { setDOMContent: (el: HTMLElement) => unknown }, position: DevicePosition, zone: string, t: T, current: () => boolean): void {
  host.setDOMContent(positionCard(position, zone, t));
  loadFixAt(position.imei, position.time, zone)
    .then((fix) => {
      if (fix && current()) host.setDOMContent(positionCard(position, zone, t, fix));
    })
    .catch(() => {
      // The card keeps what the track knows.
    });
}
