import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  Code,
  CODE_LENGTH,
  CODE_MAX_TRIES,
  CODE_RESEND_MS,
  CODE_VALID_MS,
  type CodeSent,
  CODES_PER_ADDRESS_HOUR,
  CODES_PER_IP_HOUR,
  EMAIL_PATTERN,
  type Lang,
  LanguageId,
  maskEmail,
  maskPhone,
  message,
  PHONE_COUNTRY_CODE,
  type SafeSetting,
  type SimpleUser,
  VERIFIED_MS,
} from '@wildtrack/contract';
import argon2 from 'argon2';
import type { FastifyBaseLogger } from 'fastify';
import type { Delivery } from '../../outgoing/delivery.js';
import type { Caller } from '../../http/caller.js';
import { AppError, FieldRefusal } from '../../http/errors.js';
import type { ReadableCounters } from '../../shared-state/index.js';
import type { NoticeService } from '../notice/service.js';
import { hashPassword, type UserService } from '../user/service.js';
import type { AccountRepository, AccountRow } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

type Purpose = 'security' | 'bind' | 'register' | 'reset' | 'login';
/** Where a code goes: an e-mail address or a phone (country code 86, §5). */
type Address = { kind: 'email'; email: string } | { kind: 'phone'; countryCode: string; phone: string };

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/**
 * Tries of signed-out codes (password reset, phone-code sign-in) per account and per day (a UTC day, one
 * fixed window every process shares), whichever of its addresses they name, counted before the code is
 * looked at; past it every try and ask is refused until the day ends. For a browser not known to the
 * account, all such browsers together; a browser that signed in to the account before has a budget of its
 * own (known-browser.ts). Two codes' worth. docs/accounts.md "Verification codes" gives the bound.
 */
export const CODE_TRIES_PER_ACCOUNT_DAY = 10;
/** The wait before a new signed-out code after `tries` tries today: CODE_RESEND_MS doubled with each. */
export function resendWaitMs(tries: number): number {
  return CODE_RESEND_MS * 2 ** Math.min(tries, CODE_TRIES_PER_ACCOUNT_DAY);
}
/** Wrong sign-in passwords typed on the auth page before it is locked, per user, per 15 minutes. */
const PASSWORD_TRIES = 5;
const PASSWORD_WINDOW_MS = 15 * 60_000;

function hashCode(code: string, salt = randomBytes(16).toString('hex')): string {
  return `${salt}:${createHash('sha256').update(salt).update(code).digest('hex')}`;
}

