import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DeviceStatus, EventType } from '@wildtrack/contract';
import { recordSilences } from '../../db/event-writes.js';
import { sampleFleet } from '@wildtrack/sample-fleet';
import { loadConfig } from '../../config.js';
import { LIVE_SAMPLES_EVERY_MS, liveSampleFleet, liveSampleJob, startJobs } from '../../jobs/index.js';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { DeviceRepository } from './repository.js';
import { ensureSampleDevices } from './samples.js';
import { LiveSampleFleet } from './samples-live.js';
import { LiveSamplesRepository } from './samples-live-repository.js';

/** vi.waitFor's own 1 s is too short when both cores are busy (a mail through SMTP took longer in a loaded run). */
const WAIT = { timeout: 30_000 };

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
/** The fixed instant the sample devices are made at (a day of history up to it). */
const T0 = Date.UTC(2026, 4, 10, 8, 0);
/**
 * Scheduled fixes among fix times: the stork's tag takes its fix every 10 minutes (a few seconds to find
 * satellites late) and, on a flight, bursts of second-level fixes between them; a fix counts when it is at
 * least 9 minutes after the last one counted.
 */
function slots(times: readonly number[]): number {
  let n = 0;
  let prev = -Infinity;
  for (const t of [...times].sort((a, b) => a - b)) {
    if (t - prev >= 9 * MIN) {
      n++;
      prev = t;
    }
  }
  return n;
}
const STORK = sampleFleet().find((d) => d.profile.id === 'stork')!.imei;

describe.each(DIALECTS)('the live sample fleet on %s', (dialect) => {
  let t: TestApp;
  let stork: number;

  const storkFixes = async () =>
    (await t.database.db.selectFrom('fixes').select('pick_time').where('device_id', '=', stork).orderBy('pick_time').execute()).map((r) => Number(r.pick_time));
  const storkSensors = async () =>
    Number((await t.database.db.selectFrom('sensor_records').select((eb) => eb.fn.countAll<number>().as('n')).where('device_id', '=', stork).executeTakeFirstOrThrow()).n);
  const fleet = () => new LiveSampleFleet(new LiveSamplesRepository(t.database.db), t.services.ingest, 3 * MIN);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await ensureSampleDevices(new DeviceRepository(t.database.db), t.services.devices, t.services.ingest, { now: T0, days: 1 });
    stork = Number((await t.database.db.selectFrom('devices').select('id').where('imei', '=', STORK).executeTakeFirstOrThrow()).id);
  }, 120_000);
  afterAll(async () => t.close());

  it('appends the stork a fix every 10 minutes through ingest, from where its records end', async () => {
    const a = fleet();
    const made = await storkFixes();
    expect(made[made.length - 1]!).toBeLessThanOrEqual(T0);
    expect((await a.tick(T0)).held).toBe(true);
    // the tag starts again where the records end; its first fix comes one schedule step later
    await a.tick(T0 + 10 * MIN);
    const start = await storkFixes();
    const r = await a.tick(T0 + 20 * MIN);
    expect(r.held).toBe(true);
    const after = await storkFixes();
    const added = after.slice(start.length);
    expect(slots(added)).toBe(1);
    expect(Math.min(...added)).toBeGreaterThan(T0 + 10 * MIN);
    expect(Math.max(...added)).toBeLessThanOrEqual(T0 + 20 * MIN);
    // the same time again adds nothing
    await a.tick(T0 + 20 * MIN);
    expect((await storkFixes()).length).toBe(after.length);
    // an hour: six more fixes, with the sensor records the profile takes (temperature every 10 minutes)
    const sensorsBefore = await storkSensors();
    await a.tick(T0 + 80 * MIN);
    expect(slots((await storkFixes()).slice(after.length))).toBe(6);
    expect(await storkSensors()).toBeGreaterThanOrEqual(sensorsBefore + 6);
    await a.stop();
  });

  it('one process appends: another waits while the lease is held and takes over (filling the gap) once it lapses', async () => {
    const a = fleet();
    const b = fleet();
    const n0 = (await storkFixes()).length;
    expect((await a.tick(T0 + 90 * MIN)).held).toBe(true);
    const n1 = (await storkFixes()).length;
    expect(n1).toBeGreaterThanOrEqual(n0);
    expect((await b.tick(T0 + 91 * MIN)).held).toBe(false);
    expect((await storkFixes()).length).toBe(n1);
    // `a` stops ticking (its process died); the silence job calls the stork silent; after a's lease lapses
    // `b` catches up the two days since, and the stork reporting again is a FixUpdate event (through ingest)
    const later = T0 + 2 * DAY;
    expect(await recordSilences(t.database.db, later, DeviceStatus.Working)).toBeGreaterThanOrEqual(1);
    const r = await b.tick(later);
    expect(r.held).toBe(true);
    const fixes = await storkFixes();
    expect(fixes.length).toBeGreaterThan(n1 + 2 * 144 * 0.8);
    expect(fixes[fixes.length - 1]!).toBeGreaterThan(later - 10 * MIN);
    const ev = await t.database.db.selectFrom('events').select('content').where('device_id', '=', stork).where('type', '=', EventType.FixUpdate).execute();
    expect(ev.length).toBeGreaterThanOrEqual(1);
    expect((await a.tick(later + MIN)).held).toBe(false);
    await b.stop();
  });

  it('a server back after two months fills at most the last 30 days', async () => {
    const c = fleet();
    const before = await storkFixes();
    const later = T0 + 60 * DAY;
    await c.tick(later);
    const added = (await storkFixes()).slice(before.length);
    expect(added.length).toBeGreaterThan(0);
    expect(Math.min(...added)).toBeGreaterThanOrEqual(later - 30 * DAY);
    await c.stop();
  }, 180_000);
});

