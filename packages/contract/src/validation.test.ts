import { describe, expect, it } from 'vitest';
import { GRADE_LEGEND, gradeLetter, PRECISION_GRADE_VALUES } from './device.js';
import { spanRange } from './time.js';
import {
  AccountNameSchema,
  displayWidth,
  EmailSchema,
  IMEI_OTHER_CHARS,
  ImeiSchema,
  isSimplePassword,
  maskEmail,
  maskPhone,
  NicknameSchema,
  PasswordSchema,
  PhoneSchema,
  TdtKeySchema,
  truncateDisplay,
  VerificationCodeSchema,
} from './validation.js';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('§5 validation rules', () => {
  it('IMEI: trimmed, 3-40 letters, digits or _.:- (imported tags included), one rule for every use', () => {
    expect(ImeiSchema.parse(' 864512041000017 ')).toBe('864512041000017');
    for (const ok of ['MB-albatross_7.4f2a', 'A-1', 'x'.repeat(40), 'tag:01']) expect(ImeiSchema.safeParse(ok).success, ok).toBe(true);
    expect(firstMessage(ImeiSchema.safeParse('x'.repeat(41)))).toBe('validation.tooLong');
    expect(firstMessage(ImeiSchema.safeParse('   '))).toBe('validation.required');
    expect(firstMessage(ImeiSchema.safeParse(undefined))).toBe('validation.required');
    expect(firstMessage(ImeiSchema.safeParse('A1'))).toBe('validation.imei');
    expect(firstMessage(ImeiSchema.safeParse('86451 2041'))).toBe('validation.imei');
    expect('MB-a b/c'.replace(IMEI_OTHER_CHARS, '_')).toBe('MB-a_b_c');
  });

  it('grade legend: one entry per letter, each grade naming its letter back', () => {
    expect(GRADE_LEGEND.map(([letter]) => letter).join('')).toBe('ABCDEN');
    for (const [letter, grade] of GRADE_LEGEND) {
      expect(gradeLetter(grade)).toBe(letter);
      expect(PRECISION_GRADE_VALUES[letter]).toContain(grade);
    }
  });

  it('password: 8-16 characters with lower, upper and digit; specials optional', () => {
    for (const ok of ['Abcdefg1', 'Abcdefg1!@#$%^&*', 'aB3aaaaaaaaaaaaa']) expect(PasswordSchema.safeParse(ok).success, ok).toBe(true);
    expect(firstMessage(PasswordSchema.safeParse('Abcdef1'))).toBe('validation.password.length');
    expect(firstMessage(PasswordSchema.safeParse('Abcdefgh12345678x'))).toBe('validation.password.length');
    expect(firstMessage(PasswordSchema.safeParse('abcdefg1'))).toBe('validation.password.rule');
    expect(firstMessage(PasswordSchema.safeParse('ABCDEFG1'))).toBe('validation.password.rule');
    expect(firstMessage(PasswordSchema.safeParse('Abcdefgh'))).toBe('validation.password.rule');
    expect(firstMessage(PasswordSchema.safeParse('Abcd efg1'))).toBe('validation.password.rule');
    expect(firstMessage(PasswordSchema.safeParse(''))).toBe('validation.required');
    expect(isSimplePassword('password')).toBe(true);
    expect(isSimplePassword('Pass-word-9')).toBe(false);
  });

  it('account name: starts with a letter, 6-30, letters digits symbols, no @', () => {
    for (const ok of ['abcdef', 'a_b.c-d9', `a${'b'.repeat(29)}`]) expect(AccountNameSchema.safeParse(ok).success, ok).toBe(true);
    expect(firstMessage(AccountNameSchema.safeParse('1abcdef'))).toBe('validation.accountName.start');
    expect(firstMessage(AccountNameSchema.safeParse('abcde'))).toBe('validation.accountName.length');
    expect(firstMessage(AccountNameSchema.safeParse(`a${'b'.repeat(30)}`))).toBe('validation.accountName.length');
    expect(firstMessage(AccountNameSchema.safeParse('abc def'))).toBe('validation.accountName.chars');
    expect(firstMessage(AccountNameSchema.safeParse('abc@def'))).toBe('validation.accountName.at');
  });

  it('e-mail: standard form, suffix of 2+ letters, at most 40', () => {
    expect(EmailSchema.safeParse('a.b@field-station.cn').success).toBe(true);
    expect(firstMessage(EmailSchema.safeParse('a@b.c'))).toBe('validation.email.invalid');
    expect(firstMessage(EmailSchema.safeParse('no-at.example.com'))).toBe('validation.email.invalid');
    expect(firstMessage(EmailSchema.safeParse(`${'a'.repeat(35)}@b.com`))).toBe('validation.email.length');
    expect(firstMessage(EmailSchema.safeParse(''))).toBe('validation.required');
  });

  it('phone: 11 digits, 1 then 3-9', () => {
    expect(PhoneSchema.safeParse('13912345678').success).toBe(true);
    for (const bad of ['12912345678', '1391234567', '139123456789', '2391234567a']) {
      expect(firstMessage(PhoneSchema.safeParse(bad)), bad).toBe('validation.phone.invalid');
    }
  });

  it('verification code: exactly 4 digits', () => {
    expect(VerificationCodeSchema.safeParse('0427').success).toBe(true);
    for (const bad of ['427', '04270', 'abcd']) expect(firstMessage(VerificationCodeSchema.safeParse(bad))).toBe('validation.code.invalid');
  });

  it('nickname: required, not blank, trimmed', () => {
    expect(NicknameSchema.parse('  Crane  ')).toBe('Crane');
    expect(firstMessage(NicknameSchema.safeParse('   '))).toBe('validation.nickname.required');
  });

  it('map-service key: optional, trimmed, letters and digits, at most 64', () => {
    expect(TdtKeySchema.parse('')).toBe('');
    expect(TdtKeySchema.parse('  0123456789abcdef0123456789ABCDEF \t')).toBe('0123456789abcdef0123456789ABCDEF');
    expect(TdtKeySchema.parse('k'.repeat(64))).toBe('k'.repeat(64));
    expect(firstMessage(TdtKeySchema.safeParse('k'.repeat(65)))).toBe('validation.tdtKey.length');
    for (const bad of ['abc def', 'key;drop', 'key&tk=x', '天地图']) expect(firstMessage(TdtKeySchema.safeParse(bad))).toBe('validation.tdtKey.chars');
  });

  it('weighted display width: above 127 and the caret count 2', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('丹顶鹤')).toBe(6);
    expect(displayWidth('a^b')).toBe(4);
    expect(truncateDisplay('short')).toBe('short');
    const cut = truncateDisplay('东方白鹳东方白鹳东方白鹳东方白鹳');
    expect(displayWidth(cut)).toBeLessThanOrEqual(22 + 1);
    expect(cut.endsWith('…')).toBe(true);
    expect(truncateDisplay('a'.repeat(22))).toBe('a'.repeat(22));
  });

  it('masks e-mail and phone as §9 says', () => {
    expect(maskEmail('ringer@example.org')).toBe('rin***@example.org');
    expect(maskPhone('13912345678')).toBe('139*****678');
  });
});

