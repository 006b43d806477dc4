import { type FixColumns, IngestBatchSchema, isValidPosition } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import {
  backfill,
  batteryLevel,
  burstOdba,
  countRecords,
  Coverage,
  createDevice,
  DAY,
  distance,
  HOUR,
  type InstructionOutcome,
  MINUTE,
  ownFleet,
  PROFILE_IDS,
  PROFILES,
  registerArgs,
  type ProfileId,
  sampleFleet,
  solarHour,
  splitBatch,
} from './index.js';

const START = Date.UTC(2025, 9, 1);

function run(id: ProfileId, days: number, seed = 11) {
  return createDevice(id, { seed, start: START }).advance(START + days * DAY);
}

function fixesPerFullDay(f: FixColumns): number[] {
  const byDay = new Map<number, number>();
  for (const t of f.t) byDay.set(Math.floor(t / DAY), (byDay.get(Math.floor(t / DAY)) ?? 0) + 1);
  const days = [...byDay.keys()].sort((a, b) => a - b);
  return days.slice(1, -1).map((d) => byDay.get(d)!);
}

describe('determinism', () => {
  it('the same seed gives the same records, however advance() is chunked', () => {
    const a = createDevice('stork', { seed: 5, start: START }).advance(START + 2 * DAY);
    const dev = createDevice('stork', { seed: 5, start: START });
    const parts = [];
    for (let t = START; t < START + 2 * DAY; ) {
      t += 37 * MINUTE + 13_000; // uneven chunks that end mid-minute
      parts.push(dev.advance(Math.min(t, START + 2 * DAY)).batch);
    }
    const fixesT = parts.flatMap((p) => p.fixes?.t ?? []);
    const fixesLon = parts.flatMap((p) => p.fixes?.lon ?? []);
    const bursts = parts.flatMap((p) => p.bursts ?? []);
    expect(fixesT).toEqual(a.batch.fixes!.t);
    expect(fixesLon).toEqual(a.batch.fixes!.lon);
    expect(bursts).toEqual(a.batch.bursts);
    expect(JSON.stringify(createDevice('stork', { seed: 5, start: START }).advance(START + DAY))).toEqual(
      JSON.stringify(createDevice('stork', { seed: 5, start: START }).advance(START + DAY)),
    );
  });

  it('another seed gives another animal', () => {
    expect(run('deer', 1, 1).batch.fixes!.lon).not.toEqual(run('deer', 1, 2).batch.fixes!.lon);
  });
});

describe('every profile', () => {
  for (const id of PROFILE_IDS) {
    const p = PROFILES[id];
    const { batch } = run(id, 8);
    const f = batch.fixes!;

    it(`${id}: fix rate within ${p.fixesPerDay.join('..')} a day`, () => {
      for (const n of fixesPerFullDay(f)) {
        expect(n).toBeGreaterThanOrEqual(p.fixesPerDay[0]);
        expect(n).toBeLessThanOrEqual(p.fixesPerDay[1]);
      }
    });

    it(`${id}: at the shortest interval an instruction can set, still within bounds`, () => {
      const dev = createDevice(id, { seed: 3, start: START });
      expect(dev.applyInstruction({ type: 'ACQUISITION_FREQUENCY', params: { intervalMinutes: p.minFixIntervalMinutes } }).ok).toBe(true);
      for (const n of fixesPerFullDay(dev.advance(START + 4 * DAY).batch.fixes!)) expect(n).toBeLessThanOrEqual(p.fixesPerDay[1]);
    });

    it(`${id}: valid coordinates except the deliberate bad fixes, and sane columns`, () => {
      let invalid = 0;
      let located = 0;
      for (let i = 0; i < f.t.length; i++) {
        if (f.lon[i] === null) continue; // a failed attempt: no coordinates at all (realism.test.ts)
        located++;
        const ok = isValidPosition(f.lon[i]!, f.lat[i]!, f.alt![i]);
        if (f.grade![i]! <= 5) expect(ok).toBe(true);
        if (!ok) invalid++;
        const speed = f.speed![i]!;
        expect(speed === -1 || speed >= 0).toBe(true);
        const course = f.course![i];
        if (speed === -1) expect(course).toBeNull();
        else expect(course).toBeGreaterThanOrEqual(0);
        expect(f.grade![i]).toBeGreaterThanOrEqual(1);
        expect(f.grade![i]).toBeLessThanOrEqual(7);
        expect(f.tx![i]).toBeGreaterThanOrEqual(f.t[i]!);
        if (i > 0) expect(f.t[i]!).toBeGreaterThan(f.t[i - 1]!);
      }
      expect(invalid / located).toBeLessThan(0.01);
    });

    it(`${id}: the batch passes IngestBatchSchema and holds only the device's sensor kinds`, () => {
      expect(IngestBatchSchema.safeParse(batch).success).toBe(true);
      expect(new Set((batch.sensors ?? []).map((s) => s.kind))).toEqual(new Set(Object.keys(p.sensorMinutes)));
      expect((batch.bursts?.length ?? 0) > 0).toBe(Boolean(p.acc));
    });
  }
});

