import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CallDef } from './call.js';
import * as calls from './calls/index.js';
import { describeIssues, fieldSentence, formSentence, isSentence } from './field-messages.js';
import { isMessageKey, MESSAGES } from './messages.js';

const ALL = Object.values(calls as unknown as Record<string, CallDef>);

function refusal(def: CallDef, body: unknown, lang: 'en' | 'zh') {
  const r = def.body.safeParse(body, { reportInput: true });
  if (r.success) throw new Error(`${def.path} accepted ${JSON.stringify(body)}`);
  return describeIssues(lang, r.error.issues);
}

/** Every property name a schema declares, nested ones too. */
function propertyNames(schema: z.ZodType): Set<string> {
  const names = new Set<string>();
  const walk = (s: unknown): void => {
    if (!s || typeof s !== 'object') return;
    const o = s as Record<string, unknown>;
    if (o.properties && typeof o.properties === 'object') {
      for (const [k, v] of Object.entries(o.properties)) {
        names.add(k);
        walk(v);
      }
    }
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties']) {
      const v = o[key];
      if (Array.isArray(v)) v.forEach(walk);
      else walk(v);
    }
    if (o.$defs && typeof o.$defs === 'object') Object.values(o.$defs).forEach(walk);
  };
  walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
  return names;
}

