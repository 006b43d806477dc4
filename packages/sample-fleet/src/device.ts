// Over 400 lines: one Device class whose minute-by-minute loop ties the schedule, power, GNSS, sensors,
// bursts, media and the outbox together over shared state; split, each part would reach into the others.
import {
  type BehaviorRecord,
  type Burst,
  DeviceType,
  type IngestBatch,
  type InstructionFailureReason,
  type PendingInstruction,
  type SensorKindName,
  type WorkSettings,
} from '@wildtrack/contract';
import { EXPECTED_ODBA, makeBurst } from './acceleration.js';
import { clamp, magneticField, round, Weather } from './environment.js';
import { bearingOf, enu, type LonLat, MINUTE, offset, sunElevation, wrap360 } from './geo.js';
import { badQuality, fixQuality, type FixQuality } from './gnss.js';
import { pooledPhoto } from './media/jpeg.js';
import { PDM_CONTENT_TYPE, PDM_RATE, pooledCall } from './media/pdm.js';
import { VIDEO_CLIP } from './media/video-clip.js';
import { createMotion, type Motion } from './motion.js';
import { Power } from './power.js';
import { getProfile, type Profile, type ProfileId } from './profiles.js';
import { Rng, Stream } from './rng.js';
import { describeFix, describePostback, type FixSchedule, nextTime, ParamError, type PostbackSchedule } from './schedule.js';
import { applyParams, type BatteryLevel, batteryLevel, Coverage, defaultSettings, fixScheduleOf, postbackScheduleOf } from './work.js';

/** One media file a device uploads, with the fields of its /ingest/v1/media query. */
export interface MediaItem {
  kind: 'image' | 'video' | 'audio';
  t: number;
  lon: number;
  lat: number;
  alt: number;
  width?: number;
  height?: number;
  /** Seconds. */
  duration?: number;
  /** Audio: samples per second and bits per sample (PDM: 1), channels. */
  rate?: number;
  bitDepth?: number;
  track?: number;
  contentType: string;
  body: Uint8Array;
}

export interface Advance {
  batch: IngestBatch;
  media: MediaItem[];
}

/**
 * An instruction as a device takes it: the contract's typed params (PendingInstruction, hours in
 * `timeZone`), or the older flat keys of schedule.ts.
 */
export interface DeviceInstruction {
  type: PendingInstruction['type'];
  params: PendingInstruction['params'] | Record<string, unknown>;
  timeZone?: string;
}

export interface InstructionResult {
  ok: boolean;
  message?: string;
  /** Why it was refused (with `message`, the device's own text). */
  reason?: InstructionFailureReason;
}

export interface DeviceOptions {
  seed: number;
  /** Epoch ms the simulation starts at (floored to the minute). */
  start: number;
  /** Include the deliberate bad and invalid fixes (default true). */
  badFixes?: boolean;
}

export interface DeviceSchedule {
  /** The fix schedule in force now (for a voltage-adaptive mode: at the battery level of the last fix). */
  fix: FixSchedule;
  postback: PostbackSchedule;
  acc: { enabled: boolean; followGnss: boolean; hz: number; intervalMinutes: number } | null;
  describe: { fix: string; postback: string; acc: string };
}

