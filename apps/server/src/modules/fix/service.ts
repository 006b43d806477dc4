import {
  type calls,
  Code,
  encodeTrack,
  type Fix,
  type FixAnnotations,
  FixValidValue,
  formatTime,
  message,
  normalisePrecision,
  NO_SPEED,
  type PositionFilter,
  BOUNDED_FILTERS,
  PRECISION_GRADES,
  PRECISION_GRADE_VALUES,
  type SecondLevelMode,
  TrackFlag,
  type TrackColumns,
  trackSetFromParts,
} from '@wildtrack/contract';
import { INVALID_BY_SOURCE } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { z } from 'zod';
import type { Caller } from '../../http/caller.js';
import { checkedRange, optionalRange } from '../../http/range.js';
import { ALL_TIME, clampAsked, clampToWindow, requireRight, windowOf } from '../device/access.js';
import type { DeviceGate, BriefDevice } from '../device/gate.js';
import { captionFor } from '../device/samples.js';
import {
  averageRun, averageTrack, type Group, groupSet, type GroupSet, groupsFromSummaries, groupsOf, joinSets, pageOf, type SpanGroup, summarise, type TableRow,
} from './averaging.js';
import {
  type ConvertedRow, DAY_MS, filtersValues, type FixQuery, type FixRepository, type FixRow, SORT_COLUMNS, type SortColumn, type StoredTrack, type StoredTrackRequest, type TrackPoints, type TrackRow,
} from './repository.js';
import { now } from '../../lib/clock.js';

export interface RangeInput {
  startTime?: string | undefined;
  endTime?: string | undefined;
}

interface Device {
  id: number;
  imei: string;
  name: string;
  secondLevel: boolean;
  resolved: BriefDevice;
  /** The part of time the caller may see: all of it, or a share's window. */
  from: number;
  to: number;
}

/**
 * A fix's annotations from its `extra`: the source's columns with a text or number value, in the order
 * kept. What the import adds of its own (a list of the source's marks) is not a column and stays out;
 * unreadable JSON is no annotation rather than a failed detail.
 */
