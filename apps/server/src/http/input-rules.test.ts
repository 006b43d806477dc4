import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';

/**
 * The low findings of issue 11 through the API: an invalid timeZone, hidden characters in names and a
 * reversed range are refused with 601 naming the field in the caller's language, and nothing is written.
 */
describe.each(DIALECTS)('input rules on %s', (dialect) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    token = (await t.userWithToken()).token;
  });
  afterAll(async () => t.close());

  it('answers 601 naming timeZone when a call is given one that is not offered, instead of ignoring it', async () => {
    for (const [path, body] of [
      [calls.GetTree.path, { timeZone: 'Mars/Olympus' }],
      [calls.GetLastFixList.path, { imeis: ['860000000000001'], timeZone: '+08:30' }],
      [calls.GetBirdInfo.path, { imei: '860000000000001', timeZone: '+25:00' }],
    ] as const) {
      const en = await t.call(path, body, { token });
      expect(en.body.Code, path).toBe(Code.Invalid);
      expect(en.body.Data, path).toEqual({ Field: 'timeZone' });
      expect(en.body.Msg, path).toBe('The time zone must look like +08:00, between -12:00 and +12:00.');
    }
    const zh = await t.call(calls.GetTree.path, { timeZone: 'UTC+99' }, { token, lang: 'zh' });
    expect(zh.body.Msg).toBe('时区格式应为 +08:00，范围 -12:00 至 +12:00。');
    expect((await t.call(calls.GetTree.path, { timeZone: '+08:00' }, { token })).body.Code).toBe(Code.Success);
  });

  it('refuses NUL, right-to-left override and invisible characters in names, naming the field, writing nothing', async () => {
    const folders = async () => Number((await t.database.db.selectFrom('folders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await folders();
    for (const name of ['Storks\u0000', 'gpj\u202Eexe', 'two\u200Bstorks']) {
      const r = await t.call(calls.CreateFolder.path, { name, parentId: '-1' }, { token });
      expect(r.body.Code, JSON.stringify(name)).toBe(Code.Invalid);
      expect(r.body.Data).toEqual({ Field: 'name' });
      expect(r.body.Msg).toBe('The folder name must not hold control, invisible or text-direction characters.');
    }
    const zh = await t.call(calls.UpdateRemarkName.path, { imei: '860000000000001', remarkName: 'a\u202Eb' }, { token, lang: 'zh' });
    expect(zh.body).toMatchObject({ Code: Code.Invalid, Msg: '备注名不能包含控制字符、不可见字符或改变文字方向的字符。', Data: { Field: 'remarkName' } });
    expect(await folders()).toBe(before);
    expect((await t.call(calls.CreateFolder.path, { name: '东方白鹳 Storks', parentId: '-1' }, { token })).body.Code).toBe(Code.Success);
  });

  it('refuses a reversed range in the converted-invalid calls, naming endTime', async () => {
    for (const path of [calls.GetConvertedInvalidCount.path, calls.GetConvertedInvalidListPage.path]) {
      const r = await t.call(path, { imei: '860000000000001', startTime: '2025-05-02 00:00:00', endTime: '2025-05-01 00:00:00' }, { token });
      expect(r.body, path).toEqual({ Code: Code.Invalid, Msg: 'The end time must not be before the start time.', Data: { Field: 'endTime' } });
    }
  });
});
