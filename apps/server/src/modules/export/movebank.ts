import { STANDARD_GRAVITY } from '../movebank/index.js';
import { burstSamples } from '../sensor/burst-samples.js';
import type { ExportDevice, ExportFixRow, ExportQuery, ExportRepository } from './repository.js';
import { type Cell, cellTable, type Table } from './tables.js';

/**
 * Movebank's CSV (its event table: one row per location, acceleration in the plain long layout, one row per
 * sample) written so that `import-movebank` (modules/movebank) reads back the same records: Movebank's
 * column names and units (m/s, mV, UTC timestamps with milliseconds), the source's invalid marks as
 * visible=false or the `*-outlier` column that made them, and every value the import kept in a record's
 * `extra` back under its own column. event-id is Movebank's own number: written when the record came from
 * Movebank with one (the import keeps it in `extra`), empty otherwise (Movebank numbers what it imports).
 */

/** UTC 'YYYY-MM-DD HH:mm:ss.SSS', Movebank's timestamp. */
export function movebankTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 23);
}

function attributesOf(device: ExportDevice): Record<string, unknown> {
  try {
    const v = JSON.parse(device.attributes || '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The device's identifiers as Movebank names them: what an import kept in its attributes, else IMEI and caption. */
function identity(device: ExportDevice): [string, string][] {
  const attrs = attributesOf(device);
  const text = (k: string) => (typeof attrs[k] === 'string' && attrs[k] !== '' ? (attrs[k] as string) : undefined);
  const out: [string, string][] = [
    ['tag-local-identifier', text('tag-local-identifier') ?? device.imei],
    ['individual-local-identifier', text('individual-local-identifier') ?? (device.caption || device.imei)],
  ];
  for (const k of ['study-name', 'individual-taxon-canonical-name']) {
    const v = text(k);
    if (v !== undefined) out.push([k, v]);
  }
  return out;
}

/**
 * The columns of the fix fields that Movebank spells more than one way: the one the device's import read
 * them from (its attributes' `movebank-columns`: gps:dop, eobs:temperature, eobs:battery-voltage come back
 * under those names), else the name in Movebank's attribute dictionary. Units are the same either way
 * (°C, mV; DOP has none).
 */
const DICTIONARY = { temperature: 'external-temperature', voltage: 'tag-voltage', hdop: 'gps:hdop' } as const;
const SOURCE_NAMES: Record<keyof typeof DICTIONARY, readonly string[]> = {
  temperature: ['external-temperature', 'eobs:temperature'],
  voltage: ['eobs:battery-voltage', 'tag-voltage'],
  hdop: ['gps:hdop', 'gps-hdop', 'gps:dop', 'gps-dop'],
};
function fieldColumns(device: ExportDevice): Record<keyof typeof DICTIONARY, string> {
  const used = attributesOf(device)['movebank-columns'];
  const named = used && typeof used === 'object' ? (used as Record<string, unknown>) : {};
  const pick = (f: keyof typeof DICTIONARY): string => {
    const v = named[f];
    return typeof v === 'string' && SOURCE_NAMES[f].includes(v) ? v : DICTIONARY[f];
  };
  return { temperature: pick('temperature'), voltage: pick('voltage'), hdop: pick('hdop') };
}

const parseExtra = (extra: string | null): Record<string, unknown> => {
  if (!extra) return {};
  try {
    const v = JSON.parse(extra) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** A source mark's columns: 'visible=false' and '<name>-outlier=true' as the import wrote them into invalid_reason. */
const marksOf = (reason: string | null): [string, string][] =>
  (reason ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter((m) => /^[^=]+=(true|false)$/.test(m))
    .map((m) => m.split('=') as [string, string]);

const num = (v: number | null, f: (n: number) => number = (n) => n): Cell => (v === null ? null : f(v));

/** A Movebank CSV's header and rows for positions, a batch at a time; `columns` first, known after a pass over the extras. */
export async function movebankFixTable(repo: ExportRepository, device: ExportDevice, q: ExportQuery): Promise<Table<Cell[]>> {
  const extraKeys = new Set<string>();
  const markKeys = new Set<string>();
  for await (const batch of repo.fixExtras(q)) {
    for (const r of batch) {
      for (const k of Object.keys(parseExtra(r.extra))) extraKeys.add(k);
      for (const [k] of marksOf(r.invalid_reason)) markKeys.add(k);
    }
  }
  const ids = identity(device);
  // A fix's altitude is above sea level (a device's GPS, Movebank's height-above-msl); an ellipsoid height
  // a Movebank import read stays in the fix's extra and goes out under its own column, height-above-ellipsoid.
  const fields = { alt: 'height-above-msl', ...fieldColumns(device) };
  const base = [
    'event-id',
    'visible',
    'timestamp',
    'location-long',
    'location-lat',
    fields.alt,
    'ground-speed',
    'heading',
    fields.hdop,
    'gps:vdop',
    'gps:satellite-count',
    fields.temperature,
    fields.voltage,
    'sensor-type',
    ...ids.map(([k]) => k),
  ];
  const headers = [...base, ...[...markKeys, ...extraKeys].filter((k, i, all) => !base.includes(k) && all.indexOf(k) === i)];
  const at = new Map(headers.map((h, i) => [h, i]));
  const row = (f: ExportFixRow): Cell[] => {
    const cells: Cell[] = new Array<Cell>(headers.length).fill(null);
    for (const [k, v] of Object.entries(parseExtra(f.extra))) cells[at.get(k)!] = typeof v === 'string' || typeof v === 'number' ? v : JSON.stringify(v);
    const set = (k: string, v: Cell) => {
      if (v !== null) cells[at.get(k)!] = v;
    };
    // Movebank's readers (move2's mt_movebank_visible) take `visible` alone when the column is there: every
    // fix stored invalid (a source's mark, a user's, a position out of range) goes out visible=false, with the
    // outlier column that marked it.
    set('visible', f.valid ? 'true' : 'false');
    for (const [k, v] of marksOf(f.invalid_reason)) if (k !== 'visible') set(k, v);
    set('timestamp', movebankTime(f.pick_time));
    set('location-long', f.lon);
    set('location-lat', f.lat);
    set(fields.alt, f.alt);
    set('ground-speed', num(f.speed, (s) => (s < 0 ? Number.NaN : s / 3.6)));
    set('heading', f.course);
    set(fields.hdop, f.hdop);
    set('gps:vdop', f.vdop);
    set('gps:satellite-count', f.satellites);
    set(fields.temperature, f.temperature);
    set(fields.voltage, num(f.voltage, (v) => Math.round(v * 1e9) / 1e6));
    set('sensor-type', 'gps');
    for (const [k, v] of ids) set(k, v);
    return cells;
  };
  return cellTable(headers, async function* () {
    for await (const batch of repo.fixes(q)) yield batch.map(row);
  });
}

const ACC_HEADERS = [
  'event-id',
  'timestamp',
  'start-timestamp',
  'sensor-type',
  'acceleration-raw-x',
  'acceleration-raw-y',
  'acceleration-raw-z',
  'acceleration-x',
  'acceleration-y',
  'acceleration-z',
] as const;

/** Acceleration in Movebank's plain long layout: a row per sample, the burst named by its start-timestamp. */
export function movebankAccelerationTable(repo: ExportRepository, device: ExportDevice, q: ExportQuery): Table<Cell[]> {
  const ids = identity(device);
  let eventId = 0;
  return cellTable([...ACC_HEADERS, ...ids.map(([k]) => k)], async function* () {
    for await (const batch of repo.bursts(q)) {
      const rows: Cell[][] = [];
      for (const b of batch) {
        const { raw, scale, offset } = burstSamples(b);
        const axes = b.axes.length;
        const column = (['X', 'Y', 'Z'] as const).map((a) => b.axes.indexOf(a));
        const start = movebankTime(b.start_time);
        for (let i = 0; i < b.sample_count; i++) {
          const origin = column.map((c) => (c < 0 ? null : raw[i * axes + c]!));
          // calibrated g, written in Movebank's unit for acceleration-x/y/z: m/s²
          const cal = origin.map((v, k) => (v === null ? null : (v - offset[column[k]!]!) * scale[column[k]!]! * STANDARD_GRAVITY));
          eventId += 1;
          rows.push([eventId, movebankTime(b.start_time + (i * 1000) / b.hz), start, 'acceleration', ...origin, ...cal, ...ids.map(([, v]) => v)]);
        }
      }
      yield rows;
    }
  });
}
