import fs from 'node:fs';
import { type CsvError, parse } from 'csv-parse';
import { DeviceType, SensorFlag, type SensorFlagName, isValidPosition } from '@wildtrack/contract';
import { BatchRefused, burstRow, type BurstRow, DEFAULT_SCALE, type DecodedBatch, type FixRow } from '../decode.js';
import type { IngestService } from '../service.js';
import { DeviceInputError, type DeviceService } from '../../modules/device/service.js';
import { MovebankFormatError } from './errors.js';
import { mountInfoOf, modelOf, readReference, type Reference } from './reference.js';
import type { DeviceRepository } from '../../modules/device/repository.js';
import { mountDoc } from '../../modules/device/mount.js';
import { SampleStaging, type StagedSample } from './staging.js';
import { speciesTypeOf } from './taxon.js';
import { isEmpty, movebankImei, parseTimestamp, toBoolean, toNumber } from './values.js';

export interface MovebankServices {
  devices: DeviceService;
  ingest: IngestService;
  /** Device attributes, sensor flags and animal info the import keeps up to date. */
  tags: DeviceRepository;
}

export interface MovebankImportOptions {
  file: string;
  orgId: number;
  /** Folder for the devices the import creates; devices that exist stay where they are. */
  folderId: number | null;
  /** Movebank reference data (tag / individual / deployment) for the same study. */
  referenceFile?: string | undefined;
  onProgress?: ((line: string) => void) | undefined;
  /** Import time: the time of the invalid marks the source made. */
  now?: number;
}

/**
 * What an import did. `stored` and `duplicates` are what the database did (a re-import stores nothing
 * and counts everything as a duplicate); the other counts describe the file.
 */
export interface MovebankImportReport {
  file: string;
  rows: number;
  devices: { created: number; reused: number };
  fixes: { stored: number; withoutPosition: number; markedInvalid: number; duplicates: number };
  bursts: { stored: number; samples: number; duplicates: number };
  skipped: { reason: string; count: number }[];
  seconds: number;
}

/** Records per write (one transaction each): bounds memory whatever the file's size. */
export const CHUNK = 5000;
/** Axis-samples buffered before a write, so that long bursts bound memory too. */
const MAX_BUFFERED_SAMPLES = 1_000_000;
const PROGRESS_EVERY = 10_000;

// Columns that say which animal and tag a row belongs to: they become the device, not row data.
const DEVICE_COLUMNS = ['sensor-type', 'tag-local-identifier', 'individual-local-identifier', 'individual-taxon-canonical-name', 'study-name'];

/** Where each known column sits in this file's header (-1 when absent). */
class Layout {
  readonly names: string[];
  private readonly index = new Map<string, number>();
  readonly time: number;
  readonly lon: number;
  readonly lat: number;
  readonly sensorType: number;
  readonly tag: number;
  readonly individual: number;
  readonly taxon: number;
  readonly study: number;
  readonly event: number;
  readonly visible: number;
  readonly outliers: number[];
  // one value each; alternatives in order of preference
  readonly alt: number[];
  readonly speed: number;
  readonly course: number;
  readonly temperature: number[];
  readonly voltage: number[];
  readonly satellites: number;
  readonly hdop: number[];
  readonly vdop: number;
  // e-obs nested acceleration
  readonly eobsRaw: number;
  readonly eobsAxes: number;
  readonly eobsHz: number;
  readonly eobsStart: number;
  // plain long-format acceleration
  readonly raw: [number, number, number];
  readonly calibrated: [number, number, number];
  readonly calibratedFrom: string | null;
  readonly start: number;
  /** Columns whose values go to a fix's `extra`, and those that go to a burst's. */
  readonly fixExtra: number[];
  readonly accExtra: number[];