export interface DeviceSimulator {
  readonly profile: Profile;
  /** Simulated time reached, epoch ms; advance() moves it in whole minutes. */
  readonly clock: number;
  /** Records taken but not yet uploaded (waiting for the postback schedule). */
  readonly waiting: number;
  readonly schedule: DeviceSchedule;
  /**
   * What the device runs, with the fields of the console's work status (§3 DeviceWorkStatus; hour arrays
   * in UTC): the device reports it in its batches, so the console shows what it really does.
   */
  readonly workStatus: WorkSettings;
  /** Battery level a voltage-adaptive mode goes by, from the voltage now. */
  readonly batteryLevel: BatteryLevel;
  readonly voltage: number;
  /** Everything the device uploads between its clock and `until`. Pure: no I/O, no wall clock. */
  advance(until: number): Advance;
  /**
   * Changes the schedule from the current clock on; the result is what the device acks. Refused (ok false,
   * with the reason) when a value is bad or out of the device's range, an option unsupported, or the
   * battery low and the instruction asks for more (work.ts applyParams). `timeZone` is the zone the
   * instruction's hours are in when its params don't carry one.
   */
  applyInstruction(instruction: DeviceInstruction): InstructionResult;
  /** False while the device is out of coverage (it can't upload nor fetch instructions then). */
  covered(t: number): boolean;
  /** When the outage `t` falls in ends, or null when the device is in coverage at `t`. */
  outageEnd(t: number): number | null;
  /** Where the carrier is at the device's clock (a relay in range may carry its uploads). */
  readonly position: LonLat;
}

interface FixRec {
  t: number;
  /** null: an attempt that found too few satellites in time (a real tag logs it without a position). */
  lon: number | null;
  lat: number | null;
  alt: number | null;
  speed: number;
  course: number | null;
  temp: number;
  activity: number;
  voltage: number;
  sats: number;
  hdop: number | null;
  vdop: number | null;
  grade: number;
  channel: number;
  tx: number;
}

interface SensorRec {
  t: number;
  kind: SensorKindName;
  v: number[];
}

interface Records {
  fixes: FixRec[];
  sensors: SensorRec[];
  bursts: Burst[];
  media: MediaItem[];
  /** A phone's field records; `t` is when the phone saves the record (an observation: its end). */
  pois: NonNullable<IngestBatch['pois']>;
  behaviors: (BehaviorRecord & { t: number })[];
}

const emptyRecords = (): Records => ({ fixes: [], sensors: [], bursts: [], media: [], pois: [], behaviors: [] });

/** The rangers who carry the sample phone, one a day in turn (ids as the organisation's field app numbers them). */
const RANGERS = [
  { recorder: 2017, recorderName: 'Wang Lei' },
  { recorder: 2031, recorderName: 'Liu Fang' },
];
/** Motions a ranger records: the defaults' codes mostly, now and then one of the reserve's own words. */
const MOTIONS = ['foraging', 'foraging', 'foraging', 'resting', 'resting', 'moving', 'vigilance', 'grooming', 'social', 'courtship', 'nesting'];
const RESERVE_MOTION = 'Flying over';
/** What a ranger marks on the Yellow River delta (name, target). */
const POI_KINDS: [string, string][] = [
  ['Oriental stork nest', 'Oriental stork'],
  ['Crane feeding ground', 'Red-crowned crane'],
  ["Saunders's gull colony", "Saunders's gull"],
  ['Camera trap', 'Mammals'],
  ['Water point', 'Habitat'],
  ['Fence damage', 'Patrol'],
  ['Carcass found', 'Bird'],
];

export function createDevice(profile: Profile | ProfileId, opts: DeviceOptions): DeviceSimulator {
  return new Device(typeof profile === 'string' ? getProfile(profile) : profile, opts);
}

class Device implements DeviceSimulator {
  clock: number;
  private readonly motion: Motion;
  private readonly weather: Weather;
  private readonly power: Power;
  private readonly gnssRng: Rng;
  private readonly accRng: Rng;
  private readonly mediaRng: Rng;
  private readonly schedRng: Rng;
  private readonly sensorRng: Rng;
  private readonly fieldRng: Rng;
  /** The observation a phone's ranger is making: since when, where, of which motion, until when at most. */
  private observation: { start: number; lon: number; lat: number; motion: string; until: number } | null = null;
  private readonly badFixes: boolean;
  private ws: WorkSettings;
  private fix: FixSchedule;
  private postback: PostbackSchedule;
  private readonly coverage: Coverage;
  private nextFixAt: number;
  private fixDue = false;
  private nextSlfAt: number;
  private lastAttemptAt = -Infinity;
  private nextPostAt = 0;
  private vel = { east: 0, north: 0 };
  private activitySum = 0;
  private activityN = 0;
  private eligible = { day: -1, today: 0, yesterday: 0 };
  private readonly hardIron: [number, number, number];
  private pending = emptyRecords();
  private out = emptyRecords();

