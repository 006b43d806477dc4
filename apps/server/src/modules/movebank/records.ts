import { isValidPosition } from '@wildtrack/contract';
import { BatchRefused, burstRow } from '../../ingest/decode.js';
import { axisLetters, fitAxis, INT16, mergeExtras, rateOf, STANDARD_GRAVITY } from './acceleration.js';
import type { Layout } from './columns.js';
import type { RowExample, SourceRow, Skips } from './reader.js';
import type { ResolvedDevice } from './resolver.js';
import { SampleStaging, type StagedSample } from './staging.js';
import { isEmpty, parseTimestamp, TIMESTAMP_FORMAT, toBoolean, toNumber } from './values.js';
import type { ChunkWriter } from './writer.js';

const cell = (row: string[], i: number): string | undefined => (i >= 0 ? row[i] : undefined);

/** Where the user finds the row: its line and event-id, and the value at fault. */
function exampleOf(row: SourceRow, value?: string): RowExample {
  return { line: row.line, ...(row.eventId ? { eventId: row.eventId } : {}), ...(value === undefined ? {} : { value }) };
}

function firstPresent(row: string[], cols: number[]): number {
  for (const i of cols) if (!isEmpty(row[i])) return i;
  return -1;
}

/**
 * Turns the reader's rows into the device's records, by the file's Layout: a GPS row into a fix, an
 * e-obs row into a burst, a long-format sample into a staged sample that joins its burst once the file
 * is read. Values it cannot map stay in the record's `extra` under their column's name as written; the
 * source's marks (visible=false, *-outlier=true) make a fix invalid (the writer applies them, on new
 * fixes and on fixes stored before) and stay in a burst's `extra`.
 */
export class RecordMapper {
  readonly counts = { withoutPosition: 0, markedInvalid: 0, outOfRange: 0 };
  /** Whether the file carries the source's marks at all (else a re-import leaves marks as they are). */
  private readonly hasMarks: boolean;
  private staging: SampleStaging | undefined;

  constructor(
    private readonly L: Layout,
    private readonly writer: ChunkWriter,
    private readonly skipped: Skips,
    private readonly notices: Skips,
    /** Whether the import created the device: its fixes have no marks from before to lift. */
    private readonly isNew: (deviceId: number) => boolean = () => false,
  ) {
    this.hasMarks = L.visible >= 0 || L.outliers.length > 0 || L.manuallyValid >= 0;
  }

  /** Maps one row of a resolved device. */
  async row(row: SourceRow, d: ResolvedDevice): Promise<void> {
    if (row.kind === 'gps') await this.fix(row, d);
    else if (row.eobsRaw !== undefined) await this.eobsBurst(row, d, row.eobsRaw);
    else this.stageSample(row, d);
  }

  /** The long format's bursts, complete once the file is read; `devices` by index in the resolver's order. */
  async stagedBursts(devices: readonly ResolvedDevice[]): Promise<void> {
    if (!this.staging) return;
    for (const group of this.staging.bursts()) await this.burstFromSamples(group, devices[group[0]!.device]!);
  }

  close(): void {
    this.staging?.close();
  }

  /**
   * The row's source marks, or null when the row is visible by Movebank's rule (move2's mt_movebank_visible):
   * its `visible` when that says true or false; else visible unless an `*-outlier` column says true, and
   * visible whatever they say when manually-marked-valid is true (a fix re-validated in Movebank). The marks
   * of a fix not visible are the outlier columns that say true, or `visible=false` when none does. An outlier
   * column saying true of a visible row (visible=true, or manually-marked-valid) stays in `extra` as written.
   */
  private marksOf(row: string[], extra: Record<string, unknown>): string[] | null {
    const { L } = this;
    const outliers: number[] = [];
    const visibleText = cell(row, L.visible);
    let visible: boolean | undefined;
    if (!isEmpty(visibleText)) {
      visible = toBoolean(visibleText);
      if (visible === undefined) extra[L.header[L.visible]!] = visibleText;
    }
    for (const i of L.outliers) {
      const text = row[i];
      if (isEmpty(text)) continue;
      const v = toBoolean(text);
      if (v === true) outliers.push(i);
      else if (v === undefined) extra[L.header[i]!] = text;
    }
    const validText = cell(row, L.manuallyValid);
    visible ??= outliers.length === 0 || (!isEmpty(validText) && toBoolean(validText) === true);
    if (visible) {
      for (const i of outliers) extra[L.header[i]!] = row[i];
      return null;
    }
    return outliers.length > 0 ? outliers.map((i) => `${L.names[i]}=true`) : ['visible=false'];
  }

