import { offsetOfDate } from '@wildtrack/contract';
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it } from 'vitest';
import { rememberTimeZone } from '../../../lib/session';
import { loginResult } from '../../../test/fixtures';
import { needsSafetyPrompt, signInTimeZone } from './useSignIn';

afterEach(() => Cookies.remove('wildtrack_chosen_time_zone', { path: '/' }));

describe('sign-in values', () => {
  it("sends the browser's time zone unless the user chose one", () => {
    const now = new Date(Date.UTC(2026, 10, 1));
    expect(signInTimeZone(now)).toBe(offsetOfDate(now));
    rememberTimeZone('-05:00');
    expect(signInTimeZone(now)).toBe('-05:00');
  });

  it('asks for the safety prompt only when neither e-mail nor phone is set', () => {
    const safe = (Email: string, Phone: string) => loginResult({}, { SafeSetting: { CountryCode: '86', Email, Phone, PasswordOnly: false } });
    expect(needsSafetyPrompt(safe('', ''))).toBe(true);
    expect(needsSafetyPrompt(safe('a@b.cn', ''))).toBe(false);
    expect(needsSafetyPrompt(safe('', '13800000000'))).toBe(false);
  });
});