  constructor(
    readonly profile: Profile,
    opts: DeviceOptions,
  ) {
    const seed = opts.seed >>> 0;
    this.clock = Math.floor(opts.start / MINUTE) * MINUTE;
    this.badFixes = opts.badFixes ?? true;
    this.motion = createMotion(profile.motion, new Rng(seed, Stream.motion), new Rng(seed, Stream.itinerary));
    this.weather = new Weather(new Rng(seed, Stream.weather));
    this.sensorRng = new Rng(seed ^ 0x5eed, Stream.weather);
    this.power = new Power(profile.power, new Rng(seed, Stream.power), this.clock);
    this.gnssRng = new Rng(seed, Stream.gnss);
    this.accRng = new Rng(seed, Stream.acc);
    this.mediaRng = new Rng(seed, Stream.media);
    this.schedRng = new Rng(seed, Stream.schedule);
    this.fieldRng = new Rng(seed, Stream.field);
    this.hardIron = [this.schedRng.normal(0, 2), this.schedRng.normal(0, 2), this.schedRng.normal(0, 2)];
    this.ws = defaultSettings(profile);
    this.fix = fixScheduleOf(this.ws, this.batteryLevel);
    this.postback = postbackScheduleOf(this.ws);
    this.coverage = new Coverage(seed, profile.coverage);
    this.nextFixAt = nextTime(this.fix, this.clock);
    this.nextSlfAt = this.clock + this.schedRng.exponential(4 * 3_600_000);
    // Place the carrier before the first step, so the first velocity is a real one.
    this.motion.step(this.clock, MINUTE);
  }

  get waiting(): number {
    return this.pending.fixes.length + this.pending.sensors.length + this.pending.bursts.length;
  }

  get schedule(): DeviceSchedule {
    const w = this.ws;
    const acc = this.profile.acc ? { enabled: w.AccEnabled, followGnss: w.AccFollowGNSS, hz: w.AccFrequencyHz ?? this.profile.acc.hz, intervalMinutes: w.AccIntervalMinutes ?? this.profile.acc.intervalMinutes } : null;
    const mode = w.GNSSCollectionMode === 128 ? 'adaptive high, ' : w.GNSSCollectionMode === 129 ? 'adaptive low, ' : '';
    return {
      fix: this.fix,
      postback: this.postback,
      acc,
      describe: {
        fix: `${mode}${describeFix(this.fix)}${mode ? ` (battery ${this.batteryLevel})` : ''}`,
        postback: describePostback(this.postback),
        acc: acc ? (acc.enabled ? (acc.followGnss ? `${acc.hz} Hz bursts with each fix` : `${acc.hz} Hz bursts every ${acc.intervalMinutes} min`) : 'off') : 'none',
      },
    };
  }

  get workStatus(): WorkSettings {
    return structuredClone(this.ws);
  }

  get batteryLevel(): BatteryLevel {
    return batteryLevel(this.profile, this.power.voltage);
  }

  get voltage(): number {
    return this.power.voltage;
  }

  covered(t: number): boolean {
    return this.coverage.covered(t);
  }

  outageEnd(t: number): number | null {
    return this.coverage.outageEnd(t);
  }

  get position(): LonLat {
    return { lon: this.motion.state.pos.lon, lat: this.motion.state.pos.lat };
  }

  advance(until: number): Advance {
    while (this.clock + MINUTE <= until) this.step();
    const result = { batch: toBatch(this.out, this.profile), media: this.out.media };
    this.out = emptyRecords();
    return result;
  }

