import { applyInstruction, formatOffset, hoursToUtc, type InstructionParams, InstructionParamsSchema, type InstrSupportName, parseOffset, type WorkSettings } from '@wildtrack/contract';
import { DAY, HOUR } from './geo.js';
import type { Profile } from './profiles.js';
import { Rng, Stream } from './rng.js';
import { type FixSchedule, hoursParam, intParam, ParamError, type PostbackSchedule } from './schedule.js';

/**
 * What a simulated device runs (its work status, §3 DeviceWorkStatus: the contract's WorkSettings, which
 * it reports in its batches), how an instruction changes it, and when the device is out of coverage. Every
 * hour array is kept in UTC (an instruction's hours are converted from the zone it was written in).
 */

export type BatteryLevel = 'High' | 'Medium' | 'Low';

/**
 * The battery level a voltage-adaptive mode (128/129) picks its schedule by. Rechargeable cells (solar
 * tags, phones) use §9's levels: High above 3.82 V (50 %), Medium above 3.68 V (10 %), Low below. A primary
 * Li-SOCl2 cell sits flat near 3.6 V until it is nearly spent: High above 3.50 V, Medium above 3.40 V.
 */
export function batteryLevel(profile: Profile, voltage: number): BatteryLevel {
  const [high, medium] = profile.power.kind === 'battery' ? [3.5, 3.4] : [3.82, 3.68];
  return voltage > high ? 'High' : voltage > medium ? 'Medium' : 'Low';
}

/** The largest data packet a device sends, bytes (PacketSize above it is out of its range). */
export function maxPacketBytes(profile: Profile): number {
  return profile.type === 3 ? 65_535 : 1024;
}

/** Acceleration frequencies a device samples at, Hz (a FrequencyHz outside is out of its range). */
export function accHzRange(profile: Profile): [number, number] {
  return profile.acc?.hzRange ?? [5, 50];
}

/** What a device runs before any instruction. The stork's solar tag halves its fixes on a low battery (128). */
export function defaultSettings(profile: Profile): WorkSettings {
  const m = profile.fixIntervalMinutes;
  return {
    GNSSCollectionMode: profile.defaultAdaptive ? 128 : 0,
    NormalType: 'INTERVAL',
    CustomHours: [],
    IntervalMinutes: m,
    HighFrequencyIntervals: profile.defaultAdaptive ?? { High: m, Medium: 2 * m, Low: 4 * m },
    LowFrequencyHours: { High: [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22], Medium: [0, 3, 6, 9, 12, 15, 18, 21], Low: [0, 4, 8, 12, 16, 20] },
    DataPostbackMode: 'DATA_CNT',
    PostbackHours: [],
    Realtime: true,
    PacketCount: 1,
    PacketSize: maxPacketBytes(profile),
    AccEnabled: profile.acc !== undefined,
    AccFollowGNSS: false,
    AccFrequencyHz: profile.acc?.hz ?? null,
    AccIntervalMinutes: profile.acc?.intervalMinutes ?? null,
  };
}

/** The fix schedule the settings give at a battery level. */
export function fixScheduleOf(s: WorkSettings, level: BatteryLevel): FixSchedule {
  if (s.GNSSCollectionMode === 128) return { mode: 'interval', minutes: s.HighFrequencyIntervals[level] };
  if (s.GNSSCollectionMode === 129) return { mode: 'hours', hours: s.LowFrequencyHours[level], timeZone: 0 };
  return s.NormalType === 'HOURS' ? { mode: 'hours', hours: s.CustomHours, timeZone: 0 } : { mode: 'interval', minutes: s.IntervalMinutes ?? 60 };
}

/** The upload schedule the settings give (Realtime first: the device sends each record as it is taken). */
export function postbackScheduleOf(s: WorkSettings): PostbackSchedule {
  if (s.Realtime) return { mode: 'realtime' };
  if (s.DataPostbackMode === 'HOUR') return { mode: 'hours', hours: s.PostbackHours, timeZone: 0 };
  return { mode: 'count', count: s.PacketCount ?? 1 };
}

const perDay = (f: FixSchedule) => (f.mode === 'interval' ? 1440 / f.minutes : f.hours.length);

/** Energy the settings spend a day at a level, in relative units: fixes, and acceleration samples. */
function load(s: WorkSettings, level: BatteryLevel): { fixes: number; acc: number; realtime: boolean } {
  const fixes = perDay(fixScheduleOf(s, level));
  const bursts = !s.AccEnabled ? 0 : s.AccFollowGNSS ? fixes : 1440 / (s.AccIntervalMinutes ?? 1440);
  return { fixes, acc: bursts * (s.AccFrequencyHz ?? 0), realtime: s.Realtime };
}

interface Ctx {
  profile: Profile;
  voltage: number;
}