function codeMatches(stored: string, code: string): boolean {
  const salt = stored.slice(0, stored.indexOf(':'));
  const a = Buffer.from(hashCode(code, salt));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

function addressKey(a: Address): string {
  return a.kind === 'email' ? `email:${a.email.toLowerCase()}` : `phone:${a.countryCode}${a.phone}`;
}

function masked(a: Address): string {
  return a.kind === 'email' ? maskEmail(a.email) : `+${a.countryCode} ${maskPhone(a.phone)}`;
}

/** A recovery account (an e-mail address or a phone) as an address. */
export function recoveryAddress(account: string): Address {
  return EMAIL_PATTERN.test(account) ? { kind: 'email', email: account } : { kind: 'phone', countryCode: PHONE_COUNTRY_CODE, phone: account };
}

const codeWrong = () => new AppError(Code.Failed, 'security.codeWrong');
const dayLimit = (now: number) => new AppError(Code.Failed, 'security.codeDayLimit', { hours: Math.max(1, Math.ceil(((Math.floor(now / DAY_MS) + 1) * DAY_MS - now) / HOUR_MS)) });

/**
 * Whose daily budget a signed-out code's asks and tries count against: the account's (its browsers not
 * known to it, together), a known browser's own (its code row apart too, so nobody else's wrong tries
 * burn it), or, for an address no account has, the address's (counted alike, so that nothing tells).
 */
interface Budget {
  key: string;
  /** Appended to the code row's target: '' for the shared code, the browser's mark for its own. */
  suffix: string;
  /** The code rows' targets of the budget (suffix included): the account's addresses, or the address. */
  targets: string[];
  holder: AccountRow | undefined;
}

/** The purposes whose codes take over an account signed out, counted against the daily budget. */
const SIGNED_OUT_PURPOSES: Purpose[] = ['reset', 'login'];

/** What the account module is told by others: whether a browser is known to an account (auth), and the owner's notices. */
export interface AccountGuards {
  /** The mark of the request's browser for the account (its Cookie header), when it signed in to it before. */
  knownBrowser?: (cookieHeader: string | undefined, userId: number) => Promise<string | undefined>;
  notices?: Pick<NoticeService, 'sendToUser'>;
}
const verifyExpired = () => new AppError(Code.VerificationExpired, 'security.verifyExpired');

/**
 * The account-security flow and the signed-out account paths (issue 17 items 2 and 4). Codes: 4 digits,
 * CODE_VALID_MS, single use, a salted SHA-256 stored, dead after CODE_MAX_TRIES wrong tries, no new one
 * for the same purpose and address inside CODE_RESEND_MS, at most CODES_PER_ADDRESS_HOUR per address and
 * CODES_PER_IP_HOUR per client address an hour.
 *
 * Signed out, nothing answers differently for an address that has an account: a code row is made for
 * every address asked (so "wait 60 s" comes alike), and what is sent (or not) goes out after the answer.
 */
export class AccountService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly users: UserService,
    private readonly delivery: Delivery,
    private readonly counters: ReadableCounters,
    private readonly registration: 'open' | 'closed',
    private readonly log: FastifyBaseLogger,
    /** Told of sessions ended here (a password change or reset), so that a process forgets them at once. */
    private readonly sessionsEnded: (sessionIds: number[]) => void = () => {},
    private readonly guards: AccountGuards = {},
  ) {}

  get registrationOpen(): boolean {
    return this.registration === 'open';
  }

  /* ---- codes ---- */

  /** Makes and stores a new code for the purpose and target, after the resend and hourly limits. */
  private async issue(purpose: Purpose, target: string, address: Address, ip: string, budget?: Budget): Promise<string> {
    const now = clockNow();
    const suffix = budget?.suffix ?? '';
    const previous = await this.accounts.getCode(purpose, target + suffix);
    const waitFor = (wait: number, since: number) => {
      if (now - since < wait) throw new AppError(Code.Failed, 'security.resendWait', { seconds: Math.ceil((wait - (now - since)) / 1000) });
    };
    if (budget) {
      const tries = await this.counters.count(`code-tries:${budget.key}`, now, DAY_MS);
      if (tries >= CODE_TRIES_PER_ACCOUNT_DAY) throw dayLimit(now);
      // after tries, the wait grows and counts from the budget's last code, whichever address and purpose it was for
      if (tries > 0) {
        const last = await this.accounts.lastSentAt(SIGNED_OUT_PURPOSES, budget.targets);
        if (last !== undefined) waitFor(resendWaitMs(tries), last);
      }
    }
    if (previous) waitFor(CODE_RESEND_MS, Number(previous.sent_at));
    // A known browser's asks count apart: asks from elsewhere can't use up its hour.
    const perAddress = await this.counters.hit(`code:${addressKey(address)}${suffix}`, now, HOUR_MS);
    const perIp = await this.counters.hit(`code-ip:${ip}`, now, HOUR_MS);
    if (perAddress.hits > CODES_PER_ADDRESS_HOUR || perIp.hits > CODES_PER_IP_HOUR) throw new AppError(Code.Failed, 'security.sendLimit');
    const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
    await this.accounts.putCode(purpose, target + suffix, hashCode(code), now, now + CODE_VALID_MS);
    return code;
  }

  /** The budget of a signed-out ask or try for the address, from the request's Cookie header. */
  private async budget(address: Address, holder: AccountRow | undefined, cookieHeader: string | undefined): Promise<Budget> {
    if (!holder) return { key: `addr:${addressKey(address)}`, suffix: '', targets: [addressKey(address)], holder };
    const mark = await this.guards.knownBrowser?.(cookieHeader, holder.id);
    const suffix = mark ? `#known:${mark}` : '';
    const addresses: Address[] = [];
    if (holder.email) addresses.push({ kind: 'email', email: holder.email });
    if (holder.phone) addresses.push({ kind: 'phone', countryCode: PHONE_COUNTRY_CODE, phone: holder.phone });
    return { key: mark ? `acct:${holder.id}:known:${mark}` : `acct:${holder.id}`, suffix, targets: addresses.map((a) => addressKey(a) + suffix), holder };
  }

  /**
   * Counts a try against the budget before the code is looked at (so that tries racing each other are
   * bounded too); past the day's budget it is refused. The try that spends it tells the owner.
   */
  private async spendTry(budget: Budget): Promise<void> {
    const now = clockNow();
    const { hits, resetAt } = await this.counters.hit(`code-tries:${budget.key}`, now, DAY_MS);
    if (hits > CODE_TRIES_PER_ACCOUNT_DAY) throw dayLimit(now);
    if (hits === CODE_TRIES_PER_ACCOUNT_DAY && budget.holder) {
      const holder = budget.holder;
      // after the answer: its time must not tell that the address has an account
      setImmediate(() => {
        this.tellOwner(holder, hits, resetAt).catch((err: unknown) => this.log.warn({ err }, 'the owner of an account could not be told of its code tries'));
      });
    }
  }

  /** The owner told that the day's code tries are spent: a notice, and a message to each bound address. */
  private async tellOwner(holder: AccountRow, tries: number, until: number): Promise<void> {
    await this.guards.notices?.sendToUser(holder.id, {
      title: { key: 'codeTries.title' },
      body: { key: 'codeTries.body', params: { tries, until: { time: until } } },
    });
    const lang: Lang = (await this.accounts.lcidOf(holder.id)) === LanguageId.en ? 'en' : 'zh';
    const text = message(lang, 'codeTries.body', { tries, until: new Date(until).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' });
    if (holder.email) await this.delivery.email(holder.email, message(lang, 'codeTries.title'), text);
    if (holder.phone) await this.delivery.sms(holder.telephone_code || PHONE_COUNTRY_CODE, holder.phone, text);
  }

  /**
   * Uses the code: once for the right code in time; a wrong one counts, the fifth kills it. A signed-out
   * code's try counts against its budget first.
   */
  private async use(purpose: Purpose, target: string, code: string, budget?: Budget): Promise<void> {
    if (budget) await this.spendTry(budget);
    const row = await this.accounts.getCode(purpose, target + (budget?.suffix ?? ''));
    // An expired or dead code's row stays (until the sweep, a day later): its sent_at holds the wait for the next.
    if (!row || Number(row.expires_at) <= clockNow() || Number(row.tries) >= CODE_MAX_TRIES) throw codeWrong();
    if (!codeMatches(row.code_hash, code)) {
      await this.accounts.addTry(Number(row.id));
      throw codeWrong();
    }
    if (Number(row.tries) >= CODE_MAX_TRIES || !(await this.accounts.takeCode(Number(row.id), row.code_hash))) throw codeWrong();
  }

  private text(lang: Lang, code: string, purpose: Purpose): { subject: string; text: string } {
    const p = purpose === 'bind' ? 'bind' : purpose;
    return { subject: message(lang, 'code.subject'), text: message(lang, 'code.text', { code, purpose: message(lang, `code.purpose.${p}`) }) };
  }

  private async deliver(address: Address, subject: string, text: string): Promise<void> {
    if (address.kind === 'email') await this.delivery.email(address.email, subject, text);
    else await this.delivery.sms(address.countryCode, address.phone, text);
  }

  /** Sends now and answers 1001 when it fails (signed in: the caller may know the address exists). */
  private async sendNow(address: Address, lang: Lang, code: string, purpose: Purpose): Promise<CodeSent> {
    const { subject, text } = this.text(lang, code, purpose);
    try {
      await this.deliver(address, subject, text);
    } catch (err) {
      this.log.warn({ err, channel: address.kind }, 'a verification code could not be sent');
      throw new AppError(Code.Failed, 'security.sendFailed');
    }
    return { Target: masked(address), ResendSeconds: CODE_RESEND_MS / 1000 };
  }

  /**
   * Sends after the answer (signed out: the answer's time must not tell whether anything was sent); only
   * an outbox write (one quick local insert) is done before it.
   */
  private async sendLater(address: Address, subject: string, text: string): Promise<CodeSent> {
    if (this.delivery.queues(address.kind)) {
      await this.deliver(address, subject, text);
      return { Target: masked(address), ResendSeconds: CODE_RESEND_MS / 1000 };
    }
    setImmediate(() => {
      this.deliver(address, subject, text).catch((err: unknown) => this.log.warn({ err, channel: address.kind }, 'a verification code could not be sent'));
    });
    return { Target: masked(address), ResendSeconds: CODE_RESEND_MS / 1000 };
  }

  /**
   * The answer for an address no account has, costing what sendLater costs: when the channel writes to
   * the outbox before answering, one write of the same weight (the code row touched) stands in for it,
   * so that the time of the answer does not tell (measured: 15-40 ms apart without it on a busy disk).
   */
  private async sendNothing(address: Address, purpose: Purpose): Promise<CodeSent> {
    if (this.delivery.queues(address.kind)) await this.accounts.touchCode(purpose, addressKey(address));
    return { Target: masked(address), ResendSeconds: CODE_RESEND_MS / 1000 };
  }

  /* ---- signed in: §4 account security ---- */

  private async me(caller: Caller): Promise<AccountRow> {
    const row = await this.accounts.userById(caller.session.userId);
    if (!row) throw new Error(`user ${caller.session.userId} vanished`);
    return row;
  }

  private async requireVerified(caller: Caller): Promise<void> {
    if ((await this.accounts.verifiedUntil(caller.session.sessionId)) <= clockNow()) throw verifyExpired();
  }

  async authenticated(caller: Caller): Promise<{ result: boolean }> {
    return { result: (await this.accounts.verifiedUntil(caller.session.sessionId)) > clockNow() };
  }

  private boundAddress(me: AccountRow, type: 1 | 2): Address {
    if (type === 1 && me.email) return { kind: 'email', email: me.email };
    if (type === 2 && me.phone) return { kind: 'phone', countryCode: me.telephone_code || PHONE_COUNTRY_CODE, phone: me.phone };
    throw new AppError(Code.Failed, 'security.noAddress');
  }

  async sendSecurityCode(caller: Caller, type: 1 | 2, ip: string): Promise<CodeSent> {
    const me = await this.me(caller);
    const address = this.boundAddress(me, type);
    const code = await this.issue('security', `user:${me.id}:${type}`, address, ip);
    return this.sendNow(address, caller.lang, code, 'security');
  }

  async authenticate(caller: Caller, type: 1 | 2, code: string): Promise<void> {
    const me = await this.me(caller);
    this.boundAddress(me, type);
    await this.use('security', `user:${me.id}:${type}`, code);
    await this.accounts.setVerified(caller.session.sessionId, clockNow() + VERIFIED_MS);
  }

  /** The sign-in password, checked with at most PASSWORD_TRIES wrong ones per 15 minutes per user. */
  private async checkPassword(me: AccountRow, password: string, wrong: 'security.passwordWrong' | 'security.originalWrong'): Promise<void> {
    const key = `auth-pwd:${me.id}`;
    const now = clockNow();
    const valid = await argon2.verify(me.password_hash, password).catch(() => false);
    if (valid) return;
    const { hits, resetAt } = await this.counters.hit(key, now, PASSWORD_WINDOW_MS);
    if (hits >= PASSWORD_TRIES) throw new AppError(Code.AccountLocked, 'auth.locked', { minutes: Math.max(1, Math.ceil((resetAt - now) / 60_000)) });
    throw new AppError(Code.Failed, wrong);
  }

  async authLoginPwd(caller: Caller, password: string): Promise<void> {
    const me = await this.me(caller);
    if (me.email || me.phone) throw new AppError(Code.Failed, 'security.useCode');
    await this.checkPassword(me, password, 'security.passwordWrong');
    await this.accounts.setVerified(caller.session.sessionId, clockNow() + VERIFIED_MS);
  }

  async sendNewAddressCode(caller: Caller, address: Address, ip: string): Promise<CodeSent> {
    await this.requireVerified(caller);
    const code = await this.issue('bind', `user:${caller.session.userId}:${addressKey(address)}`, address, ip);
    return this.sendNow(address, caller.lang, code, 'bind');
  }

  async bindAddress(caller: Caller, address: Address, code: string): Promise<SafeSetting> {
    await this.requireVerified(caller);
    await this.use('bind', `user:${caller.session.userId}:${addressKey(address)}`, code);
    const holder = address.kind === 'email' ? await this.accounts.userByEmail(address.email.toLowerCase()) : await this.accounts.userByPhone(address.phone);
    if (holder && holder.id !== caller.session.userId) throw new AppError(Code.Failed, 'security.addressTaken');
    if (address.kind === 'email') await this.accounts.setEmail(caller.session.userId, address.email, clockNow());
    else await this.accounts.setPhone(caller.session.userId, address.countryCode, address.phone, clockNow());
    return this.users.safeSetting(caller.session.userId);
  }

  async modifyPassword(caller: Caller, original: string, newPassword: string): Promise<void> {
    await this.requireVerified(caller);
    const me = await this.me(caller);
    await this.checkPassword(me, original, 'security.originalWrong');
    await this.accounts.setPasswordHash(me.id, await hashPassword(newPassword), clockNow());
    this.sessionsEnded(await this.accounts.endSessions(me.id, caller.session.sessionId));
  }

  /* ---- signed out ---- */

  private requireOpen(): void {
    if (!this.registrationOpen) throw new AppError(Code.Forbidden, 'register.closed');
  }

  private holder(address: Address): Promise<AccountRow | undefined> {
    return address.kind === 'email' ? this.accounts.userByEmail(address.email.toLowerCase()) : this.accounts.userByPhone(address.phone);
  }

  async sendRegisterCode(address: Address, lang: Lang, ip: string): Promise<CodeSent> {
    this.requireOpen();
    const holder = await this.holder(address);
    const code = await this.issue('register', addressKey(address), address, ip);
    // An address that has an account is told so instead of getting a code; the caller can't tell which.
    if (holder) return this.sendLater(address, message(lang, 'code.subject'), message(lang, 'code.registeredAlready'));
    const { subject, text } = this.text(lang, code, 'register');
    return this.sendLater(address, subject, text);
  }

  async register(address: Address, code: string, userName: string, password: string, lang: Lang, timeZone: string | undefined): Promise<{ UserName: string }> {
    this.requireOpen();
    await this.use('register', addressKey(address), code);
    if (await this.holder(address)) throw new AppError(Code.Failed, 'register.addressTaken');
    if (await this.accounts.userNameTaken(userName.toLowerCase())) throw new FieldRefusal(['userName'], 'validation.taken');
    // A new organisation named after the registrant (another with that name already: a suffix).
    let orgName = userName;
    while (await this.accounts.organisationExists(orgName)) orgName = `${userName}-${randomInt(1000, 10000)}`;
    const userId = await this.users.createUser({
      orgName,
      userName,
      password,
      isPrimary: true,
      lcid: lang === 'en' ? LanguageId.en : LanguageId.zh,
      ...(address.kind === 'email' ? { email: address.email } : { phone: address.phone }),
    });
    if (timeZone) await this.users.setSignInTimeZone(userId, timeZone);
    return { UserName: userName };
  }

  /** Where a reset code would go: the address typed, masked; nothing about whether an account has it. */
  safeSettingByAccount(account: string): SafeSetting {
    const a = recoveryAddress(account);
    return a.kind === 'email'
      ? { CountryCode: '', Phone: '', Email: maskEmail(a.email), PasswordOnly: false }
      : { CountryCode: a.countryCode, Phone: maskPhone(a.phone), Email: '', PasswordOnly: false };
  }

  /** The reset page's account (User/GetSimpleUserByAccount): the address typed, masked, and its kind; nothing read. */
  simpleUserByAccount(account: string): SimpleUser {
    const a = recoveryAddress(account);
    return { Account: masked(a), Kind: a.kind };
  }

  async sendResetCode(account: string, lang: Lang, ip: string, cookieHeader?: string): Promise<CodeSent> {
    const address = recoveryAddress(account);
    const holder = await this.holder(address);
    const code = await this.issue('reset', addressKey(address), address, ip, await this.budget(address, holder, cookieHeader));
    if (!holder) return this.sendNothing(address, 'reset');
    const { subject, text } = this.text(lang, code, 'reset');
    return this.sendLater(address, subject, text);
  }

  async resetPassword(account: string, code: string, newPassword: string, cookieHeader?: string): Promise<void> {
    const address = recoveryAddress(account);
    const holder = await this.holder(address);
    await this.use('reset', addressKey(address), code, await this.budget(address, holder, cookieHeader));
    if (!holder) throw codeWrong();
    await this.accounts.setPasswordHash(holder.id, await hashPassword(newPassword), clockNow());
    await this.accounts.clearSignInFailures(holder.id);
    this.sessionsEnded(await this.accounts.endSessions(holder.id));
  }

  async sendLoginCode(address: Address, lang: Lang, ip: string, cookieHeader?: string): Promise<CodeSent> {
    const holder = await this.holder(address);
    const code = await this.issue('login', addressKey(address), address, ip, await this.budget(address, holder, cookieHeader));
    if (!holder) return this.sendNothing(address, 'login');
    const { subject, text } = this.text(lang, code, 'login');
    return this.sendLater(address, subject, text);
  }

  /** The account a phone-code sign-in names (undefined: none; the sign-in answers alike). */
  async loginHolder(address: Address): Promise<number | undefined> {
    return (await this.holder(address))?.id;
  }

  /** Uses a sign-in code sent by sendLoginCode (a wrong one counts; the fifth kills it). */
  async useLoginCode(address: Address, code: string, cookieHeader?: string): Promise<void> {
    await this.use('login', addressKey(address), code, await this.budget(address, await this.holder(address), cookieHeader));
  }

  /** Forgets codes expired a day ago (kept until then for the growing wait: resendWaitMs stays under a day). */
  async sweep(now = clockNow()): Promise<number> {
    return this.accounts.deleteExpiredCodes(now - DAY_MS);
  }
}