export function annotationsOf(extra: string | null): FixAnnotations | undefined {
  if (!extra) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(extra);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const out: FixAnnotations = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string' || typeof value === 'number' || value === null) out[name] = value;
    else if (typeof value === 'boolean') out[name] = String(value);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The numeric filters in use as lower/upper bounds (the contract's `x` and `xMax`). */
function boundsOf(filter: PositionFilter): FixQuery['bounds'] {
  const out: NonNullable<FixQuery['bounds']> = {};
  for (const name of BOUNDED_FILTERS) {
    const gt = filter[name];
    const le = filter[`${name}Max`];
    if (gt !== undefined || le !== undefined) out[name] = { gt, le };
  }
  return out;
}

/** No position filter: the whole stored track of the range (what the segments hold). */
function unfiltered(q: FixQuery): boolean {
  return !filtersValues(q) && !q.validOnly;
}

/**
 * The parts an unfiltered track of [from, to] is served from: the whole UTC days inside it as stored
 * segments, the partial days at either end as rows (a range inside one day is all head).
 */
function storedTrackRequest(q: FixQuery): StoredTrackRequest {
  const dayFrom = Math.ceil(q.from / DAY_MS);
  const dayTo = Math.floor((q.to + 1) / DAY_MS) - 1;
  if (dayFrom > dayTo) return { deviceId: q.deviceId, dayFrom: 1, dayTo: 0, head: [q.from, q.to], tail: [1, 0] };
  return {
    deviceId: q.deviceId,
    dayFrom,
    dayTo,
    head: q.from < dayFrom * DAY_MS ? [q.from, dayFrom * DAY_MS - 1] : [1, 0],
    tail: q.to >= (dayTo + 1) * DAY_MS ? [(dayTo + 1) * DAY_MS, q.to] : [1, 0],
  };
}

function toColumns(imei: string, rows: readonly TrackRow[], averaged?: Uint8Array): TrackColumns {
  const n = rows.length;
  const times = new Float64Array(n);
  const lonLat = new Float64Array(2 * n);
  const alt: (number | null)[] = new Array<number | null>(n);
  const grade = new Uint8Array(n);
  const flags = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    times[i] = r[0];
    lonLat[2 * i] = r[1];
    lonLat[2 * i + 1] = r[2];
    alt[i] = r[3];
    grade[i] = r[4] ?? 0;
    flags[i] = (r[5] === 1 ? TrackFlag.Valid : 0) | (averaged?.[i] ? TrackFlag.Averaged : 0);
  }
  return { imei, count: n, times, lonLat, alt, grade, flags };
}

/**
 * Fixes as the console reads them (§3 Fix, §4, §9): access per device (a share's window bounds what
 * its recipient sees), the caller's time zone both ways, the position filters, second-level averaging,
 * and the irreversible invalid marking.
 */
export class FixService {
  constructor(
    private readonly devices: DeviceGate,
    private readonly fixes: FixRepository,
  ) {}

  private async device(caller: Caller, imei: string, known?: BriefDevice): Promise<Device> {
    const resolved = known ?? (await this.devices.resolveBrief(caller, imei));
    const { access } = resolved;
    return {
      id: Number(resolved.id),
      imei: resolved.imei,
      // A sample device is named in Chinese for a Chinese caller, as the tree and details name it.
      name: resolved.remark_name || captionFor(resolved.imei, resolved.caption, resolved.is_samples === 1, caller.lang),
      secondLevel: resolved.second_level_fix === 1,
      resolved,
      ...windowOf(access),
    };
  }

  /** Start and end of a required range, checked: the one reading of every call's range (http/range.ts). */
  range(caller: Caller, input: RangeInput): { from: number; to: number } {
    return checkedRange(caller, { startTime: input.startTime ?? '', endTime: input.endTime ?? '' });
  }

  /**
   * The fix query of a range: cut to what the caller may read; a range of one device's (`zone`: the caller's)
   * that misses all of a share's data period is refused, saying what the share covers (clampAsked); several
   * devices' (`zone` null) answer nothing of that device.
   */
  private query(device: Device, range: { from: number; to: number }, filter: PositionFilter, zone: string | null): FixQuery {
    const letters = normalisePrecision(filter.precision);
    const grades = letters.length === PRECISION_GRADES.length ? undefined : [...letters].flatMap((l) => PRECISION_GRADE_VALUES[l] ?? []);
    return {
      deviceId: device.id,
      ...(zone === null ? clampToWindow(range, device.resolved.access) : clampAsked(range, device.resolved.access, zone)),
      bounds: boundsOf(filter),
      grades,
      validOnly: filter.validOnly,
    };
  }

  /** The rows with who marked them (the marked ones). */
  private async named<T extends FixRow>(rows: T[]): Promise<(T & { operator: string | null })[]> {
    const ids = [...new Set(rows.flatMap((r) => (r.invalid_by === null ? [] : [Number(r.invalid_by)])))];
    const names = await this.fixes.operatorNames(ids);
    return rows.map((r) => ({ ...r, operator: r.invalid_by === null ? null : (names.get(Number(r.invalid_by)) ?? null) }));
  }

  private toFix(caller: Caller, device: Device, row: TableRow | ConvertedRow): Fix {
    const signed = (v: number | null) => (v === null ? null : Math.abs(v));
    const fix: Fix = {
      Id: String(row.pick_time),
      Caption: device.name,
      IMEI: device.imei,
      PickTime: formatTime(row.pick_time, caller.zone),
      Longitude: signed(row.lon),
      LongitudeTag: row.lon === null ? '' : row.lon < 0 ? 'W' : 'E',
      Latitude: signed(row.lat),
      LatitudeTag: row.lat === null ? '' : row.lat < 0 ? 'S' : 'N',
      Speed: row.speed === null || row.speed === NO_SPEED ? null : row.speed,
      Course: row.course,
      Altitude: row.alt,
      Temperature: row.temperature,
      Exercise: row.activity,
      Voltage: row.voltage,
      Channel: row.channel,
      Satellites: row.satellites,
      HDOP: row.hdop,
      VDOP: row.vdop,
      PrecisionGrade: row.grade,
      Validity: row.valid === 1 ? 1 : 0,
      TransmissionTime: formatTime(row.tx_time, caller.zone),
      ValidValue: row.valid === 1 ? FixValidValue.Valid : row.invalid_by !== null ? FixValidValue.Marked : FixValidValue.OutOfRange,
    };
    if ('groupIds' in row && row.groupIds) {
      fix.GroupSize = row.groupIds.length;
      fix.GroupIds = row.groupIds.map(String);
    }
    if (row.invalid_by !== null) {
      // the data source's mark (Movebank's visible=false, *-outlier=true) is named as such, not as a user
      const reason = 'invalid_reason' in row ? row.invalid_reason : null;
      const operator = row.invalid_by !== INVALID_BY_SOURCE
        ? ('operator' in row ? row.operator : null) ?? ''
        : reason ? message(caller.lang, 'fix.markedBySourceFor', { reason }) : message(caller.lang, 'fix.markedBySource');
      fix.ConvertedInvalid = { Id: String(row.pick_time), OperateTime: formatTime(row.invalid_at, caller.zone), Operator: operator };
    }
    return fix;
  }

  private averaging(device: Device, mode: SecondLevelMode): boolean {
    return device.secondLevel && mode === 'avg';
  }

  async count(caller: Caller, body: z.output<typeof calls.GetFixCount.body>): Promise<number> {
    const device = await this.device(caller, body.imei);
    const q = this.query(device, this.range(caller, body), body, caller.zone);
    if (q.from > q.to) return 0;
    return this.averaging(device, body.secondLevel) ? (await this.averagedGroups(q, 'pick_time')).count : this.fixes.count(q);
  }

  async page(
    caller: Caller,
    body: z.output<typeof calls.GetFixListByPage.body>,
  ): Promise<{ List: Fix[]; Total: number }> {
    const device = await this.device(caller, body.imei);
    const q = this.query(device, this.range(caller, body), body, caller.zone);
    if (q.from > q.to) return { List: [], Total: 0 };
    const column = SORT_COLUMNS[body.sortField ?? 'PickTime'];
    const descending = body.sortOrder !== 'ascend';
    const offset = (body.currentPage - 1) * body.pageSize;
    if (this.averaging(device, body.secondLevel)) {
      // The rows are formed and ordered from the day summaries (or the keys); whole fixes are read for one page.
      const groups = await this.averagedGroups(q, column);
      const page = pageOf(groups, descending, offset, body.pageSize).map((i) => groups.at(i));
      const fixes = new Map((await this.fixes.atTimes(device.id, page.flatMap((g) => g.times))).map((r) => [r.pick_time, r]));
      const spanned = page.filter((g): g is SpanGroup => 'span' in g);
      const spans = new Map<Group, FixRow[]>();
      (await this.fixes.spanRows(device.id, spanned.map((g) => g.span))).forEach((rows, i) => spans.set(spanned[i]!, rows));
      const rows = page.map((g) => spans.get(g) ?? g.times.map((time) => fixes.get(time)).filter((r) => r !== undefined)).filter((run) => run.length > 0);
      const shown = await this.named(rows.map(averageRun));
      return { List: shown.map((r) => this.toFix(caller, device, r)), Total: groups.count };
    }
    const { rows, total } = await this.fixes.pageAndCount(q, column, descending, body.pageSize, offset);
    return { List: (await this.named(rows)).map((r) => this.toFix(caller, device, r)), Total: total };
  }

  /**
   * The averaged table's rows of a range: unfiltered, from the summaries of its days (those missing
   * summarised from the fixes and stored, for days that have fixes) and the keys of the few regions a
   * summary can't answer; filtered, from the keys of the range.
   */
  private async averagedGroups(q: FixQuery, column: SortColumn): Promise<GroupSet> {
    if (!unfiltered(q)) return groupSet(groupsOf(await this.fixes.keys(q, column), column));
    const bounds = await this.fixes.bounds(q.deviceId);
    const from = Math.max(q.from, bounds?.first ?? Number.POSITIVE_INFINITY);
    const to = Math.min(q.to, bounds?.last ?? Number.NEGATIVE_INFINITY);
    if (from > to) return groupSet([]);
    const firstDay = Math.floor(from / DAY_MS);
    const lastDay = Math.floor(to / DAY_MS);
    const days = await this.fixes.groupDays(q.deviceId, firstDay, lastDay);
    const missing: number[] = [];
    for (let day = firstDay; day <= lastDay; day++) if (!days.has(day)) missing.push(day);
    for (const [day, records] of await this.fixes.buildGroupDays(q.deviceId, missing, summarise)) days.set(day, records);
    const { kept, regions } = groupsFromSummaries(days, from, to, column);
    const formed: Group[] = [];
    for (const [a, b] of regions) formed.push(...groupsOf(await this.fixes.keys({ ...q, from: a, to: b }, column), column));
    return joinSets(kept, groupSet(formed));
  }

  async one(caller: Caller, imei: string, id: string): Promise<Fix> {
    const device = await this.device(caller, imei);
    const time = Number(id);
    const row = time >= device.from && time <= device.to ? await this.fixes.one(device.id, time) : undefined;
    if (!row) throw new AppError(Code.NotFound, 'fix.notFound');
    const fix = this.toFix(caller, device, (await this.named([row]))[0]!);
    const annotations = annotationsOf(row.extra);
    if (annotations) fix.Annotations = annotations;
    return fix;
  }

  /** Base64 protobuf TrackSet of the devices' positions over the range. */
  async tracks(caller: Caller, imeis: readonly string[], body: RangeInput & PositionFilter, averaged: SecondLevelMode): Promise<string> {
    const range = this.range(caller, body);
    const unique = [...new Set(imeis.map((i) => i.trim()))];
    const devices: Device[] = [];
    // one access query for all of them (the same refusals as one by one)
    if (unique.length > 1) for (const resolved of await this.devices.resolveManyBrief(caller, unique)) devices.push(await this.device(caller, resolved.imei, resolved));
    else for (const imei of unique) devices.push(await this.device(caller, imei));
    const queries = devices.map((device) => this.query(device, range, body, devices.length === 1 ? caller.zone : null));
    // The unfiltered tracks' stored parts, for all their devices in one read (on PostgreSQL one statement).
    const segmented = devices.flatMap((device, i) => (!this.averaging(device, averaged) && unfiltered(queries[i]!) && queries[i]!.from <= queries[i]!.to ? [i] : []));
    const stored = new Map(
      (await this.fixes.storedTracks(segmented.map((i) => storedTrackRequest(queries[i]!)))).map((parts, j) => [segmented[j]!, parts]),
    );
    const parts: Uint8Array[] = [];
    for (const [i, device] of devices.entries()) {
      const q = queries[i]!;
      const before = parts.length;
      const storedParts = stored.get(i);
      if (storedParts) {
        parts.push(...(await this.segmentedTrack(device.imei, q, storedParts)));
      } else if (q.from <= q.to) {
        // Clamped to the UTC days of the device's first and last fix (whole days): years before or after its data cost nothing.
        const bounds = await this.fixes.bounds(device.id);
        if (bounds) {
          q.from = Math.max(q.from, Math.floor(bounds.first / DAY_MS) * DAY_MS);
          q.to = Math.min(q.to, (Math.floor(bounds.last / DAY_MS) + 1) * DAY_MS - 1);
        }
        if (!bounds || q.from > q.to) {
          // nothing visible: the device still gets its (empty) track below
        } else if (this.averaging(device, averaged)) {
          const avg = averageTrack(await this.fixes.track(q));
          parts.push(encodeTrack(toColumns(device.imei, avg.rows, avg.averaged)));
        } else {
          parts.push(encodeTrack(toColumns(device.imei, await this.fixes.track(q))));
        }
      }
      if (parts.length === before) parts.push(encodeTrack(toColumns(device.imei, [])));
    }
    return Buffer.from(trackSetFromParts(parts)).toString('base64');
  }

  /**
   * An unfiltered track as segments: the partial days at either end from the rows, whole UTC days from the
   * stored segments, and those missing built from the rows (and stored only when the day has positions),
   * only for days between the device's first and last fix: years before or after its data cost nothing, and
   * empty days send and store nothing.
   */
  private async segmentedTrack(imei: string, q: FixQuery, stored: StoredTrack): Promise<Uint8Array[]> {
    const { bounds } = stored;
    if (!bounds) return [];
    const encodeRows = (rows: TrackRow[]) => encodeTrack(toColumns(imei, rows));
    const encodePoints = (points: TrackPoints) => encodeTrack({ imei, ...points });
    const { dayFrom, dayTo } = storedTrackRequest(q);
    const out: Uint8Array[] = [];
    if (stored.head.length > 0) out.push(encodeRows(stored.head));
    const missing: number[] = [];
    const lastWanted = Math.min(dayTo, Math.floor(bounds.last / DAY_MS));
    for (let day = Math.max(dayFrom, Math.floor(bounds.first / DAY_MS)); day <= lastWanted; day++) if (!stored.segments.has(day)) missing.push(day);
    const built = await this.fixes.buildSegments(q.deviceId, missing, encodePoints);
    for (let day = dayFrom; day <= dayTo; day++) {
      const seg = stored.segments.get(day) ?? built.get(day);
      if (seg && seg.count > 0) out.push(seg.data);
    }
    if (stored.tail.length > 0) out.push(encodeRows(stored.tail));
    return out;
  }

  /**
   * Builds the segments of up to `limit` days that writes made stale, and a second-level device's
   * averaged-table summaries of those days (the server runs this in the background, so a track or a
   * page is usually served from them even right after an import). Answers how many days it built.
   */
  async buildStaleSegments(limit = 200): Promise<number> {
    const dirty = await this.fixes.dirtyDays(limit);
    const byDevice = new Map<number, { imei: string; secondLevel: boolean; days: number[] }>();
    for (const d of dirty) {
      const entry = byDevice.get(d.deviceId) ?? { imei: d.imei, secondLevel: d.secondLevel, days: [] };
      entry.days.push(d.day);
      byDevice.set(d.deviceId, entry);
    }
    for (const [deviceId, { imei, secondLevel, days }] of byDevice) {
      await this.fixes.buildSegments(deviceId, days, (points) => encodeTrack({ imei, ...points }));
      if (secondLevel) await this.fixes.buildGroupDays(deviceId, days, summarise);
    }
    return dirty.length;
  }

  /** Each device's latest valid fix inside what the caller may see: one access query, one fix query, one name query. */
  async last(caller: Caller, imeis: readonly string[]): Promise<Fix[]> {
    const devices: Device[] = [];
    for (const resolved of await this.devices.resolveManyBrief(caller, imeis)) devices.push(await this.device(caller, resolved.imei, resolved));
    const rows = await this.fixes.lastMany(
      devices.map((d) => {
        const w = clampToWindow(ALL_TIME, d.resolved.access);
        return { deviceId: d.id, notAfter: w.to, notBefore: w.from };
      }),
    );
    const found = devices.flatMap((d, i) => (rows[i] ? [{ device: d, row: rows[i] }] : []));
    const named = await this.named(found.map((f) => f.row));
    return found.map((f, i) => this.toFix(caller, f.device, named[i]!));
  }

  async lastOne(caller: Caller, imei: string): Promise<Fix | null> {
    return (await this.last(caller, [imei]))[0] ?? null;
  }

  /**
   * The pick times of a device's first and last fix (any fix: what /track's empty range offers to jump
   * to), null when it has none; a share recipient's within the share's data period (windowOf).
   */
  async span(caller: Caller, imei: string): Promise<{ FirstTime: string; LastTime: string } | null> {
    const device = await this.device(caller, imei);
    const w = clampToWindow(ALL_TIME, device.resolved.access);
    const own = w.from === ALL_TIME.from && w.to === ALL_TIME.to;
    const bounds = own ? await this.fixes.bounds(device.id) : w.from > w.to ? undefined : await this.fixes.boundsWithin(device.id, w.from, w.to);
    return bounds ? { FirstTime: formatTime(bounds.first, caller.zone), LastTime: formatTime(bounds.last, caller.zone) } : null;
  }

  /** Irreversible (§4): needs EditFix, records who and when; fixes outside a share's window are not touched. */
  async markInvalid(caller: Caller, imei: string, ids: readonly string[]): Promise<number> {
    const device = await this.device(caller, imei);
    requireRight(device.resolved.access, 'EditFix');
    const times = [...new Set(ids.map(Number))];
    const w = clampToWindow(ALL_TIME, device.resolved.access);
    return this.fixes.markInvalid(device.id, times, w.from, w.to, caller.session.userId, now());
  }

  private convertedRange(caller: Caller, device: Device, body: RangeInput): { from: number; to: number } {
    const { from, to } = optionalRange(caller, body);
    return clampToWindow({ from: from ?? Number.MIN_SAFE_INTEGER, to: to ?? Number.MAX_SAFE_INTEGER }, device.resolved.access);
  }

  async convertedCount(caller: Caller, body: z.output<typeof calls.GetConvertedInvalidCount.body>): Promise<number> {
    const device = await this.device(caller, body.imei);
    const r = this.convertedRange(caller, device, body);
    return r.from > r.to ? 0 : this.fixes.convertedCount(device.id, r.from, r.to);
  }

  async convertedPage(caller: Caller, body: z.output<typeof calls.GetConvertedInvalidListPage.body>): Promise<{ List: Fix[]; Total: number }> {
    const device = await this.device(caller, body.imei);
    const r = this.convertedRange(caller, device, body);
    if (r.from > r.to) return { List: [], Total: 0 };
    const [total, rows] = await Promise.all([
      this.fixes.convertedCount(device.id, r.from, r.to),
      this.fixes.convertedPage(device.id, r.from, r.to, body.pageSize, (body.currentPage - 1) * body.pageSize),
    ]);
    return { List: rows.map((row) => this.toFix(caller, device, row)), Total: total };
  }
}