/**
 * The settings after an instruction, or a ParamError saying why the device refuses it (its FAILED ack):
 * a bad value, an option the device does not support, a value out of the device's range (a fix interval
 * under its shortest, an acceleration frequency it can't sample at, a packet larger than it sends), or a
 * low battery (level Low) while the instruction asks for more fixes, more acceleration or real-time sending.
 *
 * Params are the contract's InstructionParams (hours in `timeZone`), applied by the contract's
 * applyInstruction as the server applies them on the acknowledgement; or the older flat keys (schedule.ts)
 * that tests and scripts still use.
 */
export function applyParams(type: string, params: Record<string, unknown>, current: WorkSettings, ctx: Ctx, timeZone = '+00:00'): WorkSettings {
  let next: WorkSettings;
  if ('Type' in params || 'GNSS' in params || 'ACC' in params || 'Postback' in params) {
    const parsed = InstructionParamsSchema.safeParse({ Type: type, ...params });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new ParamError(`${issue.path.join('.') || 'params'}: ${issue.message}`);
    }
    if (parseOffset(timeZone) === null) throw new ParamError(`timeZone ${JSON.stringify(timeZone)} is not a zone like +08:00`);
    checkTyped(parsed.data, current, ctx);
    next = applyInstruction(current, parsed.data, timeZone);
  } else {
    next = structuredClone(current);
    if (type === 'POSTBACK_FREQUENCY') postbackLegacy(params, next, ctx);
    else if (type === 'ACQUISITION_FREQUENCY') acquisitionLegacy(params, next, ctx);
    else throw new ParamError(`unknown instruction type ${type}`);
  }
  if (batteryLevel(ctx.profile, ctx.voltage) === 'Low') {
    const before = load(current, 'Low');
    const after = load(next, 'Low');
    const more = after.fixes > before.fixes + 1e-9 ? 'more fixes' : after.acc > before.acc + 1e-9 ? 'more acceleration' : after.realtime && !before.realtime ? 'real-time sending' : null;
    if (more) throw new ParamError(`battery low (${ctx.voltage.toFixed(2)} V): ${more} refused`, 'batteryLow');
  }
  return next;
}

function requireSupport(ctx: Ctx, name: InstrSupportName): void {
  if (!ctx.profile.instrSupport.includes(name)) throw new ParamError(`this device does not support ${name}`, 'unsupported');
}

function fixInterval(m: number, name: string, ctx: Ctx): number {
  const min = ctx.profile.minFixIntervalMinutes;
  if (m < min) throw new ParamError(`${name} ${m} is out of this device's range: its fixes at least ${min} min apart`, 'outOfRange');
  return m;
}

function accHz(v: number, name: string, ctx: Ctx): number {
  const [lo, hi] = accHzRange(ctx.profile);
  if (v < lo || v > hi) throw new ParamError(`${name} ${v} is out of this device's range (${lo}..${hi} Hz)`, 'outOfRange');
  return v;
}

/** What the device's firmware checks beyond the shape: its support flags and its ranges. */
function checkTyped(p: InstructionParams, current: WorkSettings, ctx: Ctx): void {
  if (p.Type === 'POSTBACK_FREQUENCY') {
    const b = p.Postback;
    if (b.Mode === 'HOUR') requireSupport(ctx, 'DataPostbackHours');
    else if (b.PacketSize > maxPacketBytes(ctx.profile)) throw new ParamError(`Postback.PacketSize ${b.PacketSize} is out of this device's range (at most ${maxPacketBytes(ctx.profile)} bytes)`, 'outOfRange');
    return;
  }
  const g = p.GNSS;
  if (g?.Mode === 'INTERVAL') fixInterval(g.IntervalMinutes, 'GNSS.IntervalMinutes', ctx);
  else if (g?.Mode === 'ADAPTIVE_HIGH') {
    requireSupport(ctx, 'GNSSCollectionAdaptiveHighFrequency');
    for (const level of ['High', 'Medium', 'Low'] as const) fixInterval(g[level], `GNSS.${level}`, ctx);
  } else if (g?.Mode === 'ADAPTIVE_LOW') requireSupport(ctx, 'GNSSCollectionAdaptiveLowFrequency');
  const a = p.ACC;
  if (!a) return;
  if (!ctx.profile.acc) throw new ParamError('this device has no accelerometer', 'unsupported');
  requireSupport(ctx, 'AccCollectionSwitch');
  if (a.Mode === 'OFF') return;
  if (a.FrequencyHz !== null && a.FrequencyHz !== current.AccFrequencyHz) {
    requireSupport(ctx, 'AccCollectionFrequency');
    accHz(a.FrequencyHz, 'ACC.FrequencyHz', ctx);
  }
  if (a.Mode === 'INTERVAL' && a.IntervalMinutes !== current.AccIntervalMinutes) requireSupport(ctx, 'AccCollectionFrequency');
}