  constructor(header: string[], file: string) {
    this.names = header.map((h) => h.trim().toLowerCase());
    this.names.forEach((n, i) => {
      if (!this.index.has(n)) this.index.set(n, i);
    });
    const at = (n: string) => this.index.get(n) ?? -1;
    const some = (...ns: string[]) => ns.map(at).filter((i) => i >= 0);
    this.time = at('timestamp');
    if (this.time < 0) {
      throw new MovebankFormatError(
        `${file}: not a Movebank CSV: it has no "timestamp" column (its columns: ${this.names.slice(0, 12).join(', ')}${this.names.length > 12 ? ', ...' : ''})`,
      );
    }
    this.tag = at('tag-local-identifier');
    this.individual = at('individual-local-identifier');
    if (this.tag < 0 && this.individual < 0) {
      throw new MovebankFormatError(`${file}: not a Movebank CSV: it has neither an "individual-local-identifier" nor a "tag-local-identifier" column`);
    }
    this.lon = at('location-long');
    this.lat = at('location-lat');
    this.sensorType = at('sensor-type');
    this.taxon = at('individual-taxon-canonical-name');
    this.study = at('study-name');
    this.event = at('event-id');
    this.visible = at('visible');
    this.outliers = this.names.flatMap((n, i) => (n.endsWith('-outlier') && this.index.get(n) === i ? [i] : []));
    this.alt = some('height-above-msl', 'height-above-ellipsoid');
    this.speed = at('ground-speed');
    this.course = at('heading');
    this.temperature = some('external-temperature', 'eobs:temperature');
    this.voltage = some('eobs:battery-voltage', 'tag-voltage');
    // Movebank writes sensor attributes with a colon (gps:satellite-count); older exports and
    // hand-converted files use a hyphen. Either is read.
    this.satellites = some('gps:satellite-count', 'gps-satellite-count')[0] ?? -1;
    this.hdop = some('gps:hdop', 'gps-hdop', 'gps:dop', 'gps-dop');
    this.vdop = some('gps:vdop', 'gps-vdop')[0] ?? -1;
    this.eobsRaw = at('eobs:accelerations-raw');
    this.eobsAxes = at('eobs:acceleration-axes');
    this.eobsHz = at('eobs:acceleration-sampling-frequency-per-axis');
    this.eobsStart = at('eobs:start-timestamp');
    this.raw = [at('acceleration-raw-x'), at('acceleration-raw-y'), at('acceleration-raw-z')];
    const tilt: [number, number, number] = [at('tilt-x'), at('tilt-y'), at('tilt-z')];
    const acc: [number, number, number] = [at('acceleration-x'), at('acceleration-y'), at('acceleration-z')];
    const hasTilt = tilt.some((i) => i >= 0);
    this.calibrated = hasTilt ? tilt : acc;
    this.calibratedFrom = hasTilt ? 'tilt' : acc.some((i) => i >= 0) ? 'acceleration' : null;
    this.start = at('start-timestamp');

    const common = [this.time, this.visible, ...this.outliers, ...DEVICE_COLUMNS.map(at)];
    const fixUsed = new Set([...common, this.lon, this.lat, ...this.alt, this.speed, this.course, ...this.temperature, ...this.voltage, this.satellites, ...this.hdop, this.vdop]);
    const accUsed = new Set([...common, this.eobsRaw, this.eobsAxes, this.eobsHz, this.eobsStart, ...this.raw, ...tilt, ...acc, this.start]);
    const all = this.names.map((_, i) => i).filter((i) => this.index.get(this.names[i]!) === i);
    this.fixExtra = all.filter((i) => !fixUsed.has(i));
    this.accExtra = all.filter((i) => !accUsed.has(i));
  }
}

interface DeviceState {
  id: number;
  index: number;
  study: string;
  taxon: string;
  sensors: number;
  fixes: FixRow[];
  bursts: BurstRow[];
}

type Resolved = DeviceState | { refused: string };

const cell = (row: string[], i: number): string | undefined => (i >= 0 ? row[i] : undefined);

function firstPresent(row: string[], cols: number[]): number {
  for (const i of cols) if (!isEmpty(row[i])) return i;
  return -1;
}

const INT16 = (v: number) => Number.isInteger(v) && v >= -32768 && v <= 32767;

