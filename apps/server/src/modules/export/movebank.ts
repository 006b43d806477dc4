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

/** The device's identifiers as Movebank names them: what an import kept in its attributes, else IMEI and caption. */
function identity(device: ExportDevice): [string, string][] {
  let attrs: Record<string, unknown> = {};
  try {
    attrs = JSON.parse(device.attributes || '{}') as Record<string, unknown>;
  } catch {
    attrs = {};
  }
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

/** A fix field's column: the one asked for, or the import's first choice when the record's extra holds another of its alternatives. */
function fieldColumn(alternatives: readonly string[], preferred: string, extraKeys: ReadonlySet<string>): string {
  return alternatives.some((a) => a !== preferred && extraKeys.has(a)) ? alternatives[0]! : preferred;
}

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
  const fields = {
    alt: fieldColumn(['height-above-msl', 'height-above-ellipsoid'], 'height-above-ellipsoid', extraKeys),
    temperature: fieldColumn(['external-temperature', 'eobs:temperature'], 'external-temperature', extraKeys),
    voltage: fieldColumn(['eobs:battery-voltage', 'tag-voltage'], 'tag-voltage', extraKeys),
    hdop: fieldColumn(['gps:hdop', 'gps-hdop', 'gps:dop', 'gps-dop'], 'gps:hdop', extraKeys),
  };
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
    const marks = marksOf(f.invalid_reason);
    const marked = f.invalid_at !== null || f.invalid_by !== null;
    set('visible', marked && !marks.some(([k]) => k !== 'visible') ? 'false' : 'true');
    for (const [k, v] of marks) set(k, v);
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
          const cal = origin.map((v, k) => (v === null ? null : (v - offset[column[k]!]!) * scale[column[k]!]!));
          eventId += 1;
          rows.push([eventId, movebankTime(b.start_time + (i * 1000) / b.hz), start, 'acceleration', ...origin, ...cal, ...ids.map(([, v]) => v)]);
        }
      }
      yield rows;
    }
  });
}