describe('date presets (§9)', () => {
  // 2026-03-31 10:00 in +08:00
  const now = Date.UTC(2026, 2, 31, 2, 0, 0);
  it('counts the current day up to 15 days back', () => {
    expect(spanRange(1, '+08:00', now)).toEqual({ startTime: '2026-03-31 00:00:00', endTime: '2026-03-31 23:59:59' });
    expect(spanRange(7, '+08:00', now).startTime).toBe('2026-03-25 00:00:00');
    expect(spanRange(15, '+08:00', now).startTime).toBe('2026-03-17 00:00:00');
  });
  it('means calendar months for 30, 90 and 182, whole years from 365', () => {
    expect(spanRange(30, '+08:00', now).startTime).toBe('2026-02-28 00:00:00');
    expect(spanRange(90, '+08:00', now).startTime).toBe('2025-12-31 00:00:00');
    expect(spanRange(182, '+08:00', now).startTime).toBe('2025-09-30 00:00:00');
    expect(spanRange(365, '+08:00', now).startTime).toBe('2025-03-31 00:00:00');
    expect(spanRange(3650, '+08:00', now).startTime).toBe('2016-03-31 00:00:00');
  });
  it('takes "today" in the caller zone', () => {
    expect(spanRange(1, '-12:00', now).startTime).toBe('2026-03-30 00:00:00');
  });
});