  private extraOf(row: string[], cols: number[], d: ResolvedDevice): Record<string, unknown> {
    const { L } = this;
    const extra: Record<string, unknown> = {};
    for (const i of cols) {
      const v = row[i];
      if (!isEmpty(v)) extra[L.header[i]!] = v;
    }
    // constant per device, kept in its attributes; a row that says otherwise keeps its own value
    if (L.study >= 0 && !isEmpty(row[L.study]) && row[L.study] !== d.study) extra[L.header[L.study]!] = row[L.study];
    if (L.taxon >= 0 && !isEmpty(row[L.taxon]) && row[L.taxon] !== d.taxon) extra[L.header[L.taxon]!] = row[L.taxon];
    return extra;
  }

  /** A mapped number; a value that isn't one stays in extra as written. */
  private numberAt(row: string[], i: number, extra: Record<string, unknown>): number | null {
    const text = cell(row, i);
    if (isEmpty(text)) return null;
    const n = toNumber(text);
    if (n === undefined) extra[this.L.header[i]!] = text;
    return n ?? null;
  }

  private firstNumber(row: string[], cols: number[], extra: Record<string, unknown>): number | null {
    const used = firstPresent(row, cols);
    for (const i of cols) if (i !== used && !isEmpty(row[i])) extra[this.L.header[i]!] = row[i];
    return used < 0 ? null : this.numberAt(row, used, extra);
  }

  private async fix(source: SourceRow, d: ResolvedDevice): Promise<void> {
    const { record: row, t } = source;
    const { L } = this;
    const lonText = cell(row, L.lon);
    const latText = cell(row, L.lat);
    let lon: number | null = null;
    let lat: number | null = null;
    if (!isEmpty(lonText) || !isEmpty(latText)) {
      lon = isEmpty(lonText) ? null : (toNumber(lonText) ?? null);
      lat = isEmpty(latText) ? null : (toNumber(latText) ?? null);
      if (lon === null || lat === null) {
        this.skipped.add('unparseable location', exampleOf(source, `${lonText ?? ''} ${latText ?? ''}`.trim()));
        return;
      }
    }
    const extra = this.extraOf(row, L.fixExtra, d);
    const alt = this.firstNumber(row, L.alt, extra);
    const speed = this.numberAt(row, L.speed, extra);
    const course = this.numberAt(row, L.course, extra);
    const temperature = this.firstNumber(row, L.temperature, extra);
    const voltage = this.firstNumber(row, L.voltage, extra);
    const satellites = this.numberAt(row, L.satellites, extra);
    const hdop = this.firstNumber(row, L.hdop, extra);
    const vdop = this.numberAt(row, L.vdop, extra);
    const positioned = lon !== null && lat !== null;
    const valid = positioned && isValidPosition(lon!, lat!, alt) ? 1 : 0;
    let marks = this.marksOf(row, extra);
    // visible=false alone on a fix stored invalid anyway (no position, or one out of range) says no more
    // than that (the export writes every invalid fix so): no mark of the source's
    if (!valid && marks?.length === 1 && marks[0] === 'visible=false') marks = null;
    if (marks) this.counts.markedInvalid += 1;
    if (lon === null) this.counts.withoutPosition += 1;
    if (positioned && !valid) {
      this.counts.outOfRange += 1;
      this.notices.add('position out of range (longitude -180..180, latitude -90..90, altitude within 10 km): stored as invalid', exampleOf(source, `${lon} ${lat}${alt === null ? '' : ` ${alt}`}`));
    }
    const mark = this.hasMarks && (marks || !this.isNew(d.id)) ? { reason: marks ? marks.join(', ') : null, valid: valid as 0 | 1 } : null;
    await this.writer.fix(d.id, {
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
      // stored invalid at once; the writer then records the source's mark (valid stays 0 when a user marked it)
      valid: marks ? 0 : valid,
      tx_time: null,
      invalid_at: null,
      extra: Object.keys(extra).length > 0 ? JSON.stringify(extra) : null,
    }, mark);
  }

