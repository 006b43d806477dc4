import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  Code,
  fromBase64,
  generateSealKeyPair,
  imageKey,
  isSimplePassword,
  type LoginResult,
  openSecret,
  QR_LOGIN_VALID_MS,
  type QrLoginStatus,
  sealSecret,
  signingKey,
  toBase64,
} from '@wildtrack/contract';
import argon2 from 'argon2';
import type { SignedIn, Signer } from '../../http/caller.js';
import { AppError, sessionExpired } from '../../http/errors.js';
import { Listeners } from '../../lib/listeners.js';
import { hashPassword, type UserService } from '../user/service.js';
import type { RateCounters } from '../../shared-state/index.js';
import { markCookie, marksOf } from './known-browser.js';
import type { AuthRepository, QrLoginRow } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

/**
 * How long a session found by its id is used without reading it again, in one process. A sign-out or
 * an idle expiry in this process drops it at once; a session ended elsewhere (another process, `wildtrack
 * end-sessions`) stops working here within this time. With REDIS_URL (several processes meant to agree at
 * once) the server passes 0: every call reads its session. Under bench/load a signed call's session
 * lookup was one of its 3-4 queries (on PostgreSQL a round trip each).
 */
export const SESSION_CACHE_MS = 1_000;
/** At most this many sessions kept; the oldest entry goes first. */
const SESSION_CACHE_MAX = 10_000;

/**
 * The waiting page's polls of one QR code (QRCodeLogin with its code and ticket), in a fixed window: the page
 * asks every 3 s (QR_LOGIN_POLL_MS), so more than one a second on average is not that page. Past it the
 * code is expired and answered as one; the page shows a new code. Counted across processes (shared-state/)
 * by the code's hash, only for polls with the right ticket, so someone who saw the QR code can't spend the
 * page's code; over the code's 2 minutes that is at most about 130 polls, whatever the addresses.
 */
export const QR_POLL_WINDOW_MS = 10_000;
export const QR_POLLS_PER_WINDOW = 10;

export const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const SIGN_IN_FAILURE_LIMIT = 5;
export const SIGN_IN_LOCK_MS = 15 * 60_000;