describe('the message table', () => {
  it('has a label in both languages for every field of every call body', () => {
    const missing = new Set<string>();
    for (const def of ALL) for (const name of propertyNames(def.multipart?.fields ?? def.body)) if (!isMessageKey(`field.${name}`)) missing.add(name);
    expect([...missing]).toEqual([]);
  });

  it('writes every validation text as a sentence in both languages', () => {
    const fragments = new Set(['validation.body', 'validation.unnamedField', 'validation.password.simple']);
    for (const [key, texts] of Object.entries(MESSAGES)) {
      if (!key.startsWith('validation.') || key.startsWith('validation.type.') || fragments.has(key)) continue;
      const filled = (text: string) => text.replace(/\{field\}/g, 'name').replace(/\{\w+\}/g, '3');
      expect(isSentence('en', filled(texts.en.replace(/^The \{field\}/, 'The name'))), `${key} en: ${texts.en}`).toBe(true);
      expect(isSentence('zh', filled(texts.zh)), `${key} zh: ${texts.zh}`).toBe(true);
    }
  });

  it('says a missing, long, out-of-range or wrong field as a sentence naming it', () => {
    expect(refusal(calls.PasswordLogin, { timeZone: '+08:00' }, 'en')).toEqual({ text: 'Enter the account.', field: 'account' });
    expect(refusal(calls.PasswordLogin, { timeZone: '+08:00' }, 'zh')).toEqual({ text: '请输入账号。', field: 'account' });
    expect(refusal(calls.PasswordLogin, { account: 7, timeZone: '+08:00' }, 'en').text).toBe('The account must be text.');
    expect(refusal(calls.PasswordLogin, { account: 'a'.repeat(65), timeZone: '+08:00' }, 'en').text).toBe('The account can be at most 64 characters.');
    expect(refusal(calls.PasswordLogin, { account: 'a'.repeat(65), timeZone: '+08:00' }, 'zh').text).toBe('账号最多 64 个字符。');
    expect(refusal(calls.CreateFolder, { name: 'n'.repeat(41), parentId: '-1' }, 'en')).toEqual({ text: 'The folder name can be at most 40 characters.', field: 'name' });
    expect(refusal(calls.MoveDevice, { imei: '860000000000001' }, 'en').text).toBe('Choose the folder.');
    expect(refusal(calls.MoveDevice, { imei: '860000000000001' }, 'zh').text).toBe('请选择文件夹。');
    expect(refusal(calls.UpdateProperty, { imei: '860000000000001', speciesType: 9 }, 'en').text).toBe('The species type can be at most 3.');
    expect(refusal(calls.UpdateProperty, { imei: '860000000000001', status: 1.5 }, 'zh').text).toBe('状态应为整数。');
    expect(refusal(calls.GetDetailByFolder, { folderId: '-1', sortField: 'Colour' }, 'en').text).toMatch(/^The sort field must be one of "Caption", "IMEI", .*\.$/);
    expect(refusal(calls.GetDetailByFolder, { folderId: '-1', pageSize: 7 }, 'en').text).toBe('The page size must be one of 10, 20, 40, 50, 100.');
    expect(refusal(calls.ModifyLcid, undefined, 'en')).toEqual({ text: 'The request has no body.', field: '' });
    expect(refusal(calls.ModifyLcid, [], 'zh')).toEqual({ text: '请求内容应为对象。', field: '' });
  });

  it('names nested fields by their label, and fields without one by their path', () => {
    const save = { IMEI: '860000000000001', AnimalInfo: { Species: '', ScientificName: '', Sex: 0, Age: 0, Weight: null }, AdditionalInfo: [], timeZone: '+08:00' };
    const work = { CaptureTime: '', MountTime: '', ReleaseTime: '', ReleaseLon: 200, ReleaseLat: null, ReleaseSite: '', Images: [] };
    const r = calls.SaveOtherSpeciesInfo.body.safeParse({ ...save, WorkInfo: work }, { reportInput: true });
    expect(r.success).toBe(false);
    expect(describeIssues('zh', r.error!.issues)).toEqual({ text: '释放经度须在 -180 到 180 之间。', field: 'WorkInfo.ReleaseLon' });
    expect(describeIssues('en', r.error!.issues).text).toBe('The release longitude must be between -180 and 180.');
    expect(fieldSentence('en', ['WorkInfo', 'Colour'], 'validation.invalidValue')).toBe('The field WorkInfo.Colour is not valid.');
    expect(fieldSentence('zh', ['WorkInfo', 'Colour'], 'validation.tooLong', { maximum: 5 })).toBe('字段 WorkInfo.Colour最多 5 个字符。');
  });

  it('refuses a field a call body does not declare, naming it (strict bodies), and only at the body level', () => {
    expect(refusal(calls.CreateFolder, { name: 'Storks', parentId: '-1', colour: 'red' }, 'en')).toEqual({ text: 'This call does not take the field colour.', field: 'colour' });
    expect(refusal(calls.Heartbeat, { extra: 1 }, 'zh')).toEqual({ text: '此接口不接受字段 extra。', field: 'extra' });
    expect(calls.Heartbeat.body.safeParse(undefined).success).toBe(true);
    expect(calls.Heartbeat.body.safeParse({}).success).toBe(true);
    // A body's own refinement (an ordered range) still runs.
    expect(refusal(calls.GetConvertedInvalidCount, { imei: '860000000000001', startTime: '2025-05-02 00:00:00', endTime: '2025-05-01 00:00:00' }, 'en').text).toBe(
      'The end time must not be before the start time.',
    );
  });

  it('gives forms the same sentences, an empty value as a missing one', () => {
    const schema = z.string().trim().min(1).max(64, { error: 'validation.tooLong' });
    expect(formSentence('en', 'account', '', schema.safeParse('').error?.issues[0])).toBe('Enter the account.');
    expect(formSentence('zh', 'account', '', schema.safeParse('').error?.issues[0])).toBe('请输入账号。');
    expect(formSentence('en', 'tdtKey', 'a b', z.string().regex(/^\w*$/, { error: 'validation.tdtKey.chars' }).safeParse('a b').error?.issues[0])).toBe(
      'The map-service key may hold only letters and digits.',
    );
    const folder = z.string().trim().min(1, { error: 'validation.folderName.required' });
    expect(formSentence('en', 'name', ' ', folder.safeParse(' ').error?.issues[0])).toBe('Enter a folder name.');
  });
});
