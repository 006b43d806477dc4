import { API_BASE, calls, Code, DeviceDetailSchema, EXPERIENCE_FOLDER_ID, formatTime, LanguageId, signedHeaders, TreeDataSchema } from '@wildtrack/contract';
import { sampleFleet } from '@wildtrack/sample-fleet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { DeviceRepository } from './repository.js';
import { ensureSampleDevices } from './samples.js';
import { DAY, NOW } from '../../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../../test/clock.js';

/** Issue 12 item 2: the sample devices are named in the caller's language wherever the console shows a name. */
describe.each(DIALECTS)('sample device names by language on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  const fleet = sampleFleet();
  const zhName = new Map(fleet.map((d) => [d.imei, d.captionZh]));
  const enName = new Map(fleet.map((d) => [d.imei, d.caption]));
  // The sample history is made up to the server's clock: fixed at NOW.
  useFixedClock(NOW);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await ensureSampleDevices(new DeviceRepository(t.database.db), t.services.devices, t.services.ingest, { days: 1 });
    ({ token } = await t.userWithToken({ org: 'Heron Lab' }));
  });
  afterAll(async () => t.close());

  const experienceFolder = async (lang: 'zh' | 'en') => {
    const tree = TreeDataSchema.parse((await t.call(calls.GetTree.path, { timeZone: '+08:00' }, { token, lang })).body.Data);
    return tree.Folders.find((f) => f.IdStr === EXPERIENCE_FOLDER_ID)!;
  };

  it('names them in Chinese for a Chinese caller and in English otherwise: the tree, the details and the folder list', async () => {
    const zh = await experienceFolder('zh');
    expect(zh.Devices).toHaveLength(6);
    for (const d of zh.Devices) expect(d.Caption).toBe(zhName.get(d.IMEI));
    expect(zh.Devices.some((d) => /[\u4e00-\u9fff]/.test(d.Caption))).toBe(true);
    const en = await experienceFolder('en');
    for (const d of en.Devices) expect(d.Caption).toBe(enName.get(d.IMEI));

    const imei = zh.Devices[0]!.IMEI;
    for (const lang of ['zh', 'en'] as const) {
      // a GET: the fields in the query string, signed over the path
      const url = `${calls.GetDetailByIMEI.path}?imei=${imei}&timeZone=%2B08:00`;
      const res = await t.app.inject({ method: 'GET', url: API_BASE + url, headers: signedHeaders({ token, method: 'GET', path: url, body: undefined, lcid: LanguageId[lang], now: clockNow() }) });
      const detail = DeviceDetailSchema.parse((res.json() as { Data: unknown }).Data);
      expect(detail.Caption).toBe((lang === 'zh' ? zhName : enName).get(imei));
      const list = await t.call(calls.GetDetailByFolder.path, { folderId: EXPERIENCE_FOLDER_ID, currentPage: 1, pageSize: 20, recursive: true, timeZone: '+08:00' }, { token, lang });
      const rows = z.object({ List: z.array(z.object({ IMEI: z.string(), Caption: z.string() })) }).parse(list.body.Data).List;
      expect(rows).toHaveLength(6);
      for (const r of rows) expect(r.Caption).toBe((lang === 'zh' ? zhName : enName).get(r.IMEI));
    }
  });

  it("names them so in /track's fix table too (each fix's Caption)", async () => {
    const imei = fleet[0]!.imei;
    // The sample history was made up to NOW: the range is the days around it.
    const range = { startTime: formatTime(NOW - 3 * DAY, '+08:00'), endTime: formatTime(NOW + DAY, '+08:00'), timeZone: '+08:00' };
    for (const lang of ['zh', 'en'] as const) {
      const page = await t.call(calls.GetFixListByPage.path, { imei, ...range, currentPage: 1, pageSize: 20 }, { token, lang });
      expect(page.body.Code, page.body.Msg).toBe(Code.Success);
      const rows = z.object({ List: z.array(z.object({ Caption: z.string() })) }).parse(page.body.Data).List;
      expect(rows.length, lang).toBeGreaterThan(0);
      for (const r of rows) expect(r.Caption).toBe((lang === 'zh' ? zhName : enName).get(imei));
    }
    expect(zhName.get(imei)).not.toBe(enName.get(imei));
  });

  it("never renames an organisation's own device", async () => {
    const orgId = await t.services.devices.orgIdByName('Heron Lab');
    const own = fleet[0]!;
    await t.services.devices.register({ orgId, imei: 'HERON-1', type: own.profile.type, speciesType: own.profile.speciesType, caption: own.caption, sensors: ['GNSS'] });
    const tree = TreeDataSchema.parse((await t.call(calls.GetTree.path, { timeZone: '+08:00' }, { token, lang: 'zh' })).body.Data);
    expect(tree.Folders[0]!.Devices.find((d) => d.IMEI === 'HERON-1')!.Caption).toBe(own.caption);
  });
});