/** A new session's id: 16 random bytes, base64url (22 characters). Not secret: it names the session on the wire. */
function newSessionId(): string {
  return randomBytes(16).toString('base64url');
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Who signs in from where; the request code is the sealed token's associated data. */
export interface SignInMeta {
  ip: string;
  userAgent: string;
  requestCode: string;
}

export class AuthService {
  private sealKey: Promise<{ publicKey: string; secretKey: Uint8Array }> | undefined;
  private knownKey: Promise<Buffer> | undefined;
  /** Verified against when the account doesn't exist, so both paths take the same time. */
  private dummyHash: Promise<string> | undefined;
  /** last_seen_at is written at most this often per session, so most requests only read. */
  private readonly touchIntervalMs: number;
  /** Sessions found lately, by public id, until when each may be used without reading it again. */
  private readonly found = new Map<string, { signer: Signer; until: number }>();

  constructor(
    private readonly auth: AuthRepository,
    private readonly users: UserService,
    private readonly sessionIdleMs: number,
    private readonly sessionCacheMs = SESSION_CACHE_MS,
    /** The shared counters of the QR polls' limit (the server passes them; without, polls are not counted). */
    private readonly counters?: RateCounters,
  ) {
    this.touchIntervalMs = Math.min(60_000, Math.floor(sessionIdleMs / 10));
  }

  /** The X25519 key that passwords are sealed to: made on first use, then kept in the database. */
  publicKey(): Promise<{ publicKey: string; secretKey: Uint8Array }> {
    this.sealKey ??= (async () => {
      let row = await this.auth.getKey('password-seal');
      if (!row) {
        const kp = generateSealKeyPair();
        await this.auth.insertKey('password-seal', toBase64(kp.publicKey), toBase64(kp.secretKey), clockNow());
        row = await this.auth.getKey('password-seal');
        if (!row) throw new Error('could not store the sealing key');
      }
      return { publicKey: row.public_key, secretKey: fromBase64(row.secret_key) };
    })();
    this.sealKey.catch(() => (this.sealKey = undefined));
    return this.sealKey;
  }

  /** The key the known-browser marks are made with (known-browser.ts): made on first use, kept in the database. */
  private knownSecret(): Promise<Buffer> {
    this.knownKey ??= (async () => {
      let row = await this.auth.getKey('known-browser');
      if (!row) {
        await this.auth.insertKey('known-browser', '', randomBytes(32).toString('base64'), clockNow());
        row = await this.auth.getKey('known-browser');
        if (!row) throw new Error('could not store the known-browser key');
      }
      return Buffer.from(row.secret_key, 'base64');
    })();
    this.knownKey.catch(() => (this.knownKey = undefined));
    return this.knownKey;
  }

  /** The id of the request's mark for the user when its browser signed in to that account before (a Cookie header); else undefined. */
  async knownBrowser(cookieHeader: string | undefined, userId: number): Promise<string | undefined> {
    if (!cookieHeader) return undefined;
    return marksOf(cookieHeader, await this.knownSecret(), clockNow()).find((m) => m.userId === userId)?.id;
  }

  /** The Set-Cookie header marking the browser of a sign-in as known to the user's account. */
  async markBrowser(cookieHeader: string | undefined, userId: number, secure: boolean): Promise<string> {
    return markCookie(cookieHeader, userId, await this.knownSecret(), clockNow(), secure);
  }

  async openSealed(field: string, sealed: string, requestCode: string): Promise<string> {
    const { secretKey } = await this.publicKey();
    try {
      return openSecret(secretKey, sealed, requestCode);
    } catch {
      throw new AppError(Code.BadCiphertext, 'error.badCiphertext', { field });
    }
  }

  /** Signs in with the account's name or e-mail and its password (the session: startSession). */
  async login(
    input: { account: string; password: string; timeZone: string; clientKey: string },
    meta: SignInMeta,
  ): Promise<LoginResult> {
    const now = clockNow();
    const accountKey = input.account.trim().toLowerCase();
    const user = await this.users.credentials(accountKey);
    // Failures count per account, whichever of its names was typed (user name or e-mail: 5 guesses in
    // all, not 5 per name); a name that is no account counts on its own, so it locks the same way and
    // a lock reveals nothing about which accounts exist.
    const lockKey = user ? `user:${user.userId}` : `name:${accountKey}`;
    await this.refuseLocked(lockKey, now);
    this.dummyHash ??= hashPassword('Dummy-password-1');
    const valid = await argon2.verify(user?.passwordHash ?? (await this.dummyHash), input.password).catch(() => false);
    if (!user || !valid) return this.failed(lockKey, now, new AppError(Code.SignInFailed, 'auth.failed'));
    return this.startSession(user, lockKey, { timeZone: input.timeZone, clientKey: input.clientKey, weakPassword: isSimplePassword(input.password) }, meta);
  }

  /**
   * Signs in with a one-time code (the phone-code sign-in): the same lock as the password (`user:<id>`
   * for an account, `lockName` when the address has none, so both lock alike), `useCode` throws the
   * refusal for a wrong code, which counts as a failed sign-in; then the same session as the password's.
   */
  async loginWithCode(
    input: { userId: number | undefined; lockName: string; timeZone: string; clientKey: string },
    useCode: () => Promise<void>,
    meta: SignInMeta,
  ): Promise<LoginResult> {
    const now = clockNow();
    const lockKey = input.userId === undefined ? input.lockName : `user:${input.userId}`;
    await this.refuseLocked(lockKey, now);
    try {
      await useCode();
    } catch (err) {
      if (err instanceof AppError) await this.failed(lockKey, now, err);
      throw err;
    }
    // A right code for an address no account has can't be known (nothing was sent), but answers alike.
    const user = input.userId === undefined ? undefined : await this.users.credentialsById(input.userId);
    if (!user) throw new AppError(Code.Failed, 'security.codeWrong');
    return this.startSession(user, lockKey, { timeZone: input.timeZone, clientKey: input.clientKey, weakPassword: false }, meta);
  }

  /* ---- QR sign-in (contract calls/qrlogin.ts) ---- */

  /** A new QR sign-in code for the page that asks (its address and browser are shown to the confirming console). */
  async createQrLogin(meta: { ip: string; userAgent: string }): Promise<{ Code: string; Ticket: string; ExpiresIn: number }> {
    const now = clockNow();
    const code = randomBytes(32).toString('base64url');
    const ticket = randomBytes(32).toString('base64url');
    await this.auth.insertQrLogin({
      code_hash: sha256(code),
      ticket_hash: sha256(ticket),
      ip: meta.ip,
      user_agent: meta.userAgent.slice(0, 300),
      created_at: now,
      expires_at: now + QR_LOGIN_VALID_MS,
    });
    return { Code: code, Ticket: ticket, ExpiresIn: QR_LOGIN_VALID_MS / 1000 };
  }

  /**
   * The code's row while it may still be confirmed (waiting or scanned, not expired); otherwise the
   * refusal: expired (an unknown code too: the page refreshes either way) or used.
   */
  private async openQrLogin(code: string, now: number): Promise<QrLoginRow> {
    const row = await this.auth.findQrLogin(sha256(code));
    if (!row || Number(row.expires_at) <= now) throw new AppError(Code.Failed, 'qr.expired');
    if (row.status !== 'waiting' && row.status !== 'scanned') throw new AppError(Code.Failed, 'qr.used');
    return row;
  }

  /** What the confirming console shows: which browser asks, from where, for which account (the caller's). */
  async qrLoginRequest(code: string, userId: number): Promise<{ UserAgent: string; Ip: string; CreatedAt: number; ExpiresIn: number; UserName: string }> {
    const now = clockNow();
    const row = await this.openQrLogin(code, now);
    // the waiting page then says the code was scanned
    await this.auth.moveQrLogin(Number(row.id), ['waiting'], 'scanned', now);
    const profile = await this.users.getUser(userId);
    return {
      UserAgent: row.user_agent,
      Ip: row.ip,
      CreatedAt: Number(row.created_at),
      ExpiresIn: Math.max(0, Math.ceil((Number(row.expires_at) - now) / 1000)),
      UserName: profile.UserName,
    };
  }

  /** The signed-in caller allows the code's sign-in as their own account, or declines it: once. */
  async confirmQrLogin(code: string, accept: boolean, userId: number): Promise<void> {
    const now = clockNow();
    const row = await this.openQrLogin(code, now);
    const moved = await this.auth.moveQrLogin(Number(row.id), ['waiting', 'scanned'], accept ? 'confirmed' : 'declined', now, accept ? userId : undefined);
    if (!moved) throw new AppError(Code.Failed, 'qr.used');
  }

  /**
   * The waiting page's poll (needs the code and the ticket only that page has): its status until
   * confirmed, then, once, a session of the confirming user through the lock and session rules of
   * every sign-in (a locked or disabled account is refused; the code is spent either way).
   */
  async loginByQr(
    input: { code: string; ticket: string; timeZone: string; clientKey: string },
    meta: SignInMeta,
  ): Promise<{ Status: 'Waiting' | 'Scanned' } | (LoginResult & { Status: 'Confirmed' })> {
    const now = clockNow();
    const row = await this.auth.findQrLogin(sha256(input.code));
    // a wrong ticket is answered as an unknown code: the code alone (seen on the screen) tells nothing
    if (!row || !sameHash(row.ticket_hash, sha256(input.ticket)) || Number(row.expires_at) <= now) throw new AppError(Code.Failed, 'qr.expired');
    if (this.counters && (await this.counters.hit(`qr-poll:${row.code_hash}`, now, QR_POLL_WINDOW_MS)).hits > QR_POLLS_PER_WINDOW) {
      await this.auth.expireQrLogin(Number(row.id), now);
      throw new AppError(Code.Failed, 'qr.expired');
    }
    const status = row.status as Lowercase<QrLoginStatus> | 'used';
    if (status === 'waiting') return { Status: 'Waiting' };
    if (status === 'scanned') return { Status: 'Scanned' };
    if (status === 'declined') throw new AppError(Code.Failed, 'qr.declined');
    if (status !== 'confirmed' || row.user_id === null || !(await this.auth.moveQrLogin(Number(row.id), ['confirmed'], 'used', now))) {
      throw new AppError(Code.Failed, 'qr.used');
    }
    const lockKey = `user:${Number(row.user_id)}`;
    await this.refuseLocked(lockKey, now);
    const user = await this.users.credentialsById(Number(row.user_id));
    if (!user) throw new AppError(Code.Failed, 'qr.expired');
    const result = await this.startSession(user, lockKey, { timeZone: input.timeZone, clientKey: input.clientKey, weakPassword: false }, meta);
    return { ...result, Status: 'Confirmed' };
  }

  /** Forgets QR codes expired more than an hour ago. */
  async sweepQrLogins(now = clockNow()): Promise<number> {
    return this.auth.deleteQrLoginsBefore(now - 60 * 60_000);
  }

  private async refuseLocked(lockKey: string, now: number): Promise<void> {
    const lock = await this.auth.lockedUntil(lockKey);
    if (lock && lock.locked_until > now) {
      throw new AppError(Code.AccountLocked, 'auth.locked', { minutes: Math.ceil((lock.locked_until - now) / 60_000) });
    }
  }

  /** Counts a failed sign-in and throws: the lock when this one locked the account, else the refusal. */
  private async failed(lockKey: string, now: number, refusal: AppError): Promise<never> {
    const until = await this.auth.recordFailure(lockKey, now, SIGN_IN_WINDOW_MS, SIGN_IN_FAILURE_LIMIT, SIGN_IN_LOCK_MS);
    if (until > 0) throw new AppError(Code.AccountLocked, 'auth.locked', { minutes: Math.ceil(SIGN_IN_LOCK_MS / 60_000) });
    throw refusal;
  }

  /**
   * Starts the session of a user who proved who they are (every sign-in path ends here). The token is
   * made here, sealed to the client's key for this request code and forgotten: the session keeps only
   * its signing key (docs/api.md, "Sessions and signing").
   */
  private async startSession(
    user: { userId: number; enabled: boolean; mustChangePassword: boolean },
    lockKey: string,
    input: { timeZone: string; clientKey: string; weakPassword: boolean },
    meta: SignInMeta,
  ): Promise<LoginResult> {
    const now = clockNow();
    await this.auth.clearFailures(lockKey);
    // Told only to who proved the account: a disabled account is not revealed to a guesser.
    if (!user.enabled) throw new AppError(Code.SignInFailed, 'auth.disabled');
    const token = randomBytes(32).toString('base64url');
    const sessionId = newSessionId();
    const key = Buffer.from(signingKey(token)).toString('hex');
    await this.auth.createSession({ public_id: sessionId, signing_key: key, user_id: user.userId, now, ip: meta.ip, user_agent: meta.userAgent.slice(0, 300) });
    await this.users.setSignInTimeZone(user.userId, input.timeZone);
    await this.users.recordSignIn(user.userId, now);
    const profile = await this.users.getUser(user.userId);
    const allRights = { EditDevice: true, EditFix: true, RemoteInstr: true, ShareDevice: true, DownloadData: true };
    return {
      Token: sealSecret(input.clientKey, token, meta.requestCode, 'token'),
      SessionId: sessionId,
      UserName: profile.UserName,
      ExperienceFunc: profile.ExperienceFunc,
      Permissions: { IsPrimary: profile.IsPrimary, OwnDevices: allRights },
      WeakPassword: input.weakPassword,
      MustChangePassword: user.mustChangePassword,
      User: profile,
    };
  }

  /** The session a request names by its id (x-session), with its signing key; nothing is written. */
  async signer(publicId: string): Promise<Signer | undefined> {
    const now = clockNow();
    const hit = this.found.get(publicId);
    if (hit && hit.until > now) return hit.signer;
    if (hit) this.found.delete(publicId);
    const row = await this.auth.findSession(publicId);
    // An id that names no session is not remembered: anyone can send such ids.
    if (!row) return undefined;
    const signer: Signer = {
      sessionId: Number(row.id),
      userId: Number(row.user_id),
      orgId: Number(row.org_id),
      timeZone: row.time_zone,
      orgName: row.org_name,
      key: Buffer.from(row.signing_key, 'hex'),
      lastSeenAt: Number(row.last_seen_at),
      mustChangePassword: Number(row.must_change_password) === 1,
    };
    if (this.sessionCacheMs > 0) {
      if (this.found.size >= SESSION_CACHE_MAX) this.found.delete(this.found.keys().next().value as string);
      this.found.set(publicId, { signer, until: now + this.sessionCacheMs });
    }
    return signer;
  }

  /** Forgets a session this process may hold (signed out, expired): its next call reads the database. */
  private forget(sessionId: number): void {
    for (const [publicId, { signer }] of this.found) if (signer.sessionId === sessionId) this.found.delete(publicId);
  }

  /**
   * The live session of a request whose signature checked out with its key, or 1004 when there is none
   * or it was idle past the limit (then it is deleted). Use moves last_seen_at forward.
   */
  async resolveSession(signer: Signer | undefined): Promise<SignedIn> {
    if (!signer) throw sessionExpired();
    const now = clockNow();
    if (now - signer.lastSeenAt > this.sessionIdleMs) {
      this.forget(signer.sessionId);
      await this.auth.deleteSession(signer.sessionId);
      throw sessionExpired();
    }
    if (now - signer.lastSeenAt > this.touchIntervalMs) {
      await this.auth.touchSession(signer.sessionId, now);
      // the kept copy too, so that the next calls neither touch again nor count idleness from the old time
      signer.lastSeenAt = now;
    }
    const { sessionId, userId, orgId, timeZone, orgName, mustChangePassword } = signer;
    return { sessionId, userId, orgId, timeZone, orgName, ...(mustChangePassword ? { mustChangePassword } : {}) };
  }

  /**
   * The session of an image cookie, `<SessionId>.<image key>` (wire.ts imageKey): an <img> can't sign,
   * so the browser proves the session with a key derived from its signing key, good for pictures only.
   */
  async resolveImageCookie(value: string | undefined): Promise<SignedIn> {
    const dot = value?.indexOf('.') ?? -1;
    if (!value || dot !== 22 || value.length > 200) throw sessionExpired(); // ids are 22 characters (newSessionId)
    const signer = await this.signer(value.slice(0, dot));
    const given = Buffer.from(value.slice(dot + 1), 'hex');
    if (!signer) throw sessionExpired();
    const expected = Buffer.from(imageKey(signer.key), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw sessionExpired();
    return this.resolveSession(signer);
  }

  async exit(sessionId: number): Promise<void> {
    this.forget(sessionId);
    await this.auth.deleteSession(sessionId);
    // again: a call of the same session read it while the row was being deleted
    this.forget(sessionId);
    this.signOuts.emit(sessionId);
  }

  /** Adds a listener told of each sign-out (live delivery closes the session's streams in every process); returns its removal. */
  onSignOut(listener: (sessionId: number) => void): () => void {
    return this.signOuts.add(listener);
  }
  private readonly signOuts = new Listeners<[sessionId: number]>('a sign-out');

  /**
   * Ends every session of a user (disabled, or given a temporary password) as a sign-out does, each one:
   * at once in this process, elsewhere within SESSION_CACHE_MS.
   */
  async endUserSessions(userId: number): Promise<number> {
    const ids = await this.auth.sessionIdsOf(userId);
    for (const id of ids) await this.exit(id);
    return ids.length;
  }

  /** A session's user changed what its calls depend on (a temporary password changed): its next call reads it again. */
  refresh(sessionId: number): void {
    this.forget(sessionId);
  }

  /**
   * Forgets failed sign-ins that no longer count (their 15-minute window and any lock have passed): a
   * name typed once, account or not, leaves no row for good.
   */
  async sweepSignInFailures(now = clockNow()): Promise<number> {
    return this.auth.deleteStaleFailures(now - SIGN_IN_WINDOW_MS, now);
  }

  async sweepIdleSessions(): Promise<number> {
    return this.auth.deleteIdleSessions(clockNow() - this.sessionIdleMs);
  }
}
