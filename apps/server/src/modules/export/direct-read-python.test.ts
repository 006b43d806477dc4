import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, DeviceType, SpeciesType } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { contractCalls } from '../../test/contract-calls.js';
import { HOUR, NOW } from '../../test/fixed-time.js';
import { useFixedClock } from '../../test/clock.js';
import { movebankTime } from './movebank.js';

/**
 * docs/api.md's Python example, run as written (the block after `<!-- python-example -->`) by python3 against
 * a listening server: somebody else's reader (Python's csv module over urllib with Basic authentication)
 * reads the studies, the individuals and the GPS events the API streams (shared/CONVENTIONS.md 21).
 */
const DOC = fs.readFileSync(new URL('../../../../../docs/api.md', import.meta.url), 'utf8');
const EXAMPLE = /<!-- python-example -->\s*```python\n([\s\S]*?)```/.exec(DOC)?.[1] ?? '';

describe.each(DIALECTS)("docs/api.md's Python example on %s", (dialect) => {
  useFixedClock(NOW);
  let t: TestApp;
  let url = '';
  let userName = '';
  let secret = '';

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const signedIn = await t.userWithToken({ org: 'Gull Lab' });
    userName = signedIn.userName;
    const { data } = contractCalls(() => t, () => signedIn.token);
    secret = (await data<{ Secret: string }>(calls.CreatePersonalToken, { purpose: 'python' })).Secret;
    const org = await t.services.devices.orgIdByName('Gull Lab');
    const d = await t.services.devices.register({ orgId: org, imei: 'GULL-1', caption: 'Gull, "Jonathan"', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'] });
    const fixes = Array.from({ length: 5 }, (_, i) => {
      const time = NOW - (5 - i) * HOUR + 7;
      return { device_id: d.id, pick_time: time, lon: -9.5 + i / 10, lat: 38.7, alt: 3, speed: null, course: null, temperature: null, activity: null, voltage: null, channel: null, satellites: null, hdop: null, vdop: null, grade: null, valid: 1, tx_time: time, received_at: time, invalid_by: null, invalid_at: null, extra: null };
    });
    await t.database.db.insertInto('fixes').values(fixes).execute();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('reads the studies, the animals and their fixes', async () => {
    expect(EXAMPLE).toContain('csv.DictReader');
    const { stdout } = await promisify(execFile)('python3', ['-c', EXAMPLE], { env: { ...process.env, WILDTRACK_URL: url, WILDTRACK_USER: userName, WILDTRACK_TOKEN: secret } });
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toContain('study -1 Gull Lab 5');
    // the caption with a comma and quotes comes back whole: the CSV is quoted as RFC 4180 says
    expect(lines).toContain(`Gull, "Jonathan" ${movebankTime(NOW - 5 * HOUR + 7)} -9.5 38.7 true`);
    expect(lines.at(-1)).toBe('fixes 5');
  });
});
