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