describe('the live sample fleet as a job (SQLite, fake timers, an injected clock)', () => {
  let t: TestApp;
  let stork: number;
  afterEach(() => {
    vi.useRealTimers();
  });
  afterAll(async () => t?.close());

  const storkFixes = async () =>
    (await t.database.db.selectFrom('fixes').select('pick_time').where('device_id', '=', stork).orderBy('pick_time').execute()).map((r) => Number(r.pick_time));

  it('WILDTRACK_SAMPLES_LIVE=false: no appender; on: one more stork fix after 10 minutes of the clock', async () => {
    t = await createTestApp('sqlite');
    await ensureSampleDevices(new DeviceRepository(t.database.db), t.services.devices, t.services.ingest, { now: T0, days: 1 });
    stork = Number((await t.database.db.selectFrom('devices').select('id').where('imei', '=', STORK).executeTakeFirstOrThrow()).id);
    const off = loadConfig({ WILDTRACK_DATA: t.dataDir, WILDTRACK_SAMPLES_LIVE: 'false' });
    expect(off.samplesLive).toBe(false);
    expect(loadConfig({ WILDTRACK_DATA: t.dataDir }).samplesLive).toBe(true);

    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval'] });
    let now = T0;
    const n0 = (await storkFixes()).length;
    expect(liveSampleFleet(off, t.database.db, t.services.ingest)).toBeNull();
    for (let k = 1; k <= 3; k++) {
      now = T0 + k * 10 * MIN;
      await vi.advanceTimersByTimeAsync(10 * LIVE_SAMPLES_EVERY_MS);
    }
    expect((await storkFixes()).length).toBe(n0);

    // on: the first tick at once (the gap up to now), then one a minute of the timers, each to the clock
    now = T0 + 10 * MIN;
    const fleet = liveSampleFleet({ sampleDevices: true, samplesLive: true }, t.database.db, t.services.ingest);
    expect(fleet).not.toBeNull();
    startJobs(t.app, [liveSampleJob(fleet!, () => now)]);
    await vi.advanceTimersByTimeAsync(0);
    const lastTick = async () => Number((await t.database.db.selectFrom('devices').select('last_work_time').where('id', '=', stork).executeTakeFirstOrThrow()).last_work_time);
    await vi.waitFor(async () => expect(await lastTick()).toBeGreaterThan(T0 + 9 * MIN), WAIT);
    const n1 = (await storkFixes()).length;
    now = T0 + 20 * MIN;
    await vi.advanceTimersByTimeAsync(LIVE_SAMPLES_EVERY_MS);
    await vi.waitFor(async () => expect(slots((await storkFixes()).slice(n1))).toBe(1), WAIT);
    const added = (await storkFixes()).slice(n1);
    expect(Math.min(...added)).toBeGreaterThan(T0 + 10 * MIN);
  }, 120_000);
});