  private step(): void {
    const t = this.clock + MINUTE;
    const s = this.motion.state;
    const prev = s.pos;
    this.weather.step(MINUTE);
    this.motion.step(t, MINUTE);
    const d = enu(prev, s.pos);
    this.vel = { east: d.east / 60, north: d.north / 60 };
    const sunlight = this.weather.sunlight(t, s.pos);
    const air = this.weather.airTemperature(t, s.pos);
    this.power.step(t, MINUTE, sunlight, s, air);
    this.activitySum += EXPECTED_ODBA[s.behaviour];
    this.activityN++;
    const minute = t / MINUTE;

    // Fixes: on schedule, or a second-level fix now and then in daylight. A voltage-adaptive mode picks the
    // next fix time by the battery level at each scheduled fix.
    while (this.nextFixAt <= t) {
      this.fixDue = true;
      if (this.ws.GNSSCollectionMode !== 0) this.fix = fixScheduleOf(this.ws, this.batteryLevel);
      this.nextFixAt = nextTime(this.fix, this.nextFixAt);
    }
    let attempted = false;
    const sunUp = sunElevation(t, s.pos) > 5;
    if (this.profile.secondLevelFix && t >= this.nextSlfAt && sunUp && s.skyView) {
      this.takeFixes(t, 10);
      attempted = this.fixDue;
      this.fixDue = false;
      this.nextSlfAt = t + this.schedRng.exponential((s.flightDay ? 2 : 8) * 3_600_000);
    } else if (this.fixDue && s.skyView && t - this.lastAttemptAt >= s.attemptGapMinutes * MINUTE) {
      this.fixDue = false;
      const phoneIdle = this.profile.motion.kind === 'walker' && !s.tracking && minute % 60 !== 0 && this.fix.mode === 'interval';
      if (!phoneIdle) {
        this.takeFixes(t, 1);
        attempted = true;
      }
    }

    // Scalar sensors on their minute grid (the phone logs only while its app tracks).
    for (const [kind, every] of Object.entries(this.profile.sensorMinutes) as [SensorKindName, number][]) {
      if (minute % every !== 0) continue;
      if (this.profile.motion.kind === 'walker' && !s.tracking) continue;
      this.pending.sensors.push({ t, kind, v: this.sensorValue(kind, t) });
    }

    // Acceleration bursts: on their own minute grid, or with each scheduled fix attempt (follow GNSS).
    const w = this.ws;
    const burst = w.AccEnabled && (w.AccFollowGNSS ? attempted : minute % (w.AccIntervalMinutes ?? 1440) === 0);
    if (burst && this.profile.acc) {
      const hz = w.AccFrequencyHz ?? this.profile.acc.hz;
      this.pending.bursts.push(makeBurst(t, s.behaviour, this.profile.acc, hz, this.accRng));
      // A burst costs by its samples: perBurst is at the profile's own frequency.
      if (this.profile.power.kind === 'solar') this.power.use(this.profile.power.perBurst * (hz / this.profile.acc.hz));
    }

    this.maybeMedia(t);
    if (this.profile.type === DeviceType.Phone) this.maybeField(t);
    this.flush(t);
    this.clock = t;
  }