function axisLetters(text: string): string | undefined {
  const a = text.trim().toUpperCase();
  return /^[XYZ]{1,3}$/.test(a) && new Set(a).size === a.length ? a : undefined;
}

/** The per-axis linear calibration g = (raw - offset) * scale that fits the source's calibrated values best. */
function fitAxis(raw: number[], g: number[]): { scale: number; offset: number; residual: number } {
  const n = raw.length;
  let mr = 0;
  let mg = 0;
  for (let i = 0; i < n; i++) {
    mr += raw[i]!;
    mg += g[i]!;
  }
  mr /= n;
  mg /= n;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    sxx += (raw[i]! - mr) ** 2;
    sxy += (raw[i]! - mr) * (g[i]! - mg);
  }
  let scale = sxx > 0 ? sxy / sxx : DEFAULT_SCALE;
  // a constant raw value fits any scale: keep the usual one and place the offset to match
  if (!Number.isFinite(scale) || scale === 0) scale = DEFAULT_SCALE;
  const offset = mr - mg / scale;
  const residualOf = (sc: number, off: number) => {
    let r = 0;
    for (let i = 0; i < n; i++) r = Math.max(r, Math.abs((raw[i]! - off) * sc - g[i]!));
    return r;
  };
  const residual = residualOf(scale, offset);
  // Tags calibrate with whole-count offsets and 1/(whole counts per g) scales; the fit lands a rounding
  // error away from them. Keep the round figures when they fit as well.
  const snapped = { scale: 1 / Math.round(1 / scale), offset: Math.round(offset) };
  const snappedResidual = residualOf(snapped.scale, snapped.offset);
  if (Number.isFinite(snapped.scale) && snappedResidual <= residual + 1e-12) return { ...snapped, residual: snappedResidual };
  return { scale, offset, residual };
}

/** Samples per second from the sample times, snapped to a whole number within the timestamps' 1 ms resolution. */
function rateOf(times: number[]): number {
  const span = times[times.length - 1]! - times[0]!;
  if (times.length < 2 || span <= 0) return 0;
  const hz = ((times.length - 1) * 1000) / span;
  return Math.abs(hz - Math.round(hz)) <= hz / span ? Math.round(hz) : Math.round(hz * 100) / 100;
}

/** Columns whose value is the same on every sample stay single values; the others become arrays. */
function mergeExtras(extras: (Record<string, unknown> | null)[]): Record<string, unknown> {
  const keys = new Set<string>();
  for (const e of extras) if (e) for (const k of Object.keys(e)) keys.add(k);
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const values = extras.map((e) => (e && k in e ? e[k] : null));
    out[k] = values.every((v) => v === values[0]) ? values[0] : values;
  }
  return out;
}

class Counter {
  private readonly map = new Map<string, number>();
  add(reason: string, n = 1): void {
    this.map.set(reason, (this.map.get(reason) ?? 0) + n);
  }
  list(): { reason: string; count: number }[] {
    return [...this.map].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
  }
}

/** Reads the header only and throws MovebankFormatError when the file can't be a Movebank export. */
export async function checkMovebankFile(file: string): Promise<void> {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new MovebankFormatError(`${file}: no such file`);
  const input = fs.createReadStream(file);
  const parser = input.pipe(parse({ bom: true, skip_empty_lines: true, relax_column_count: true, to_line: 1 }));
  try {
    for await (const header of parser as AsyncIterable<string[]>) {
      new Layout(header, file);
      return;
    }
  } finally {
    input.destroy();
  }
  throw new MovebankFormatError(`${file}: empty file (no header row)`);
}

/**
 * Imports a Movebank CSV (the study's "download data" export): GPS rows become fixes, e-obs nested and
 * plain long-format acceleration become bursts, each tag on each individual a device in the folder.
 * Reads the file as a stream and writes in chunks of at most CHUNK records, so memory stays flat;
 * records already stored are skipped, so importing a file twice stores it once.
 */
