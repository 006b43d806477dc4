import { describe, expect, it } from 'vitest';
import { callerOf, callerZone } from './caller.js';

describe('the caller', () => {
  it("takes the call's time zone when it is one of the offered zones, else the user's setting", () => {
    expect(callerZone('+05:00', '+08:00')).toBe('+05:00');
    expect(callerZone('UTC-03:00', '+08:00')).toBe('UTC-03:00');
    for (const bad of [undefined, null, '', '+13:00', '+05:30', 'Asia/Shanghai', 5]) expect(callerZone(bad, '+08:00'), String(bad)).toBe('+08:00');
  });

  it('is the session, the language, the zone and the organisation, with the user setting kept out', () => {
    const signedIn = { sessionId: 7, userId: 3, orgId: 2, timeZone: '-04:00', orgName: 'Crane Lab' };
    expect(callerOf(signedIn, 'zh')).toEqual({ session: { sessionId: 7, userId: 3, orgId: 2 }, lang: 'zh', zone: '-04:00', orgName: 'Crane Lab' });
    expect(callerOf(signedIn, 'en', '+01:00').zone).toBe('+01:00');
  });
});