  private takeFixes(t: number, count: number): void {
    const s = this.motion.state;
    const g = this.profile.gnss;
    const rng = this.gnssRng;
    if (this.profile.power.kind === 'solar') this.power.use(this.profile.power.perFix * (count > 1 ? 2 : 1));
    this.lastAttemptAt = t;
    // A fix fails when the receiver tracks fewer than four satellites (canopy, a den), or a diver's antenna
    // is awash before the snapshot is taken: a tag logs the attempt without a position.
    const blocked = rng.chance(s.canopy * s.canopy * 0.3) || !rng.chance(s.fixChance);
    let q: FixQuality | null = blocked ? null : this.badFixes && rng.chance(g.badRate) ? badQuality(rng) : fixQuality(rng, g.sats, g.satsSd, s.canopy);
    if (q === null) {
      this.failedAttempt(t);
      return;
    }
    const ttf = g.ttf[0] + rng.float() * (g.ttf[1] - g.ttf[0]);
    const start = t + Math.round(ttf * 1000);
    // A second-level fix shares one error (the receiver keeps tracking) and wanders a little per second.
    const bias = { e: rng.normal(0, q.sigmaH / Math.SQRT2), n: rng.normal(0, q.sigmaH / Math.SQRT2), u: rng.normal(0, q.sigmaV) };
    for (let k = 0; k < count; k++) {
      if (k > 0) q = { ...q, hdop: Math.max(0.5, round(q.hdop + rng.normal(0, 0.05), 1)) };
      const dt = (start - t) / 1000 + k;
      const truth = offset(s.pos, this.vel.east * dt, this.vel.north * dt);
      const jit = count > 1 ? 0.6 : q.sigmaH / Math.SQRT2;
      const e = (count > 1 ? bias.e : 0) + rng.normal(0, jit);
      const n = (count > 1 ? bias.n : 0) + rng.normal(0, jit);
      const p = offset(truth, e, n);
      const trueSpeed = Math.hypot(this.vel.east, this.vel.north);
      const noSpeed = q.grade >= 6 && rng.chance(0.5);
      const speed = noSpeed ? -1 : round(Math.max(0, trueSpeed * 3.6 + rng.normal(0, 0.12 * q.hdop)), 1);
      const course = noSpeed ? null : round(wrap360((trueSpeed > 0.15 ? bearingOf(this.vel.east, this.vel.north) : s.heading) + rng.normal(0, 3)), 1);
      const rec: FixRec = {
        ...this.tagFields(t),
        t: start + k * 1000,
        lon: round(p.lon, 7),
        lat: round(p.lat, 7),
        alt: round(s.elev + s.agl - s.depth + (count > 1 ? bias.u : 0) + rng.normal(0, count > 1 ? 1 : q.sigmaV), 1),
        speed,
        course,
        sats: q.sats,
        hdop: q.hdop,
        vdop: q.vdop,
        grade: q.grade,
      };
      if (this.badFixes && count === 1 && rng.chance(this.profile.gnss.invalidRate)) {
        // Deliberately invalid: a firmware altitude sentinel, or a latitude that overflowed.
        if (rng.chance(0.5)) rec.alt = 32767;
        else rec.lat = round(rec.lat! + 100, 7);
        Object.assign(rec, { sats: rng.int(0, 3), hdop: 99.9, vdop: 99.9, grade: 7, speed: -1, course: null });
      }
      this.pending.fixes.push(rec);
    }
    this.activitySum = 0;
    this.activityN = 0;
  }

  /** What a tag logs with every attempt, fixed or not: its temperature, activity, voltage. */
  private tagFields(t: number): Pick<FixRec, 'temp' | 'activity' | 'voltage' | 'channel' | 'tx'> {
    const rng = this.gnssRng;
    return {
      temp: round(this.tagTemperature(t) + rng.normal(0, 0.2), 1),
      activity: Math.round(clamp((this.activitySum / Math.max(1, this.activityN)) * 100 + rng.normal(0, 1.5), 0, 255)),
      voltage: this.power.voltage,
      channel: (Math.floor(t / 3_600_000) % 4) + 1,
      tx: 0,
    };
  }

  /**
   * An attempt that timed out (the fisher data's e-obs tags log 30 % of their attempts so, at the scheduled
   * time): a record with no position, counted in the tables and never drawn. Phones and stations log nothing.
   */
  private failedAttempt(t: number): void {
    if (this.profile.type !== DeviceType.Tracker) return;
    const rng = this.gnssRng;
    this.pending.fixes.push({
      ...this.tagFields(t),
      t,
      lon: null,
      lat: null,
      alt: null,
      speed: -1,
      course: null,
      sats: rng.int(0, 3),
      hdop: null,
      vdop: null,
      grade: 7,
    });
    this.activitySum = 0;
    this.activityN = 0;
  }

