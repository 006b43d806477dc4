import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calls,
  Code,
  generateSealKeyPair,
  newRequestCode,
  openSecret,
  QR_LOGIN_POLL_MS,
  QR_LOGIN_VALID_MS,
  sealSecret,
  sessionCredential,
  toBase64,
} from '@wildtrack/contract';
import { createTestApp, DIALECTS, type Envelope, type TestApp } from '../../test/helper.js';
import { QR_POLL_WINDOW_MS, QR_POLLS_PER_WINDOW } from './service.js';
import { advanceClock, useFixedClock } from '../../test/clock.js';
import { BASE } from '../../test/fixed-time.js';

/** QR sign-in (contract calls/qrlogin.ts): ask, scan, confirm or decline, poll; expiry, second use, rules. */
describe.each(DIALECTS)('QR sign-in on %s', (dialect) => {
  // Each test starts at BASE, the start of a poll window (QR_POLL_WINDOW_MS), the server's clock held there.
  useFixedClock(BASE);
  let t: TestApp;
  let phone: { token: string; userName: string };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    phone = await t.userWithToken();
  });
  afterAll(async () => t.close());

  /** A call with the named fields sealed to the server key for its request code, as the console sends them. */
  const sealed = async (path: string, body: Record<string, unknown>, fields: string[], opts: { token?: string; requestCode?: string } = {}) => {
    const publicKey = ((await t.call(calls.GetPublicKey.path, {})).body.Data as { PublicKey: string }).PublicKey;
    const requestCode = opts.requestCode ?? newRequestCode();
    const out = { ...body };
    for (const f of fields) out[f] = sealSecret(publicKey, String(body[f]), requestCode);
    return (await t.call(path, out, { token: opts.token, requestCode, lang: 'en' })).body;
  };
  const ask = async (): Promise<{ Code: string; Ticket: string; ExpiresIn: number }> => {
    const r = await t.call(calls.GetLoginQRCode.path, {}, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' } });
    expect(r.body.Code).toBe(Code.Success);
    return calls.GetLoginQRCode.data.parse(r.body.Data);
  };
  /** The waiting page's poll; `credential` is the session when the answer carried one (its token opened with the poll's key). */
  const poll = async (code: string, ticket: string): Promise<{ body: Envelope; credential: string | undefined }> => {
    const pair = generateSealKeyPair();
    const requestCode = newRequestCode();
    const body = await sealed(calls.QRCodeLogin.path, { code, ticket, timeZone: '+08:00', clientKey: toBase64(pair.publicKey) }, ['code', 'ticket'], { requestCode });
    const data = body.Data as { Token?: string; SessionId?: string } | null;
    const credential = data?.Token && data.SessionId ? sessionCredential(data.SessionId, openSecret(pair.secretKey, data.Token, requestCode, 'token')) : undefined;
    return { body, credential };
  };
  const request = (code: string, token = phone.token) => sealed(calls.GetQRCodeLoginRequest.path, { code }, ['code'], { token });
  const confirm = (code: string, accept: boolean, token = phone.token) => sealed(calls.ConfirmQRCodeLogin.path, { code, accept }, ['code'], { token });
  const refusal = (body: Envelope) => [body.Code, body.Msg];
  const EXPIRED = [Code.Failed, 'The QR code has expired; refresh it'];
  const USED = [Code.Failed, 'The QR code was already used; refresh it'];

  it('signs in the waiting page as the confirming user, once', async () => {
    const qr = await ask();
    expect(qr.ExpiresIn).toBe(120);
    expect(qr.Code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // only hashes are stored
    const rows = await t.database.db.selectFrom('qr_logins').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(qr.Code);
    expect(JSON.stringify(rows)).not.toContain(qr.Ticket);

    // not confirmed yet: the poll says so, and carries no token
    expect((await poll(qr.Code, qr.Ticket)).body).toEqual({ Code: Code.Success, Msg: expect.any(String), Data: { Status: 'Waiting' } });
    // the phone opens the link: it sees which browser asks, for its own account; the page then says Scanned
    const seen = await request(qr.Code);
    expect(seen.Code).toBe(Code.Success);
    expect(seen.Data).toMatchObject({ UserName: phone.userName, UserAgent: expect.stringContaining('Chrome/131.0'), ExpiresIn: expect.any(Number) });
    expect((await poll(qr.Code, qr.Ticket)).body.Data).toEqual({ Status: 'Scanned' });

    expect((await confirm(qr.Code, true)).Code).toBe(Code.Success);
    const signedIn = await poll(qr.Code, qr.Ticket);
    expect(signedIn.body.Code).toBe(Code.Success);
    const result = calls.QRCodeLogin.data.parse(signedIn.body.Data);
    expect(result).toMatchObject({ Status: 'Confirmed', UserName: phone.userName, MustChangePassword: false });
    expect((result as { Token: string }).Token).toMatch(/^wt1\./);
    // a working session of its own, not the phone's
    expect(signedIn.credential).toBeDefined();
    expect(signedIn.credential).not.toBe(phone.token);
    expect((await t.call(calls.Heartbeat.path, {}, { token: signedIn.credential })).body.Code).toBe(Code.Success);

    // a second use, by poll or by the phone, is refused
    expect(refusal((await poll(qr.Code, qr.Ticket)).body)).toEqual(USED);
    expect(refusal(await confirm(qr.Code, true))).toEqual(USED);
    expect(refusal(await request(qr.Code))).toEqual(USED);
  });

  it('declined: the page is told, and the code is dead', async () => {
    const qr = await ask();
    expect((await confirm(qr.Code, false)).Code).toBe(Code.Success);
    const r = await poll(qr.Code, qr.Ticket);
    expect([r.body.Code, r.body.Msg, r.credential]).toEqual([Code.Failed, 'The sign-in was declined', undefined]);
    expect(refusal(await confirm(qr.Code, true))).toEqual(USED);
  });

  it('refuses after 2 minutes: confirming, polling and a confirmed code alike', async () => {
    const late = await ask();
    const confirmedLate = await ask();
    expect((await confirm(confirmedLate.Code, true)).Code).toBe(Code.Success);
    advanceClock(QR_LOGIN_VALID_MS - 2_000);
    expect((await poll(late.Code, late.Ticket)).body.Data).toEqual({ Status: 'Waiting' });
    advanceClock(2_001);
    expect(refusal(await request(late.Code))).toEqual(EXPIRED);
    expect(refusal(await confirm(late.Code, true))).toEqual(EXPIRED);
    expect(refusal((await poll(late.Code, late.Ticket)).body)).toEqual(EXPIRED);
    const r = await poll(confirmedLate.Code, confirmedLate.Ticket);
    expect([...refusal(r.body), r.credential]).toEqual([...EXPIRED, undefined]);
  });

  it('the code alone is not enough to poll: a wrong ticket, or no code, is answered as an expired code', async () => {
    const qr = await ask();
    const other = await ask();
    expect((await confirm(qr.Code, true)).Code).toBe(Code.Success);
    const stranger = await poll(qr.Code, other.Ticket);
    expect([...refusal(stranger.body), stranger.credential]).toEqual([...EXPIRED, undefined]);
    expect(refusal((await poll('A'.repeat(43), qr.Ticket)).body)).toEqual(EXPIRED);
    // the right page still signs in after the stranger's try
    expect((await poll(qr.Code, qr.Ticket)).credential).toBeDefined();
  });

  it('a code polled more than once a second on average is expired, for good; a stranger\'s polls do not count', async () => {
    // at the start of a window of the limit (BASE), the clock held: every poll below falls in that one window
    const qr = await ask();
    const other = await ask();
    // someone who saw the QR code polls it without the page's ticket: refused, and the page's code lives on
    for (let i = 0; i <= QR_POLLS_PER_WINDOW; i++) expect(refusal((await poll(qr.Code, other.Ticket)).body)).toEqual(EXPIRED);
    for (let i = 0; i < QR_POLLS_PER_WINDOW; i++) expect((await poll(qr.Code, qr.Ticket)).body.Data).toEqual({ Status: 'Waiting' });
    expect(refusal((await poll(qr.Code, qr.Ticket)).body)).toEqual(EXPIRED);
    // expired indeed: in the next window too, and for the phone
    advanceClock(QR_POLL_WINDOW_MS);
    expect(refusal((await poll(qr.Code, qr.Ticket)).body)).toEqual(EXPIRED);
    expect(refusal(await confirm(qr.Code, true))).toEqual(EXPIRED);
    // the other code, polled at the page's pace, is not touched
    for (let i = 0; i < 4; i++) {
      expect((await poll(other.Code, other.Ticket)).body.Data).toEqual({ Status: 'Waiting' });
      advanceClock(QR_LOGIN_POLL_MS);
    }
  });

  it('confirming needs a session; a bad code is 601 naming it', async () => {
    const qr = await ask();
    const noToken = await sealed(calls.ConfirmQRCodeLogin.path, { code: qr.Code, accept: true }, ['code']);
    expect(noToken.Code).toBe(Code.SessionExpired);
    expect((await sealed(calls.GetQRCodeLoginRequest.path, { code: qr.Code }, ['code'])).Code).toBe(Code.SessionExpired);
    expect((await poll(qr.Code, qr.Ticket)).body.Data).toEqual({ Status: 'Waiting' });
    const bad = await sealed(calls.ConfirmQRCodeLogin.path, { code: 'short', accept: true }, ['code'], { token: phone.token });
    expect([bad.Code, (bad.Data as { Field?: string }).Field]).toEqual([Code.Invalid, 'code']);
    const noAccept = await sealed(calls.ConfirmQRCodeLogin.path, { code: qr.Code }, ['code'], { token: phone.token });
    expect([noAccept.Code, (noAccept.Data as { Field?: string }).Field]).toEqual([Code.Invalid, 'accept']);
    // nothing changed: the code still waits
    expect((await poll(qr.Code, qr.Ticket)).body.Data).toEqual({ Status: 'Waiting' });
  });

  it('goes through the sign-in rules: a lock, a disabled account, a temporary password', async () => {
    const user = await t.userWithToken();
    const row = await t.database.db.selectFrom('users').select('id').where('user_name', '=', user.userName).executeTakeFirstOrThrow();
    const userId = Number(row.id);

    // locked (5 wrong passwords): the confirmed code is refused with the lock
    const locked = await ask();
    expect((await confirm(locked.Code, true, user.token)).Code).toBe(Code.Success);
    for (let i = 0; i < 5; i++) await t.login(user.userName, 'Not-The-One-9');
    expect((await poll(locked.Code, locked.Ticket)).body.Code).toBe(Code.AccountLocked);
    await t.database.db.deleteFrom('sign_in_failures').execute();

    // a temporary password: the sign-in says it must be changed, and the confirming session can't confirm
    const temporary = await ask();
    expect((await confirm(temporary.Code, true, user.token)).Code).toBe(Code.Success);
    await t.database.db.updateTable('users').set({ must_change_password: 1 }).where('id', '=', userId).execute();
    const mustChange = await poll(temporary.Code, temporary.Ticket);
    expect(calls.QRCodeLogin.data.parse(mustChange.body.Data)).toMatchObject({ Status: 'Confirmed', MustChangePassword: true });
    const another = await ask();
    expect((await confirm(another.Code, true, mustChange.credential)).Code).toBe(Code.Forbidden);
    await t.database.db.updateTable('users').set({ must_change_password: 0 }).where('id', '=', userId).execute();

    // disabled after confirming: refused as a password sign-in of a disabled account is
    const disabled = await ask();
    expect((await confirm(disabled.Code, true, user.token)).Code).toBe(Code.Success);
    await t.database.db.updateTable('users').set({ enabled: 0 }).where('id', '=', userId).execute();
    const r = await poll(disabled.Code, disabled.Ticket);
    expect([r.body.Code, r.credential]).toEqual([Code.SignInFailed, undefined]);
    expect(r.body.Msg).toBe("This account is disabled; ask your organisation's primary user");
  });
});
