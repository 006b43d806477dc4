import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceType, packSamples, SpeciesType } from '@wildtrack/contract';
import { createTestApp, type TestApp } from '../../test/helper.js';
import { BASE, HOUR, ZONE } from '../../test/fixed-time.js';
import { accelerationCsvHeader, burstCsv, burstCsvStream, CSV_SLICE_SAMPLES } from './acceleration.js';
import { BurstRepository } from './burst-repository.js';

// The acceleration CSV (download and daily archives) is written a slice at a time with a turn of the event
// loop before each: a 10-year file held the loop up to 661 ms when a read batch (256 bursts) was written at
// once. The stream is read while a setImmediate ticker counts the loop's turns; each slice must come after
// at least one turn, and the file must be what writing every burst at once gives.
describe('the acceleration CSV yields between slices', () => {
  let t: TestApp;
  let deviceId: number;
  const BURSTS = 30;
  const SAMPLES = 2_000; // 60,000 samples: at least three slices

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    await t.userWithToken({ org: 'Gull Lab' });
    const orgId = await t.services.devices.orgIdByName('Gull Lab');
    deviceId = (await t.services.devices.register({ orgId, imei: 'ACC-CSV', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS', 'Acceleration'], caption: 'ACC-CSV' })).id;
    const raw = Array.from({ length: SAMPLES * 3 }, (_, i) => 2048 + (i % 97));
    const bursts = Array.from({ length: BURSTS }, (_, b) => ({ t: BASE + b * HOUR, hz: 20, axes: 'XYZ' as const, samples: packSamples(raw), scale: [0.002, 0.003, 0.004], offset: [2048, 2048, 2048] }));
    await t.services.ingest.writeBatch(deviceId, { bursts }, null, BASE + BURSTS * HOUR);
  });
  afterAll(async () => t.close());

  it('writes the file a slice at a time, a turn of the loop before each, with every line', async () => {
    expect(SAMPLES * BURSTS).toBeGreaterThan(2 * CSV_SLICE_SAMPLES);
    const repo = new BurstRepository(t.database.db);
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const turnsAt: number[] = [];
    let text = '';
    for await (const chunk of burstCsvStream(repo, { deviceId, from: BASE, to: BASE + BURSTS * HOUR }, 'ACC-CSV', ZONE)) {
      turnsAt.push(turns);
      text += String(chunk);
    }
    ticking = false;
    expect(turnsAt.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < turnsAt.length; i++) expect(turnsAt[i], `slice ${i} came without a turn of the loop`).toBeGreaterThan(turnsAt[i - 1]!);
    let whole = accelerationCsvHeader(ZONE);
    for await (const rows of repo.walk({ deviceId, from: BASE, to: BASE + BURSTS * HOUR })) whole += rows.map((r) => burstCsv(r, 'ACC-CSV', ZONE)).join('');
    expect(text).toBe(whole);
    expect(text.split('\r\n').length - 1).toBe(1 + BURSTS * SAMPLES);
  });
});