  /** Temperature inside the tag's housing, °C. */
  private tagTemperature(t: number): number {
    const s = this.motion.state;
    const w = this.weather;
    const air = w.airTemperature(t, s.pos);
    const sun = w.sunlight(t, s.pos);
    switch (this.profile.housing) {
      case 'bird':
        return s.agl > 20 ? air - 0.0065 * s.agl + 2 + 3 * sun : air + 2.5 + 7 * sun;
      case 'collar':
        return air + (33 - air) * (s.behaviour === 'rest' ? 0.4 : 0.28) + 4 * sun * (1 - s.canopy);
      case 'marine':
        return s.behaviour === 'rest' && s.depth === 0 ? air + 5 * sun + (30 - air) * 0.15 : w.seaTemperature(t, s.pos, s.depth);
      case 'box':
        return air + 9 * sun;
      case 'pocket':
        return 30 + 0.1 * (air - 20);
    }
  }

  private sensorValue(kind: SensorKindName, t: number): number[] {
    const s = this.motion.state;
    const w = this.weather;
    const r = this.sensorRng;
    switch (kind) {
      case 'temperature':
        return [round(this.tagTemperature(t) + r.normal(0, 0.15), 1)];
      case 'pressure': {
        const p = this.profile.housing === 'marine' ? w.pressure(0) + 100.5 * s.depth : w.pressure(s.elev + s.agl);
        return [round(p + r.normal(0, 0.1), 1)];
      }
      case 'waterDepth':
        return [round(Math.max(0, s.depth + r.normal(0, 0.05)), 1)];
      case 'redInfrared': {
        const leak = w.lux(t, s.pos) * 0.002 * Math.exp(-0.3 * s.depth);
        return [
          Math.round(1800 * (0.6 + 0.4 * s.oxygen) + leak + r.normal(0, 15)),
          Math.round(2600 * (0.95 + 0.05 * s.oxygen) + 1.3 * leak + r.normal(0, 15)),
        ];
      }
      case 'light': {
        const lux = w.lux(t, s.pos) * r.range(0.3, 1); // feathers shade the sensor
        return [lux >= 10 ? Math.round(lux) : round(lux, 2)];
      }
      case 'humidity':
        return [round(clamp(w.humidity(t, s.pos) + r.normal(0, 1.5), 5, 100), 1)];
      case 'magnetism': {
        const f = magneticField(s.pos);
        const hm = ((s.heading - this.profile.declination) * Math.PI) / 180;
        const x = f.horizontal * Math.cos(hm) + r.normal(0, 0.3);
        const y = -f.horizontal * Math.sin(hm) + r.normal(0, 0.3);
        const z = f.vertical + r.normal(0, 0.3);
        const angle = wrap360((Math.atan2(-y, x) * 180) / Math.PI);
        return [round(x + this.hardIron[0], 2), round(y + this.hardIron[1], 2), round(z + this.hardIron[2], 2), round(angle, 1)];
      }
    }
  }