/** The flat keys of schedule.ts (intervalMinutes | hours + timeZone, accEnabled, accHz, accIntervalMinutes). */
function acquisitionLegacy(params: Record<string, unknown>, s: WorkSettings, ctx: Ctx): void {
  if (params.intervalMinutes !== undefined && params.hours !== undefined) throw new ParamError('give intervalMinutes or hours, not both');
  const accKeys = ['accEnabled', 'accHz', 'accIntervalMinutes'].filter((k) => params[k] !== undefined);
  if (params.intervalMinutes === undefined && params.hours === undefined && accKeys.length === 0) {
    throw new ParamError('params name no schedule: intervalMinutes, hours, accEnabled, accHz or accIntervalMinutes');
  }
  if (params.intervalMinutes !== undefined) Object.assign(s, { GNSSCollectionMode: 0, NormalType: 'INTERVAL', IntervalMinutes: fixInterval(intParam(params.intervalMinutes, 'intervalMinutes', 1, 1440), 'intervalMinutes', ctx) });
  else if (params.hours !== undefined) {
    const h = hoursParam(params.hours, params.timeZone);
    Object.assign(s, { GNSSCollectionMode: 0, NormalType: 'HOURS', CustomHours: hoursToUtc(h.hours, formatOffset(h.timeZone * 60)) });
  }
  if (accKeys.length === 0) return;
  if (!ctx.profile.acc) throw new ParamError('this device has no accelerometer', 'unsupported');
  if (params.accEnabled !== undefined) {
    requireSupport(ctx, 'AccCollectionSwitch');
    if (typeof params.accEnabled !== 'boolean') throw new ParamError('accEnabled must be true or false');
    s.AccEnabled = params.accEnabled;
  }
  if (params.accHz !== undefined || params.accIntervalMinutes !== undefined) requireSupport(ctx, 'AccCollectionFrequency');
  if (params.accHz !== undefined) {
    if (typeof params.accHz !== 'number' || !Number.isFinite(params.accHz)) throw new ParamError('accHz must be a number');
    s.AccFrequencyHz = accHz(params.accHz, 'accHz', ctx);
  }
  if (params.accIntervalMinutes !== undefined) s.AccIntervalMinutes = intParam(params.accIntervalMinutes, 'accIntervalMinutes', 1, 1440);
}

function postbackLegacy(params: Record<string, unknown>, s: WorkSettings, ctx: Ctx): void {
  if (params.hours !== undefined) {
    requireSupport(ctx, 'DataPostbackHours');
    const h = hoursParam(params.hours, params.timeZone);
    Object.assign(s, { DataPostbackMode: 'HOUR', PostbackHours: hoursToUtc(h.hours, formatOffset(h.timeZone * 60)), Realtime: false });
  } else if (params.count !== undefined) {
    Object.assign(s, { DataPostbackMode: 'DATA_CNT', PacketCount: intParam(params.count, 'count', 1, 10_000), Realtime: false });
  } else if (params.realtime === true) {
    s.Realtime = true;
  } else {
    throw new ParamError('params name no postback schedule: hours, count or realtime');
  }
}

/**
 * Out of coverage: a tag beyond the network (a seal far out at sea, a deer in a valley, a stork over
 * remote country) can't upload nor fetch instructions; it keeps what it takes and sends it when back.
 * Outages are drawn per UTC day from the seed (profile.coverage: chance a day, length in hours), so a
 * restarted simulator sees the same ones.
 */
export class Coverage {
  private readonly days = new Map<number, [number, number] | null>();
  constructor(
    private readonly seed: number,
    private readonly spec: Profile['coverage'],
  ) {}

  /** The outage starting on UTC day `d`, [from, to) epoch ms, or null. */
  outage(d: number): [number, number] | null {
    let o = this.days.get(d);
    if (o === undefined) {
      const rng = new Rng((this.seed ^ Math.imul(d + 1, 0x9e3779b1)) | 0, Stream.coverage);
      o = rng.chance(this.spec.perDay) ? ((from) => [from, from + rng.range(this.spec.hours[0], this.spec.hours[1]) * HOUR] as [number, number])(d * DAY + rng.float() * DAY) : null;
      this.days.set(d, o);
    }
    return o;
  }

  covered(t: number): boolean {
    return this.outageEnd(t) === null;
  }

  /** When the outage `t` falls in ends (the later one where two overlap), or null when `t` is in coverage. */
  outageEnd(t: number): number | null {
    const d = Math.floor(t / DAY);
    let end: number | null = null;
    for (const o of [this.outage(d), this.outage(d - 1)]) if (o && t >= o[0] && t < o[1]) end = Math.max(end ?? 0, o[1]);
    return end;
  }
}