describe('realism', () => {
  it('more satellites give a lower HDOP and a better grade', () => {
    const f = run('stork', 10).batch.fixes!;
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const idx = f.t.map((_, i) => i).filter((i) => f.grade![i]! <= 5);
    const many = idx.filter((i) => f.sats![i]! >= 11);
    const few = idx.filter((i) => f.sats![i]! <= 7);
    expect(mean(many.map((i) => f.hdop![i]!))).toBeLessThan(mean(few.map((i) => f.hdop![i]!)));
    expect(mean(many.map((i) => f.grade![i]!))).toBeLessThan(mean(few.map((i) => f.grade![i]!)));
    const bad = f.grade!.filter((g) => g! >= 6).length / f.t.length;
    expect(bad).toBeGreaterThan(0.001);
    expect(bad).toBeLessThan(0.06);
  });

  it('the stork migrates: flight days cover hundreds of km at hundreds to thousands of metres, with second-level fixes', () => {
    const f = run('stork', 30).batch.fixes!;
    let maxAlt = 0;
    const byDay = new Map<number, { first: number; last: number }>();
    let slf = 0;
    for (let i = 0; i < f.t.length; i++) {
      if (f.grade![i]! > 5) continue;
      maxAlt = Math.max(maxAlt, f.alt![i]!);
      const d = Math.floor(f.t[i]! / DAY);
      const e = byDay.get(d) ?? { first: i, last: i };
      e.last = i;
      byDay.set(d, e);
      if (i > 0 && f.t[i]! - f.t[i - 1]! === 1000) slf++;
    }
    const km = [...byDay.values()].map(({ first, last }) => distance({ lon: f.lon[first]!, lat: f.lat[first]! }, { lon: f.lon[last]!, lat: f.lat[last]! }) / 1000);
    expect(km.filter((k) => k > 150).length).toBeGreaterThanOrEqual(3); // flight days
    expect(km.filter((k) => k < 15).length).toBeGreaterThanOrEqual(8); // stopover days
    expect(maxAlt).toBeGreaterThan(900);
    expect(maxAlt).toBeLessThan(4000);
    expect(slf).toBeGreaterThan(9 * 20);
  });

  it('speed and course agree with the movement between second-level fixes', () => {
    const f = run('stork', 30).batch.fixes!;
    const errs: number[] = [];
    for (let i = 1; i < f.t.length; i++) {
      if (f.t[i]! - f.t[i - 1]! !== 1000 || f.speed![i]! < 20 || f.grade![i]! > 3) continue;
      const m = distance({ lon: f.lon[i - 1]!, lat: f.lat[i - 1]! }, { lon: f.lon[i]!, lat: f.lat[i]! }) * 3.6;
      errs.push(Math.abs(m - f.speed![i]!));
    }
    expect(errs.length).toBeGreaterThan(20);
    errs.sort((a, b) => a - b);
    expect(errs[Math.floor(errs.length / 2)]!).toBeLessThan(6);
  });

  it('ODBA is higher in active periods than at rest', () => {
    for (const id of ['stork', 'deer'] as const) {
      const { batch } = run(id, 10);
      const f = batch.fixes!;
      const lonAt = (t: number) => f.lon[Math.max(0, f.t.findIndex((x) => x >= t))] ?? f.lon[0]!;
      const night: number[] = [];
      const active: number[] = [];
      for (const b of batch.bursts!) {
        const h = solarHour(b.t, lonAt(b.t));
        const o = burstOdba(b);
        if (h >= 23 || h < 3) night.push(o);
        if (id === 'stork' ? h >= 10 && h < 16 : (h >= 5 && h < 7.5) || (h >= 17 && h < 19.5)) active.push(o);
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      expect(mean(night)).toBeLessThan(0.08);
      expect(mean(active)).toBeGreaterThan(3 * mean(night));
    }
  });

  it('bursts are 10-25 Hz raw 12-bit counts with a calibration', () => {
    for (const id of ['stork', 'deer', 'seal', 'fisher'] as const) {
      const b = run(id, 1).batch.bursts![0]!;
      expect(b.hz).toBeGreaterThanOrEqual(10);
      expect(b.hz).toBeLessThanOrEqual(25);
      expect(b.scale).toHaveLength(3);
      expect(b.offset).toHaveLength(3);
    }
  });

  it('voltage: solar tags stay 3.6-4.25 V with a day cycle, primary cells decline slowly', () => {
    const s = run('stork', 10).batch.fixes!.voltage! as number[];
    expect(Math.min(...s)).toBeGreaterThanOrEqual(3.6);
    expect(Math.max(...s)).toBeLessThanOrEqual(4.25);
    expect(Math.max(...s) - Math.min(...s)).toBeGreaterThan(0.1);
    const d = run('deer', 30).batch.fixes!.voltage! as number[];
    const first = d.slice(0, 100).reduce((a, b) => a + b, 0) / 100;
    const last = d.slice(-100).reduce((a, b) => a + b, 0) / 100;
    expect(last).toBeLessThan(first + 0.02);
    expect(Math.max(...d) - Math.min(...d)).toBeLessThan(0.2);
  });

  it('the seal dives: water depth and pressure follow each other, GNSS only at the surface', () => {
    const { batch } = run('seal', 3);
    const depth = batch.sensors!.find((s) => s.kind === 'waterDepth')!;
    const pressure = batch.sensors!.find((s) => s.kind === 'pressure')!;
    const max = Math.max(...depth.v.map((v) => v[0]!));
    expect(max).toBeGreaterThan(8);
    expect(max).toBeLessThan(40);
    const dAt = new Map(depth.t.map((t, i) => [t, depth.v[i]![0]!]));
    for (let i = 0; i < pressure.t.length; i++) {
      const d = dAt.get(pressure.t[i]!)!;
      expect(Math.abs(pressure.v[i]![0]! - 1013 - 100.5 * d)).toBeLessThan(60);
    }
    expect(batch.fixes!.t.length).toBeGreaterThan(40);
  });

  it('the VHF receiver stays put and reports rarely, on a channel', () => {
    const { motion } = PROFILES.vhf;
    if (motion.kind !== 'station') throw new Error(`the VHF receiver is a station, not a ${motion.kind}`);
    const f = run('vhf', 4).batch.fixes!;
    // One fix every three hours (fixIntervalMinutes 180): eight on each full day, never more.
    const perDay = fixesPerFullDay(f);
    expect(perDay.length).toBeGreaterThanOrEqual(2);
    for (const n of perDay) expect(n).toBeGreaterThanOrEqual(6);
    expect(f.t.length).toBeLessThanOrEqual(4 * 8);
    expect(f.channel).toHaveLength(f.t.length);
    const good = f.t.map((_, i) => i).filter((i) => f.grade![i]! <= 5);
    expect(good.length).toBeGreaterThan(f.t.length / 2);
    for (const i of good) expect(distance({ lon: f.lon[i]!, lat: f.lat[i]! }, motion.site)).toBeLessThan(50);
  });

  it('the phone walks by day and has no accelerometer', () => {
    const { batch } = run('phone', 3);
    expect(batch.bursts).toBeUndefined();
    expect(batch.fixes!.activity).toBeUndefined();
    const speeds = batch.fixes!.speed!.filter((s) => s! > 2);
    expect(speeds.length).toBeGreaterThan(100);
  });
});

describe('instructions', () => {
  const intervals = (t: number[]) => t.slice(1).map((x, i) => Math.round((x - t[i]!) / MINUTE));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

  it('ACQUISITION_FREQUENCY {intervalMinutes} changes the fix interval', () => {
    const dev = createDevice('deer', { seed: 2, start: START });
    const before = dev.advance(START + 2 * DAY).batch.fixes!.t;
    expect(median(intervals(before))).toBe(30);
    expect(dev.applyInstruction({ type: 'ACQUISITION_FREQUENCY', params: { intervalMinutes: 10 } })).toEqual({ ok: true });
    const after = dev.advance(START + 4 * DAY).batch.fixes!.t;
    expect(median(intervals(after))).toBe(10);
    expect(dev.schedule.describe.fix).toBe('every 10 min');
  });

  it('ACQUISITION_FREQUENCY {hours, timeZone} takes fixes at those local hours only', () => {
    const dev = createDevice('fisher', { seed: 2, start: START });
    expect(dev.applyInstruction({ type: 'ACQUISITION_FREQUENCY', params: { hours: [0, 6, 12, 18], timeZone: 8 } }).ok).toBe(true);
    const f = dev.advance(START + 3 * DAY).batch.fixes!;
    for (const t of f.t) expect([0, 6, 12, 18]).toContain(new Date(t + 8 * HOUR).getUTCHours());
    expect(f.t.length).toBeGreaterThan(6);
  });

  it('acceleration settings: switch off, frequency, interval', () => {
    const dev = createDevice('stork', { seed: 2, start: START });
    expect(dev.applyInstruction({ type: 'ACQUISITION_FREQUENCY', params: { accHz: 25, accIntervalMinutes: 30 } }).ok).toBe(true);
    const on = dev.advance(START + DAY).batch.bursts!;
    expect(on.every((b) => b.hz === 25)).toBe(true);
    expect(on.length).toBe(48);
    dev.applyInstruction({ type: 'ACQUISITION_FREQUENCY', params: { accEnabled: false } });
    expect(dev.advance(START + 2 * DAY).batch.bursts).toBeUndefined();
  });

  it('bad or unsupported params fail with a message for the ack', () => {
    const dev = createDevice('phone', { seed: 2, start: START });
    expect(dev.applyInstruction({ type: 'ACQUISITION_FREQUENCY', params: {} }).ok).toBe(false);
    expect(dev.applyInstruction({ type: 'ACQUISITION_FREQUENCY', params: { intervalMinutes: 0 } })).toMatchObject({ ok: false, message: expect.stringMatching(/intervalMinutes/), reason: 'badParams' });
    expect(dev.applyInstruction({ type: 'ACQUISITION_FREQUENCY', params: { hours: [1, 1] } }).ok).toBe(false);
    expect(dev.applyInstruction({ type: 'ACQUISITION_FREQUENCY', params: { accEnabled: true } })).toMatchObject({ ok: false, message: expect.stringMatching(/accelerometer/), reason: 'unsupported' });
    expect(createDevice('vhf', { seed: 1, start: START }).applyInstruction({ type: 'POSTBACK_FREQUENCY', params: { hours: Array.from({ length: 13 }, (_, i) => i) } }).ok).toBe(false);
    const deer = createDevice('deer', { seed: 1, start: START });
    expect(deer.applyInstruction({ type: 'ACQUISITION_FREQUENCY', params: { intervalMinutes: 2 } })).toEqual({ ok: false, message: "intervalMinutes 2 is out of this device's range: its fixes at least 5 min apart", reason: 'outOfRange' });
    expect(deer.schedule.describe.fix).toBe('every 30 min');
  });

  const acq = (p: Record<string, unknown>) => ({ type: 'ACQUISITION_FREQUENCY' as const, params: { Type: 'ACQUISITION_FREQUENCY', ...p }, timeZone: '+08:00' });

  it('typed params (the contract\'s InstructionParams): GNSS interval and ACC off, reported in the work status', () => {
    const dev = createDevice('deer', { seed: 2, start: START });
    dev.advance(START + DAY);
    expect(dev.applyInstruction(acq({ GNSS: { Mode: 'INTERVAL', IntervalMinutes: 10 }, ACC: { Mode: 'OFF' } }))).toEqual({ ok: true });
    const { batch } = dev.advance(START + 3 * DAY);
    expect(median(intervals(batch.fixes!.t))).toBe(10);
    expect(batch.bursts).toBeUndefined();
    expect(dev.workStatus).toMatchObject({ GNSSCollectionMode: 0, NormalType: 'INTERVAL', IntervalMinutes: 10, AccEnabled: false });
  });

  it('hours are taken in the instruction\'s zone and kept in UTC', () => {
    const dev = createDevice('fisher', { seed: 2, start: START });
    expect(dev.applyInstruction(acq({ GNSS: { Mode: 'HOURS', Hours: [8, 20] } })).ok).toBe(true);
    expect(dev.workStatus.CustomHours).toEqual([0, 12]);
    for (const t of dev.advance(START + 2 * DAY).batch.fixes!.t) expect([0, 12]).toContain(new Date(t).getUTCHours());
  });

  it('ACC following GNSS: a burst with each scheduled fix, at the given frequency', () => {
    const dev = createDevice('deer', { seed: 5, start: START });
    expect(dev.applyInstruction(acq({ GNSS: { Mode: 'INTERVAL', IntervalMinutes: 60 }, ACC: { Mode: 'FOLLOW_GNSS', FrequencyHz: 25 } })).ok).toBe(true);
    const { batch } = dev.advance(START + DAY);
    // (The last fix, seconds after its minute, waits for the next advance: its burst is already out.)
    const fixMinutes = batch.fixes!.t.map((t) => Math.floor(t / MINUTE) * MINUTE);
    expect(batch.bursts!.map((b) => b.t).slice(0, fixMinutes.length)).toEqual(fixMinutes);
    expect(batch.bursts!.length - fixMinutes.length).toBeLessThanOrEqual(1);
    expect(batch.bursts!.every((b) => b.hz === 25)).toBe(true);
  });

  it('voltage-adaptive high (128) spaces fixes by the battery level at each fix (a drained stork goes High -> Medium -> Low)', () => {
    const dev = createDevice('stork', { seed: 1, start: START });
    // 50 Hz bursts every minute drain the solar tag by night; fixes slow down as the voltage falls.
    expect(dev.applyInstruction(acq({ GNSS: { Mode: 'ADAPTIVE_HIGH', High: 5, Medium: 15, Low: 60 }, ACC: { Mode: 'INTERVAL', FrequencyHz: 50, IntervalMinutes: 1 } })).ok).toBe(true);
    const f = dev.advance(START + 4 * DAY).batch.fixes!;
    const want = { High: 5, Medium: 15, Low: 60 };
    const minute = f.t.map((t) => Math.floor(t / MINUTE));
    const seen = new Set<string>();
    let checked = 0;
    for (let i = 1; i + 1 < f.t.length; i++) {
      // Second-level fixes (10 in a minute) come on their own clock: skip the gaps around them.
      if (minute[i] === minute[i - 1] || minute[i] === minute[i + 1] || minute[i + 1] === minute[i + 2]) continue;
      const level = batteryLevel(dev.profile, f.voltage![i]!);
      seen.add(level);
      const every = want[level];
      expect(minute[i + 1]).toBe((Math.floor(minute[i]! / every) + 1) * every);
      checked++;
    }
    expect([...seen].sort()).toEqual(['High', 'Low', 'Medium']);
    expect(checked).toBeGreaterThan(150);
  });

  it('refuses what it can\'t do: out of its range, unsupported, or more fixes on a low battery', () => {
    const stork = createDevice('stork', { seed: 1, start: START });
    expect(stork.applyInstruction(acq({ ACC: { Mode: 'INTERVAL', FrequencyHz: 100, IntervalMinutes: 10 } }))).toEqual({ ok: false, message: "ACC.FrequencyHz 100 is out of this device's range (5..50 Hz)", reason: 'outOfRange' });
    expect(stork.applyInstruction({ type: 'POSTBACK_FREQUENCY', params: { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 4096, Realtime: false } } })).toMatchObject({ ok: false, message: expect.stringMatching(/PacketSize 4096 is out of this device's range/) });
    expect(createDevice('seal', { seed: 1, start: START }).applyInstruction(acq({ GNSS: { Mode: 'ADAPTIVE_HIGH', High: 20, Medium: 30, Low: 60 } }))).toEqual({ ok: false, message: 'this device does not support GNSSCollectionAdaptiveHighFrequency', reason: 'unsupported' });
    // Drain the tag to its Low level, then ask for more fixes: refused; fewer: taken.
    stork.applyInstruction(acq({ GNSS: { Mode: 'ADAPTIVE_HIGH', High: 5, Medium: 15, Low: 60 }, ACC: { Mode: 'INTERVAL', FrequencyHz: 50, IntervalMinutes: 1 } }));
    let t = START;
    while (stork.batteryLevel !== 'Low' && t < START + 4 * DAY) stork.advance((t += 10 * MINUTE));
    expect(stork.batteryLevel).toBe('Low');
    expect(stork.applyInstruction(acq({ GNSS: { Mode: 'INTERVAL', IntervalMinutes: 10 } }))).toEqual({ ok: false, message: `battery low (${stork.voltage.toFixed(2)} V): more fixes refused`, reason: 'batteryLow' });
    expect(stork.applyInstruction(acq({ ACC: { Mode: 'OFF' } }))).toEqual({ ok: true });
  });

  it('is out of coverage now and then, on days drawn from its seed (the same ones after a restart)', () => {
    const a = createDevice('seal', { seed: 3, start: START });
    const b = createDevice('seal', { seed: 3, start: START + 5 * DAY });
    let out = 0;
    for (let t = START; t < START + 30 * DAY; t += 10 * MINUTE) {
      expect(a.covered(t)).toBe(b.covered(t));
      if (!a.covered(t)) out++;
      if (a.covered(t)) expect(a.outageEnd(t)).toBeNull();
      else expect(a.outageEnd(t)!).toBeGreaterThan(t);
    }
    // The seal: an outage of 4-20 h on half of its days.
    expect(out / (30 * 144)).toBeGreaterThan(0.1);
    expect(out / (30 * 144)).toBeLessThan(0.5);
  });

  it('POSTBACK_FREQUENCY {hours} holds records until the upload hour and stamps tx with it', () => {
    const dev = createDevice('deer', { seed: 4, start: START });
    expect(dev.applyInstruction({ type: 'POSTBACK_FREQUENCY', params: { hours: [6, 18] } }).ok).toBe(true);
    expect(dev.advance(START + 5 * HOUR).batch).toEqual({});
    expect(dev.waiting).toBeGreaterThan(0);
    const { batch } = dev.advance(START + 7 * HOUR);
    expect(new Set(batch.fixes!.tx)).toEqual(new Set([START + 6 * HOUR]));
    expect(Math.max(...batch.fixes!.t)).toBeLessThanOrEqual(START + 6 * HOUR);
    expect(dev.applyInstruction({ type: 'POSTBACK_FREQUENCY', params: { count: 50 } }).ok).toBe(true);
    const c = dev.advance(START + 12 * HOUR).batch;
    expect(countRecords(c)).toBeGreaterThanOrEqual(50);
  });
});

describe('backfill and the sample fleet', () => {
  it('backfill takes instructions: fetched at the first contact in coverage, applied or refused there, or COMM_ERROR', () => {
    const acq = (p: Record<string, unknown>) => ({ type: 'ACQUISITION_FREQUENCY' as const, params: { Type: 'ACQUISITION_FREQUENCY', ...p }, timeZone: '+08:00' });
    // A collar seed with an outage longer than the 6-hour window on one of the first days.
    let seed = 0;
    let outage: [number, number] | null = null;
    for (let s = 1; s < 500 && !outage; s++) {
      const c = new Coverage(s, PROFILES.deer.coverage);
      for (let d = 1; d < 5 && !outage; d++) {
        const o = c.outage(Math.floor(START / DAY) + d);
        if (o && o[1] - o[0] > 7 * HOUR && o[1] < START + 6 * DAY) [seed, outage] = [s, o];
      }
    }
    expect(outage).not.toBeNull();
    const [from, to] = outage!;
    const shift = 3 * DAY;
    const outcomes: InstructionOutcome[] = [];
    const fixes: number[] = [];
    const instructions = [
      { sentAt: to + 3 * HOUR + 5 * MINUTE, instruction: acq({ GNSS: { Mode: 'INTERVAL', IntervalMinutes: 10 } }) },
      { sentAt: from + 10 * MINUTE, instruction: acq({ GNSS: { Mode: 'INTERVAL', IntervalMinutes: 60 } }) },
      { sentAt: to + 2 * HOUR, instruction: acq({ GNSS: { Mode: 'INTERVAL', IntervalMinutes: 2 } }) },
      { sentAt: START + 7 * DAY - 5 * MINUTE, instruction: acq({ ACC: { Mode: 'OFF' } }) },
    ];
    for (const { batch } of backfill('deer', { seed, start: START, end: START + 7 * DAY, shift, instructions, onInstruction: (o) => outcomes.push(o) })) fixes.push(...(batch.fixes?.t ?? []));
    const applied = Math.ceil((instructions[0]!.sentAt) / (10 * MINUTE)) * 10 * MINUTE;
    expect(outcomes.sort((a, b) => a.index - b.index)).toEqual([
      { index: 0, status: 'SUCCESSFUL', executeTime: applied + shift, message: null },
      { index: 1, status: 'COMM_ERROR', executeTime: null, message: null },
      { index: 2, status: 'FAILED', executeTime: Math.ceil(instructions[2]!.sentAt / (10 * MINUTE)) * 10 * MINUTE + shift, message: "GNSS.IntervalMinutes 2 is out of this device's range: its fixes at least 5 min apart", reason: 'outOfRange' },
      { index: 3, status: 'SENT', executeTime: null, message: null },
    ]);
    const minutes = (ts: number[]) => ts.slice(1).map((x, i) => Math.floor(x / MINUTE) - Math.floor(ts[i]! / MINUTE));
    expect(new Set(minutes(fixes.filter((x) => x < applied + shift)))).toEqual(new Set([30]));
    expect(new Set(minutes(fixes.filter((x) => x > applied + shift)))).toEqual(new Set([10]));
  });

  it('six devices, distinct valid IMEIs, every sensor kind and media type between them', () => {
    const fleet = sampleFleet();
    expect(fleet).toHaveLength(6);
    expect(new Set(fleet.map((d) => d.imei)).size).toBe(6);
    for (const d of fleet) expect(d.imei).toMatch(/^\d{15}$/);
    const flags = new Set(fleet.flatMap((d) => d.profile.sensors));
    for (const f of ['GNSS', 'Acceleration', 'Temperature', 'WaterDepth', 'Pressure', 'Image', 'Video', 'Audio', 'RedInfraredLight', 'LightIntensity', 'Humidity', 'Magnetism']) expect(flags).toContain(f);
  });

  it('30 days of the whole fleet in batches of at most 5,000 records, quickly', () => {
    const end = START + 30 * DAY;
    const t0 = performance.now();
    const kinds = new Set<string>();
    const media = new Set<string>();
    let records = 0;
    for (const d of sampleFleet()) {
      for (const { batch, media: m } of backfill(d.profile, { seed: d.seed, start: START, end })) {
        const n = countRecords(batch);
        expect(n).toBeLessThanOrEqual(5000);
        records += n;
        (batch.sensors ?? []).forEach((s) => kinds.add(s.kind));
        if (batch.bursts) kinds.add('bursts');
        m.forEach((x) => media.add(x.kind));
      }
    }
    const ms = performance.now() - t0;
    console.log(`backfill: 6 devices x 30 days = ${records} records in ${ms.toFixed(0)} ms`);
    expect(kinds).toEqual(new Set(['temperature', 'pressure', 'waterDepth', 'redInfrared', 'light', 'humidity', 'magnetism', 'bursts']));
    expect(media).toEqual(new Set(['image', 'video', 'audio']));
    expect(ms).toBeLessThan(30_000);
  }, 60_000);

  it("an organisation's own fleet gets IMEIs apart from the samples", () => {
    const own = ownFleet('Demo Org', ['stork', 'phone']);
    expect(own.map((d) => d.profile.id)).toEqual(['stork', 'phone']);
    const samples = new Set(sampleFleet().map((d) => d.imei));
    for (const d of [...own, ...ownFleet('Other', PROFILE_IDS)]) {
      expect(d.imei).toMatch(/^\d{15}$/);
      expect(samples.has(d.imei)).toBe(false);
    }
    expect(() => ownFleet('x', ['cat'])).toThrow(/unknown profile/);
  });

  it('splitBatch keeps every record in order', () => {
    const { batch } = run('seal', 2);
    const parts = splitBatch(batch, 777);
    expect(parts.every((p) => countRecords(p) <= 777)).toBe(true);
    expect(parts.reduce((n, p) => n + countRecords(p), 0)).toBe(countRecords(batch));
    expect(parts.flatMap((p) => p.fixes?.t ?? [])).toEqual(batch.fixes!.t);
    for (const p of parts) expect(IngestBatchSchema.safeParse(p).success).toBe(true);
  });
});

describe('registerArgs', () => {
  it("registers each profile with its instruction abilities (register-device --instr)", () => {
    for (const p of Object.values(PROFILES)) {
      const args = registerArgs(p, 'Org', '864512041234567');
      expect(args[args.indexOf('--instr') + 1], p.id).toBe(p.instrSupport.join(','));
    }
    expect(registerArgs(PROFILES.stork, 'Org', '864512041234567')).toContain('AccCollectionSwitch,AccCollectionFrequency,GNSSCollectionAdaptiveHighFrequency,GNSSCollectionAdaptiveLowFrequency,DataPostbackHours');
  });
});