  private async eobsBurst(source: SourceRow, d: ResolvedDevice, rawText: string): Promise<void> {
    const { record: row, n } = source;
    const { L } = this;
    const skipped = { add: (reason: string, value?: string) => this.skipped.add(reason, exampleOf(source, value)) };
    const startText = cell(row, L.eobsStart);
    const t = parseTimestamp(isEmpty(startText) ? row[L.time]! : startText);
    if (t === undefined) return skipped.add(`unparseable timestamp: expected ${TIMESTAMP_FORMAT}`, isEmpty(startText) ? row[L.time] : startText);
    const axes = axisLetters(cell(row, L.eobsAxes) ?? '');
    if (!axes) return skipped.add('acceleration burst without eobs:acceleration-axes');
    const hz = toNumber(cell(row, L.eobsHz) ?? '');
    if (hz === undefined || hz <= 0) return skipped.add('acceleration burst without a sampling frequency');
    const values = rawText.trim().split(/\s+/).filter(Boolean).map(Number);
    if (values.length === 0) return skipped.add('acceleration row without samples');
    if (!values.every(INT16)) return skipped.add('acceleration values are not 16-bit integers');
    if (values.length % axes.length !== 0) return skipped.add("acceleration values don't divide into the burst's axes");
    const extra = this.extraOf(row, L.accExtra, d);
    const marks = this.marksOf(row, extra);
    if (marks) extra.invalid = marks;
    const json = Object.keys(extra).length > 0 ? JSON.stringify(extra) : null;
    await this.writer.burst(d.id, burstRow({ t, hz, axes, raw: Int16Array.from(values), extra: json }, `row ${n}`));
  }

  private stageSample(source: SourceRow, d: ResolvedDevice): void {
    const { record: row, t, n } = source;
    const { L } = this;
    const skipped = { add: (reason: string, value?: string) => this.skipped.add(reason, exampleOf(source, value)) };
    const startText = cell(row, L.start);
    if (isEmpty(startText)) return skipped.add('acceleration sample without start-timestamp');
    const start = parseTimestamp(startText);
    if (start === undefined) return skipped.add(`unparseable start-timestamp: expected ${TIMESTAMP_FORMAT}`, startText);
    let axes = '';
    const v: (number | null)[] = [null, null, null];
    for (let a = 0; a < 3; a++) {
      const text = cell(row, L.raw[a]!);
      if (isEmpty(text)) continue;
      const num = toNumber(text);
      if (num === undefined || !INT16(num)) return skipped.add('acceleration values are not 16-bit integers', text);
      v[a] = num;
      axes += 'XYZ'[a];
    }
    // acceleration-x/y/z are m/s²: the burst's calibrated values are g
    const unit = L.calibratedFrom === 'acceleration' ? STANDARD_GRAVITY : 1;
    const c = L.calibrated.map((i) => {
      const text = cell(row, i);
      const v = isEmpty(text) ? undefined : toNumber(text);
      return v === undefined ? null : v / unit;
    });
    const extra = this.extraOf(row, L.accExtra, d);
    const marks = this.marksOf(row, extra);
    this.staging ??= new SampleStaging();
    const event = cell(row, L.event);
    this.staging.add({
      device: d.index,
      start,
      t,
      seq: n,
      line: source.line,
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
  }

  private async burstFromSamples(group: StagedSample[], d: ResolvedDevice): Promise<void> {
    const { skipped } = this;
    const calibratedFrom = this.L.calibratedFrom;
    const start = group[0]!.start;
    const seen = new Set<string>();
    const axes = group[0]!.axes;
    const samples: StagedSample[] = [];
    for (const s of group) {
      if (s.event !== null) {
        if (seen.has(s.event)) {
          skipped.add('duplicate acceleration sample (same event-id)', { line: s.line, eventId: s.event });
          continue;
        }
        seen.add(s.event);
      }
      if (s.axes !== axes) {
        skipped.add('acceleration sample with other axes than the rest of its burst', { line: s.line, ...(s.event === null ? {} : { eventId: s.event }), value: s.axes });
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
      await this.writer.burst(d.id, burstRow({ t: start, hz, axes, raw, scale, offset, extra: JSON.stringify(extra) }, `burst at ${new Date(start).toISOString()}`));
    } catch (err) {
      if (!(err instanceof BatchRefused)) throw err;
      skipped.add(`acceleration burst refused: ${err.error}`, { line: group[0]!.line, value: new Date(start).toISOString() }, n);
    }
  }
}