export async function importMovebank(services: MovebankServices, opts: MovebankImportOptions): Promise<MovebankImportReport> {
  const started = performance.now();
  const now = opts.now ?? Date.now();
  const { file } = opts;
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new MovebankFormatError(`${file}: no such file`);
  const size = fs.statSync(file).size;
  const reference: Reference | undefined = opts.referenceFile ? await readReference(opts.referenceFile) : undefined;

  const report: MovebankImportReport = {
    file,
    rows: 0,
    devices: { created: 0, reused: 0 },
    fixes: { stored: 0, withoutPosition: 0, markedInvalid: 0, duplicates: 0 },
    bursts: { stored: 0, samples: 0, duplicates: 0 },
    skipped: [],
    seconds: 0,
  };
  const skipped = new Counter();
  const devices = new Map<string, Resolved>();
  const byIndex: DeviceState[] = [];
  let buffered = 0;
  let bufferedSamples = 0;
  let staging: SampleStaging | undefined;
  let layout: Layout | undefined;

  const progress = (final = false) => {
    if (!opts.onProgress) return;
    const seconds = (performance.now() - started) / 1000;
    const pct = size > 0 ? (100 * parser.info.bytes) / size : 100;
    opts.onProgress(
      `${final ? 'read' : 'reading'} ${report.rows.toLocaleString('en-US')} rows, ${pct.toFixed(1)}% of ${(size / 1e6).toFixed(1)} MB, ` +
        `${Math.round(report.rows / Math.max(seconds, 1e-3)).toLocaleString('en-US')} rows/s`,
    );
  };

  const batch = (fixes: FixRow[], bursts: BurstRow[]): DecodedBatch => {
    let lastTime: number | null = null;
    let lastVoltage: number | null = null;
    for (const f of fixes) {
      if (lastTime === null || f.pick_time >= lastTime) {
        lastTime = f.pick_time;
        if (f.voltage !== null) lastVoltage = f.voltage;
      }
    }
    for (const b of bursts) if (lastTime === null || b.start_time > lastTime) lastTime = b.start_time;
    return { fixes, sensors: [], bursts, lastTime, lastVoltage };
  };

  // Fixes and bursts go in separate writes so that their duplicates are counted apart.
  const flush = async () => {
    for (const d of byIndex) {
      if (d.fixes.length > 0) {
        const c = await services.ingest.writeDecoded(d.id, batch(d.fixes, []), null, now);
        report.fixes.stored += c.fixes;
        report.fixes.duplicates += c.duplicates;
        d.fixes = [];
      }
      if (d.bursts.length > 0) {
        const c = await services.ingest.writeDecoded(d.id, batch([], d.bursts), null, now);
        report.bursts.stored += c.bursts;
        report.bursts.duplicates += c.duplicates;
        d.bursts = [];
      }
    }
    buffered = 0;
    bufferedSamples = 0;
  };
  const pushFix = async (d: DeviceState, f: FixRow) => {
    d.fixes.push(f);
    d.sensors |= SensorFlag.GNSS;
    if (++buffered >= CHUNK) await flush();
  };
  const pushBurst = async (d: DeviceState, b: BurstRow) => {
    d.bursts.push(b);
    d.sensors |= SensorFlag.Acceleration;
    report.bursts.samples += b.sample_count;
    bufferedSamples += b.sample_count * b.axes.length;
    if (++buffered >= CHUNK || bufferedSamples >= MAX_BUFFERED_SAMPLES) await flush();
  };

  const resolveDevice = async (tag: string, individual: string, study: string, taxon: string, sensor: SensorFlagName): Promise<Resolved> => {
    const key = `${tag}\u0000${individual}`;
    const known = devices.get(key);
    if (known) return known;
    const refRows = reference?.find(tag, individual);
    const attributes: Record<string, unknown> = {
      source: 'movebank',
      'study-name': study,
      'individual-taxon-canonical-name': taxon,
      'tag-local-identifier': tag,
      'individual-local-identifier': individual,
    };
    if (refRows?.[0]) {
      attributes.reference = refRows[0];
      if (refRows.length > 1) attributes.otherDeployments = refRows.slice(1);
    }
    const sameTag = (attrs: string) => {
      const a = JSON.parse(attrs) as Record<string, unknown>;
      return a['tag-local-identifier'] === tag && a['individual-local-identifier'] === individual;
    };
    let imei = movebankImei(tag, individual);
    let existing = await services.tags.findByImei(imei);
    if (existing && !sameTag(existing.attributes)) {
      imei = movebankImei(tag, individual, true);
      existing = await services.tags.findByImei(imei);
    }
    let resolved: Resolved;
    if (existing && existing.org_id !== opts.orgId) {
      resolved = { refused: `device ${imei} belongs to another organisation` };
    } else {
      let id: number;
      if (existing) {
        id = existing.id;
        const before = JSON.parse(existing.attributes) as Record<string, unknown>;
        const merged = { ...before, ...attributes };
        if (JSON.stringify(merged) !== existing.attributes) await services.tags.setAttributes(id, JSON.stringify(merged));
        report.devices.reused += 1;
      } else {
        try {
          id = (
            await services.devices.register({
              orgId: opts.orgId,
              imei,
              type: DeviceType.Tracker,
              model: modelOf(refRows),
              caption: individual || tag,
              sensors: [sensor],
              speciesType: speciesTypeOf(taxon || refRows?.[0]?.taxon_canonical_name),
              folderId: opts.folderId,
              attributes,
            })
          ).id;
        } catch (err) {
          if (!(err instanceof DeviceInputError)) throw err;
          const state = { refused: `device ${imei} not created: ${err.message}` };
          devices.set(key, state);
          return state;
        }
        report.devices.created += 1;
      }
      const info = refRows && mountInfoOf(refRows, taxon || undefined);
      if (info) {
        const doc = mountDoc({
          species: info.Species ?? '', scientificName: info.ScientificName ?? '', sex: info.Sex, age: info.Age, weight: info.Weight,
          mountTime: info.MountTime, additional: info.AdditionalInfo,
        });
        await services.tags.setMountInfo(id, JSON.stringify(doc), now);
      }
      const state: DeviceState = { id, index: byIndex.length, study, taxon, sensors: 0, fixes: [], bursts: [] };
      byIndex.push(state);
      resolved = state;
    }
    devices.set(key, resolved);
    return resolved;
  };

  /** The row's source marks (visible=false, *-outlier=true), or null. */
  const marksOf = (L: Layout, row: string[], extra: Record<string, unknown>): string[] | null => {
    const reasons: string[] = [];
    const visible = cell(row, L.visible);
    if (!isEmpty(visible)) {
      const v = toBoolean(visible);
      if (v === false) reasons.push('visible=false');
      else if (v === undefined) extra[L.names[L.visible]!] = visible;
    }
    for (const i of L.outliers) {
      const text = row[i];
      if (isEmpty(text)) continue;
      const v = toBoolean(text);
      if (v === true) reasons.push(`${L.names[i]}=true`);
      else if (v === undefined) extra[L.names[i]!] = text;
    }
    return reasons.length > 0 ? reasons : null;
  };

  const extraOf = (L: Layout, row: string[], cols: number[], d: DeviceState): Record<string, unknown> => {
    const extra: Record<string, unknown> = {};
    for (const i of cols) {
      const v = row[i];
      if (!isEmpty(v)) extra[L.names[i]!] = v;
    }
    // constant per device, kept in its attributes; a row that says otherwise keeps its own value
    if (L.study >= 0 && !isEmpty(row[L.study]) && row[L.study] !== d.study) extra[L.names[L.study]!] = row[L.study];
    if (L.taxon >= 0 && !isEmpty(row[L.taxon]) && row[L.taxon] !== d.taxon) extra[L.names[L.taxon]!] = row[L.taxon];
    return extra;
  };

  /** A mapped number; a value that isn't one stays in extra as written. */
  const numberAt = (L: Layout, row: string[], i: number, extra: Record<string, unknown>): number | null => {
    const text = cell(row, i);
    if (isEmpty(text)) return null;
    const n = toNumber(text);
    if (n === undefined) extra[L.names[i]!] = text;
    return n ?? null;
  };
  const firstNumber = (L: Layout, row: string[], cols: number[], extra: Record<string, unknown>): number | null => {
    const used = firstPresent(row, cols);
    for (const i of cols) if (i !== used && !isEmpty(row[i])) extra[L.names[i]!] = row[i];
    return used < 0 ? null : numberAt(L, row, used, extra);
  };

  const fixRow = async (L: Layout, row: string[], d: DeviceState, t: number) => {
    const lonText = cell(row, L.lon);
    const latText = cell(row, L.lat);
    let lon: number | null = null;
    let lat: number | null = null;
    if (!isEmpty(lonText) || !isEmpty(latText)) {
      lon = isEmpty(lonText) ? null : (toNumber(lonText) ?? null);
      lat = isEmpty(latText) ? null : (toNumber(latText) ?? null);
      if (lon === null || lat === null) {
        skipped.add('unparseable location');
        return;
      }
    }
    const extra = extraOf(L, row, L.fixExtra, d);
    const alt = firstNumber(L, row, L.alt, extra);
    const speed = numberAt(L, row, L.speed, extra);
    const course = numberAt(L, row, L.course, extra);
    const temperature = firstNumber(L, row, L.temperature, extra);
    const voltage = firstNumber(L, row, L.voltage, extra);
    const satellites = numberAt(L, row, L.satellites, extra);
    const hdop = firstNumber(L, row, L.hdop, extra);
    const vdop = numberAt(L, row, L.vdop, extra);
    const marks = marksOf(L, row, extra);
    if (marks) {
      extra.invalid = marks;
      report.fixes.markedInvalid += 1;
    }
    if (lon === null) report.fixes.withoutPosition += 1;
    await pushFix(d, {
      pick_time: t,
      lon,
      lat,
      alt,
      // Movebank speeds are m/s; fixes hold km/h. Battery voltages are mV; fixes hold V.
      speed: speed === null ? null : speed * 3.6,
      course,
      temperature,
      activity: null,
      voltage: voltage === null ? null : voltage / 1000,
      channel: null,
      satellites,
      hdop,
      vdop,
      grade: null,
      valid: lon !== null && lat !== null && isValidPosition(lon, lat, alt) ? 1 : 0,
      tx_time: null,
      invalid_at: marks ? now : null,
      extra: Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
    });
  };

  const eobsBurst = async (L: Layout, row: string[], d: DeviceState, rawText: string) => {
    const startText = cell(row, L.eobsStart);
    const t = parseTimestamp(isEmpty(startText) ? row[L.time]! : startText);
    if (t === undefined) return skipped.add('unparseable timestamp');
    const axes = axisLetters(cell(row, L.eobsAxes) ?? '');
    if (!axes) return skipped.add('acceleration burst without eobs:acceleration-axes');
    const hz = toNumber(cell(row, L.eobsHz) ?? '');
    if (hz === undefined || hz <= 0) return skipped.add('acceleration burst without a sampling frequency');
    const values = rawText.trim().split(/\s+/).filter(Boolean).map(Number);
    if (values.length === 0) return skipped.add('acceleration row without samples');
    if (!values.every(INT16)) return skipped.add('acceleration values are not 16-bit integers');
    if (values.length % axes.length !== 0) return skipped.add("acceleration values don't divide into the burst's axes");
    const extra = extraOf(L, row, L.accExtra, d);
    const marks = marksOf(L, row, extra);
    if (marks) extra.invalid = marks;
    const json = Object.keys(extra).length > 0 ? JSON.stringify(extra) : null;
    await pushBurst(d, burstRow({ t, hz, axes, raw: Int16Array.from(values), extra: json }, `row ${report.rows}`));
  };

  const stageSample = (L: Layout, row: string[], d: DeviceState, t: number) => {
    const startText = cell(row, L.start);
    if (isEmpty(startText)) return skipped.add('acceleration sample without start-timestamp');
    const start = parseTimestamp(startText);
    if (start === undefined) return skipped.add('unparseable start-timestamp');
    let axes = '';
    const v: (number | null)[] = [null, null, null];
    for (let a = 0; a < 3; a++) {
      const text = cell(row, L.raw[a]!);
      if (isEmpty(text)) continue;
      const n = toNumber(text);
      if (n === undefined || !INT16(n)) return skipped.add('acceleration values are not 16-bit integers');
      v[a] = n;
      axes += 'XYZ'[a];
    }
    const c = L.calibrated.map((i) => {
      const text = cell(row, i);
      return isEmpty(text) ? null : (toNumber(text) ?? null);
    });
    const extra = extraOf(L, row, L.accExtra, d);
    const marks = marksOf(L, row, extra);
    staging ??= new SampleStaging();
    const event = cell(row, L.event);
    staging.add({
      device: d.index,
      start,
      t,
      seq: report.rows,
      event: isEmpty(event) ? null : event,
      axes,
      x: v[0]!,
      y: v[1]!,
      z: v[2]!,
      cx: c[0]!,
      cy: c[1]!,
      cz: c[2]!,
      extra: Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
      mark: marks ? marks.join(',') : null,
    });
  };

  const burstFromSamples = async (group: StagedSample[], calibratedFrom: string | null) => {
    const d = byIndex[group[0]!.device]!;
    const start = group[0]!.start;
    const seen = new Set<string>();
    const axes = group[0]!.axes;
    const samples: StagedSample[] = [];
    for (const s of group) {
      if (s.event !== null) {
        if (seen.has(s.event)) {
          skipped.add('duplicate acceleration sample (same event-id)');
          continue;
        }
        seen.add(s.event);
      }
      if (s.axes !== axes) {
        skipped.add('acceleration sample with other axes than the rest of its burst');
        continue;
      }
      samples.push(s);
    }
    const n = samples.length;
    const k = axes.length;
    const raw = new Int16Array(n * k);
    const letters = [...axes].map((a) => 'XYZ'.indexOf(a));
    const rawOf = (s: StagedSample, a: number) => [s.x, s.y, s.z][a]!;
    const calOf = (s: StagedSample, a: number) => [s.cx, s.cy, s.cz][a]!;
    samples.forEach((s, i) => letters.forEach((a, j) => (raw[i * k + j] = rawOf(s, a))));
    const times = samples.map((s) => s.t);
    const hz = rateOf(times);
    const extra = mergeExtras(samples.map((s) => (s.extra ? (JSON.parse(s.extra) as Record<string, unknown>) : null)));
    // keep the sample times when the rate alone doesn't give them back (to the timestamps' 1 ms)
    if (hz === 0 || times.some((t, i) => Math.abs(t - (start + (i * 1000) / hz)) > 1)) extra.sampleTimes = times.map((t) => t - start);
    const marks = [...new Set(samples.flatMap((s) => (s.mark ? s.mark.split(',') : [])))];
    if (marks.length > 0) extra.invalid = marks;
    let scale: number[] | undefined;
    let offset: number[] | undefined;
    if (calibratedFrom) {
      const fits = letters.map((a) => {
        const pairs = samples.filter((s) => calOf(s, a) !== null);
        return pairs.length > 0 ? { a, ...fitAxis(pairs.map((s) => rawOf(s, a)!), pairs.map((s) => calOf(s, a)!)) } : undefined;
      });
      if (fits.every((f) => f !== undefined)) {
        scale = fits.map((f) => f.scale);
        offset = fits.map((f) => f.offset);
        extra.calibratedFrom = calibratedFrom;
        // a calibration that isn't linear can't be kept as scale and offset: keep the values themselves
        if (fits.some((f) => f.residual > 1e-6)) {
          extra.calibrated = Object.fromEntries(fits.map((f) => ['xyz'[f.a]!, samples.map((s) => calOf(s, f.a))]));
        }
      }
    }
    try {
      await pushBurst(d, burstRow({ t: start, hz, axes, raw, scale, offset, extra: JSON.stringify(extra) }, `burst at ${new Date(start).toISOString()}`));
    } catch (err) {
      if (!(err instanceof BatchRefused)) throw err;
      skipped.add(`acceleration burst refused: ${err.error}`, n);
    }
  };

  // relax_quotes keeps a stray quote inside an unquoted value as text; a record csv-parse still can't
  // read is skipped and counted. A quote that is never closed swallows the rest of the file: counted
  // as the lines it swallowed.
  let lastRecordLine = 0;
  const parser = parse({
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_records_with_error: true,
    on_record: (record: string[], context) => {
      lastRecordLine = context.lines;
      return record;
    },
  });
  parser.on('skip', (err: CsvError) => {
    if (err.code === 'CSV_QUOTE_NOT_CLOSED') {
      const lost = Math.max(1, Number(err.lines) - lastRecordLine);
      report.rows += lost;
      skipped.add(`malformed CSV: a quote opened on line ${lastRecordLine + 1} is never closed, so the lines after it could not be read`, lost);
    } else {
      report.rows += 1;
      skipped.add(`malformed CSV record (${err.code})`);
    }
  });
  const input = fs.createReadStream(file);
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);

  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!layout) {
        layout = new Layout(record, file);
        continue;
      }
      const L = layout;
      report.rows += 1;
      if (report.rows % PROGRESS_EVERY === 0) progress();
      if (record.length !== L.names.length) {
        skipped.add(`wrong number of fields (not ${L.names.length})`);
        continue;
      }
      const tag = (cell(record, L.tag) ?? '').trim();
      const individual = (cell(record, L.individual) ?? '').trim();
      if (isEmpty(tag) && isEmpty(individual)) {
        skipped.add('no tag or individual identifier');
        continue;
      }
      const timeText = record[L.time]!;
      const t = parseTimestamp(timeText);
      if (t === undefined) {
        skipped.add(isEmpty(timeText) ? 'no timestamp' : 'unparseable timestamp');
        continue;
      }
      const sensorType = (cell(record, L.sensorType) ?? '').trim().toLowerCase();
      const eobsRaw = cell(record, L.eobsRaw);
      const plain = L.raw.some((i) => !isEmpty(cell(record, i)));
      const isAcc = sensorType === 'acceleration' || (sensorType === '' && (!isEmpty(eobsRaw) || plain));
      if (!isAcc && sensorType !== 'gps' && sensorType !== '') {
        skipped.add(`sensor type "${sensorType}" not imported`);
        continue;
      }
      if (isAcc && isEmpty(eobsRaw) && !plain) {
        skipped.add('acceleration row without samples');
        continue;
      }
      const study = isEmpty(cell(record, L.study)) ? '' : record[L.study]!;
      const taxon = isEmpty(cell(record, L.taxon)) ? '' : record[L.taxon]!;
      const d = await resolveDevice(isEmpty(tag) ? '' : tag, isEmpty(individual) ? '' : individual, study, taxon, isAcc ? 'Acceleration' : 'GNSS');
      if ('refused' in d) {
        skipped.add(d.refused);
        continue;
      }
      if (!isAcc) await fixRow(L, record, d, t);
      else if (!isEmpty(eobsRaw)) await eobsBurst(L, record, d, eobsRaw);
      else stageSample(L, record, d, t);
    }
    if (!layout) throw new MovebankFormatError(`${file}: empty file (no header row)`);
    await flush();
    if (staging) {
      for (const group of staging.bursts()) await burstFromSamples(group, layout.calibratedFrom);
      await flush();
    }
    for (const d of byIndex) if (d.sensors !== 0) await services.tags.addSensors(d.id, d.sensors);
  } finally {
    staging?.close();
    input.destroy();
  }
  progress(true);
  report.skipped = skipped.list();
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