  private maybeMedia(t: number): void {
    const s = this.motion.state;
    const m = this.profile.media;
    if (!m.image && !m.video && !m.audio) return;
    const day = Math.floor(t / 86_400_000);
    if (day !== this.eligible.day) {
      this.eligible = { day, today: 0, yesterday: this.eligible.day < 0 ? 0 : this.eligible.today };
    }
    const sun = sunElevation(t, s.pos);
    const eligible = this.profile.motion.kind === 'walker' ? s.observing : sun > 5 && s.behaviour !== 'rest';
    if (!eligible) return;
    this.eligible.today++;
    const minutes = Math.max(30, this.eligible.yesterday || 120);
    const rng = this.mediaRng;
    const where = { t, lon: round(s.pos.lon, 7), lat: round(s.pos.lat, 7), alt: round(s.elev + s.agl, 1) };
    if (m.image && rng.chance(m.image / minutes)) {
      const subject = rng.chance(0.6) ? 'stork' : 'none';
      const note = `Wildtrack simulator ${this.profile.model} ${new Date(t).toISOString()} ${where.lat},${where.lon}`;
      const body = pooledPhoto(rng.int(0, 3), sun, subject, note);
      this.pending.media.push({ kind: 'image', ...where, width: 160, height: 120, contentType: 'image/jpeg', body });
    }
    if (m.audio && rng.chance(m.audio / minutes)) {
      const call = pooledCall(rng.int(0, 3));
      this.pending.media.push({
        kind: 'audio',
        ...where,
        t: t + 1000,
        duration: call.duration,
        rate: PDM_RATE,
        bitDepth: 1,
        track: 1,
        contentType: PDM_CONTENT_TYPE,
        body: call.bits,
      });
    }
    if (m.video && rng.chance(m.video / minutes)) {
      this.pending.media.push({
        kind: 'video',
        ...where,
        t: t + 2000,
        width: VIDEO_CLIP.width,
        height: VIDEO_CLIP.height,
        duration: VIDEO_CLIP.duration,
        contentType: VIDEO_CLIP.contentType,
        body: videoBytes(),
      });
    }
  }

  /**
   * A phone's field records while its ranger observes: behaviour observations of 5-30 minutes each (a new
   * one when the motion changes), and now and then a point of interest with one or two photos.
   */
  private maybeField(t: number): void {
    const s = this.motion.state;
    const rng = this.fieldRng;
    const ranger = RANGERS[Math.floor(t / 86_400_000) % RANGERS.length]!;
    const o = this.observation;
    if (o && (!s.observing || t >= o.until)) {
      this.pending.behaviors.push({ t, start: o.start, end: t, ...ranger, lon: o.lon, lat: o.lat, motion: o.motion });
      this.observation = null;
    }
    if (!s.observing) return;
    // The animal watched is some way off the ranger, in the direction they look.
    const at = offset(s.pos, rng.range(-250, 250), rng.range(-250, 250));
    if (!this.observation) {
      this.observation = { start: t, lon: round(at.lon, 6), lat: round(at.lat, 6), motion: rng.chance(0.04) ? RESERVE_MOTION : rng.pick(MOTIONS), until: t + rng.int(5, 30) * MINUTE };
    }
    if (rng.chance(1 / 150)) {
      const [name, target] = rng.pick(POI_KINDS);
      const photos = Array.from({ length: rng.int(1, 2) }, () =>
        bytesBase64(pooledPhoto(rng.int(0, 3), sunElevation(t, s.pos), target === 'Oriental stork' ? 'stork' : 'none', `Wildtrack field ${name} ${new Date(t).toISOString()}`)),
      );
      this.pending.pois.push({
        t,
        ...ranger,
        name,
        target,
        lon: round(s.pos.lon, 6),
        lat: round(s.pos.lat, 6),
        alt: round(s.elev, 1),
        address: 'Yellow River Delta National Nature Reserve, Dongying, Shandong',
        description: `${ranger.recorderName}: ${name.toLowerCase()} seen on patrol`,
        photos,
      });
    }
  }

  /** Moves records whose upload time has come from pending to out, stamping fixes with it. */
  private flush(t: number): void {
    const p = this.postback;
    let due = false;
    if (p.mode === 'realtime') due = true;
    else if (p.mode === 'count') due = this.waiting + this.pending.media.length >= p.count;
    else if (t >= this.nextPostAt) {
      due = true;
      this.nextPostAt = nextTime(p, t);
    }
    if (!due) return;
    const take = <T extends { t: number }>(from: T[], to: T[]): T[] => {
      let i = 0;
      while (i < from.length && from[i]!.t <= t) i++;
      for (let k = 0; k < i; k++) to.push(from[k]!);
      return from.slice(i);
    };
    const before = this.out.fixes.length;
    this.pending.fixes = take(this.pending.fixes, this.out.fixes);
    for (let i = before; i < this.out.fixes.length; i++) this.out.fixes[i]!.tx = t;
    this.pending.sensors = take(this.pending.sensors, this.out.sensors);
    this.pending.bursts = take(this.pending.bursts, this.out.bursts);
    this.pending.media = take(this.pending.media, this.out.media);
    this.pending.pois = take(this.pending.pois, this.out.pois);
    this.pending.behaviors = take(this.pending.behaviors, this.out.behaviors);
  }

