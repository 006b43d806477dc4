import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, type Fence } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { addSampleDevices } from '../../test/samples.js';
import { FenceRepository } from './repository.js';
import { ensureSampleFences } from './samples.js';

describe.each(DIALECTS)('sample fences on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    await addSampleDevices(t, { days: 1 });
  }, 120_000);
  afterAll(async () => t?.close());

  it('are made once for the experience devices and shown read-only to a user with the experience switch on', async () => {
    const repo = new FenceRepository(t.database.db, t.database.sqlite);
    expect(await ensureSampleFences(repo)).toBe(2);
    expect(await ensureSampleFences(repo)).toBe(0);
    const { token } = await t.userWithToken({ org: 'Heron Lab' });
    expect((await t.call(calls.SetExperienceFuncEnable.path, { enabled: 1 }, { token })).body.Code).toBe(Code.Success);
    const r = await t.call(calls.GetFenceList.path, { timeZone: '+08:00' }, { token });
    expect(r.body.Code, r.body.Msg).toBe(Code.Success);
    const list = (r.body.Data as { List: Fence[] }).List;
    expect(list.map((f) => [f.Type, f.Example, f.Editable, f.Devices.length]).sort()).toEqual([[1, true, false, 1], [2, true, false, 1]]);
    expect(list.every((f) => f.Area > 0)).toBe(true);
  });
});