describe('input rules of issue 11 (low findings)', () => {
  // Imported lazily so that this block reads as one unit: the calls and helpers the rules live in.
  const load = async () => {
    const [calls, v] = await Promise.all([import('./calls/index.js'), import('./validation.js')]);
    return { calls, v };
  };

  it('refuses an invalid timeZone in every call that takes one, naming the field', async () => {
    const { calls } = await load();
    let seen = 0;
    for (const def of Object.values(calls)) {
      const body = def.body as unknown as { shape?: Record<string, unknown>; safeParse: (v: unknown) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } };
      const shape = body.shape ?? (body as { unwrap?: () => { shape?: Record<string, unknown> } }).unwrap?.()?.shape;
      if (!shape || !('timeZone' in shape)) continue;
      seen += 1;
      for (const zone of ['Mars/Olympus', '+25:00', '+08:30', '8', '']) {
        const r = body.safeParse({ timeZone: zone });
        expect(r.success, `${def.path} ${zone}`).toBe(false);
        expect(r.error!.issues.some((i) => i.path.join('.') === 'timeZone' && i.message === 'validation.timeZone'), `${def.path} ${zone}`).toBe(true);
      }
      const ok = body.safeParse({ timeZone: '+08:00' });
      if (!ok.success) expect(ok.error!.issues.some((i) => i.path.join('.') === 'timeZone'), def.path).toBe(false);
    }
    expect(seen).toBeGreaterThanOrEqual(20);
  });

  it('refuses NUL, bidi overrides and invisible characters in names and animal info texts', async () => {
    const { calls, v } = await load();
    const bad = ['a\u0000b', 'gpj\u202Eexe', 'x\u2066y\u2069', 'two\u200Bwords', '\uFEFFbom', 'soft\u00ADhyphen', 'tag\u{E0041}', 'new\nline', 'bell\u0007'];
    for (const text of bad) expect(v.isPlainText(text), JSON.stringify(text)).toBe(false);
    for (const text of ['东方白鹳 №3', 'Storch-07 (adult)', '👩‍🔬 lab', 'Ciconia boyciana']) expect(v.isPlainText(text), text).toBe(true);
    expect(v.isPlainText('line one\nline two\ttab', { lines: true })).toBe(true);
    expect(v.isPlainText('rtl\u202Eover', { lines: true })).toBe(false);

    const hidden = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
      r.success ? [] : r.error!.issues.filter((i) => i.message === 'validation.hiddenChars').map((i) => i.path.join('.'));
    expect(hidden(calls.CreateFolder.body.safeParse({ name: 'Storks\u202E', parentId: '-1' }))).toEqual(['name']);
    expect(hidden(calls.UpdateFolderName.body.safeParse({ id: '5', name: 'a\u0000' }))).toEqual(['name']);
    expect(hidden(calls.UpdateRemarkName.body.safeParse({ imei: '860000000000001', remarkName: 'x\u200By' }))).toEqual(['remarkName']);
    expect(hidden(calls.UpdateProperty.body.safeParse({ imei: '860000000000001', caption: 'x\u2067' }))).toEqual(['caption']);
    expect(hidden(calls.UpdateProperty.body.safeParse({ imei: '860000000000001', description: 'two\nlines' }))).toEqual([]);
    expect(hidden(calls.UpdateProperty.body.safeParse({ imei: '860000000000001', description: 'x\u202D' }))).toEqual(['description']);
    expect(v.NicknameSchema.safeParse('Ann\u202E').success).toBe(false);
    const info = {
      IMEI: '860000000000001',
      AnimalInfo: { Species: 'Stork\u0000', ScientificName: 'Ciconia\u200B', Sex: 0, Age: 0, Weight: null },
      WorkInfo: { CaptureTime: '', MountTime: '', ReleaseTime: '', ReleaseLon: null, ReleaseLat: null, ReleaseSite: 'Zha\u202Elong', Images: [] },
      AdditionalInfo: [{ Name: 'ri\uFEFFng', Value: 'A\u2066' }],
      Measurements: {},
    };
    expect(hidden(calls.SaveBirdInfo.body.safeParse(info)).sort()).toEqual(
      ['AdditionalInfo.0.Name', 'AdditionalInfo.0.Value', 'AnimalInfo.ScientificName', 'AnimalInfo.Species', 'WorkInfo.ReleaseSite'].sort(),
    );
  });

  it('freeText: the text rule built into a free string field (issue 26 L8), its message naming the field', async () => {
    const { calls, v } = await load();
    const title = v.freeText().trim().max(60, { error: 'validation.tooLong' });
    for (const ch of ['\u0000', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200F', '\u0085', '\uFEFF']) {
      const r = title.safeParse(`Herons${ch}autumn`);
      expect(r.success, JSON.stringify(ch)).toBe(false);
      expect(r.error?.issues[0]?.message).toBe('validation.hiddenChars');
      // at either end too: refused, not trimmed away unseen
      expect(title.safeParse(`${ch}Herons`).success, JSON.stringify(ch)).toBe(false);
    }
    expect(title.safeParse('  白鹭 autumn ').data).toBe('白鹭 autumn');
    expect(v.freeText(undefined, { lines: true }).safeParse('{\n\t"a": 1\n}').success).toBe(true);
    expect(v.freeText(undefined, { lines: true }).safeParse('{"a": "\u202E"}').success).toBe(false);
    // the download task's title, which showed in the "download ready" notice
    const task = { imeis: ['860000000000001'], kinds: ['fix'], startTime: '2026-11-01 00:00:00', endTime: '2026-11-02 00:00:00', fileType: 'csv', timeZone: '+08:00' };
    for (const t of ['a\u0000b', 'gpj\u202Eexe', 'x\u2066y\u2069']) {
      const r = calls.CreateDownloadTask.body.safeParse({ ...task, title: t });
      expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['title', 'validation.hiddenChars']]);
    }
    expect(calls.CreateDownloadTask.body.safeParse({ ...task, title: 'Herons autumn' }).success).toBe(true);
  });

  it('takes only this server\'s upload addresses in image fields', async () => {
    const { v } = await load();
    const own = '/prod-api/files/uploads/12/0123456789abcdef0123456789abcdef.jpg';
    expect(v.ImageUrlSchema.safeParse(own).success).toBe(true);
    expect(v.parseUploadUrl(own)).toEqual({ org: '12', name: '0123456789abcdef0123456789abcdef.jpg' });
    for (const url of [
      'https://evil.example/x.jpg',
      '//evil.example/prod-api/files/uploads/12/0123456789abcdef0123456789abcdef.jpg',
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)//prod-api/files/uploads/12/0123456789abcdef0123456789abcdef.jpg',
      'data:image/png;base64,AAAA',
      '/prod-api/files/uploads/12/../../etc/passwd',
      '/prod-api/files/uploads/12/0123456789abcdef0123456789abcdef.svg',
      `${own}?x=1`,
      `http://localhost${own}`,
    ]) {
      const r = v.ImageUrlSchema.safeParse(url);
      expect(r.success, url).toBe(false);
      expect(r.error!.issues[0]!.message, url).toBe('validation.imageUrl');
    }
  });

  it('refuses a reversed range in the calls whose range is optional, naming endTime', async () => {
    const { calls } = await load();
    for (const def of [calls.GetConvertedInvalidCount, calls.GetConvertedInvalidListPage]) {
      const r = def.body.safeParse({ imei: '860000000000001', startTime: '2025-05-02 00:00:00', endTime: '2025-05-01 23:59:59' });
      expect(r.success, def.path).toBe(false);
      expect(r.error!.issues.map((i) => [i.path.join('.'), i.message]), def.path).toEqual([['endTime', 'validation.timeRange']]);
      expect(def.body.safeParse({ imei: '860000000000001', startTime: '2025-05-01 00:00', endTime: '2025-05-01T00:00:00' }).success, def.path).toBe(true);
      expect(def.body.safeParse({ imei: '860000000000001', startTime: '2025-05-01 00:00:00' }).success, def.path).toBe(true);
    }
  });
});

describe('animal info as stored and as sent', () => {
  it('answers what is stored even when it predates the input rules, and refuses it in a save', async () => {
    const calls = await import('./calls/index.js');
    const stored = {
      IMEI: '860000000000001',
      AnimalInfo: { Species: 'Stork', ScientificName: 'Ciconia', Sex: 0, Age: 0, Weight: null },
      WorkInfo: { CaptureTime: '', MountTime: '', ReleaseTime: '', ReleaseLon: null, ReleaseLat: null, ReleaseSite: '', Images: ['https://old.example/photo.jpg'] },
      AdditionalInfo: [{ Name: 'comments', Value: 'caught at dawn\nringed left leg' }],
      Measurements: {},
    };
    expect(calls.GetBirdInfo.data.safeParse(stored).success).toBe(true);
    expect(calls.GetBeastInfo.data.safeParse(stored).success).toBe(true);
    expect(calls.GetOtherSpeciesInfo.data.safeParse(stored).success).toBe(true);
    const save = calls.SaveBirdInfo.body.safeParse(stored);
    expect(save.success).toBe(false);
    expect(save.error!.issues.map((i) => i.path.join('.')).sort()).toEqual(['AdditionalInfo.0.Value', 'WorkInfo.Images.0']);
  });
});