  applyInstruction(instruction: DeviceInstruction): InstructionResult {
    const before = this.ws;
    try {
      this.ws = applyParams(instruction.type, instruction.params as Record<string, unknown>, before, { profile: this.profile, voltage: this.power.voltage }, instruction.timeZone);
    } catch (e) {
      if (e instanceof ParamError) return { ok: false, message: e.message, reason: e.reason };
      throw e;
    }
    const w = this.ws;
    const gnssChanged = JSON.stringify([w.GNSSCollectionMode, w.NormalType, w.CustomHours, w.IntervalMinutes, w.HighFrequencyIntervals, w.LowFrequencyHours]) !==
      JSON.stringify([before.GNSSCollectionMode, before.NormalType, before.CustomHours, before.IntervalMinutes, before.HighFrequencyIntervals, before.LowFrequencyHours]);
    if (gnssChanged) {
      this.fix = fixScheduleOf(w, this.batteryLevel);
      this.nextFixAt = nextTime(this.fix, this.clock);
      this.fixDue = false;
    }
    const p = postbackScheduleOf(w);
    if (JSON.stringify(p) !== JSON.stringify(this.postback)) {
      this.postback = p;
      if (p.mode === 'hours' || p.mode === 'interval') this.nextPostAt = nextTime(p, this.clock);
    }
    return { ok: true };
  }
}

let video: Uint8Array | null = null;
function videoBytes(): Uint8Array {
  video ??= Uint8Array.from(atob(VIDEO_CLIP.base64), (c) => c.charCodeAt(0));
  return video;
}

/** Columnar batch of the records, with only the columns this kind of device fills. */
function toBatch(r: Records, profile: Profile): IngestBatch {
  const batch: IngestBatch = {};
  const f = r.fixes;
  if (f.length > 0) {
    const col = <K extends keyof FixRec>(k: K) => f.map((x) => x[k]);
    batch.fixes = {
      t: col('t'),
      lon: col('lon'),
      lat: col('lat'),
      alt: col('alt'),
      speed: col('speed'),
      course: col('course'),
      voltage: col('voltage'),
      sats: col('sats'),
      hdop: col('hdop'),
      vdop: col('vdop'),
      grade: col('grade'),
      tx: col('tx'),
    };
    if (profile.sensors.includes('Temperature')) batch.fixes.temp = col('temp');
    if (profile.acc) batch.fixes.activity = col('activity');
    if (profile.type === 2) batch.fixes.channel = col('channel');
  }
  if (r.sensors.length > 0) {
    const byKind = new Map<SensorKindName, { kind: SensorKindName; t: number[]; v: number[][] }>();
    for (const s of r.sensors) {
      let g = byKind.get(s.kind);
      if (!g) byKind.set(s.kind, (g = { kind: s.kind, t: [], v: [] }));
      g.t.push(s.t);
      g.v.push(s.v);
    }
    batch.sensors = [...byKind.values()];
  }
  if (r.bursts.length > 0) batch.bursts = r.bursts;
  if (r.pois.length > 0) batch.pois = r.pois;
  if (r.behaviors.length > 0) batch.behaviors = r.behaviors.map(({ start, end, recorder, recorderName, lon, lat, motion }) => ({ start, end, recorder, recorderName, lon, lat, motion }));
  return batch;
}

function bytesBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]!);
  return btoa(text);
}
