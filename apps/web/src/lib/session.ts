import {
  EXPERIENCE_FLAG_KEY,
  imageKey,
  offsetOfDate,
  parseCredential,
  SESSION_CREDENTIAL_KEY,
  signingKey,
  TIME_ZONE_KEEP_DAYS,
  TOKEN_COOKIE,
  type LoginResult,
  type User,
} from '@wildtrack/contract';
import Cookies from 'js-cookie';
import { useSyncExternalStore } from 'react';
import { resetPositionSelection } from './positionSelection';
import { readStored, removeStored, writeStored } from '../browser/storage';

/**
 * What the browser keeps about the signed-in user (§2.2, §3 "Values kept in the browser"): the session,
 * the user's display values in localStorage, and the time zone the user chose (30 days). Everything here
 * is synchronous so the router guard and the API client can read it.
 *
 * The session is kept in two halves so the token never travels (docs/api.md, "Sessions and signing"):
 * the credential `<SessionId>.<Token>` in localStorage, which no request carries, and in the session
 * cookie with the fixed name only `<SessionId>.<image key>` (wire.ts imageKey), which the browser sends
 * with every request and which serves the <img> of uploaded pictures. Signed in = both halves of one
 * session; the cookie ends with the browser, so a leftover credential without it counts for nothing.
 */

const USER_KEYS = {
  nickName: 'wildtrack_nickname',
  imgUrl: 'wildtrack_img_url',
  customerName: 'wildtrack_customer_name',
  email: 'wildtrack_email',
  parentUnit: 'wildtrack_parent_unit',
  phone: 'wildtrack_phone',
  telephoneCode: 'wildtrack_telephone_code',
  userName: 'wildtrack_user_name',
  timeZone: 'wildtrack_time_zone',
} as const;

/** The time zone the user picked (settings); the sign-in request sends it instead of the browser's. */
const CHOSEN_TIME_ZONE_COOKIE = 'wildtrack_chosen_time_zone';
/** Set at sign-in when the account has neither e-mail nor phone (§4 Safety prompt). */
const SAFETY_PROMPT_KEY = 'wildtrack_safety_prompt';
/** Set at sign-in when the password is a temporary one (LoginResult.MustChangePassword): the change comes before anything else. */
const MUST_CHANGE_PASSWORD_KEY = 'wildtrack_must_change_password';

export type StoredUser = { [K in keyof typeof USER_KEYS]: string } & { experience: '1' | '0' };

const listeners = new Set<() => void>();
let version = 0;

function emit(): void {
  version += 1;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Where the credential `<SessionId>.<Token>` is kept: never in a cookie, which would travel. */
const CREDENTIAL_KEY = SESSION_CREDENTIAL_KEY;
/** The credential when localStorage can't keep it (blocked storage): this page's life only. */
let credentialInMemory: string | undefined;

/** The cookie's half of a credential: the session id and its image key. */
function imageCookie(credential: string): string {
  const { id, token } = parseCredential(credential);
  return `${id}.${imageKey(signingKey(token))}`;
}

/**
 * The session credential, `<SessionId>.<Token>`, that the API client signs with; undefined when not
 * signed in. The cookie must name the same session (a cookie left from another session, or none since
 * the browser restarted, means no session).
 */
export function getToken(): string | undefined {
  const cookie = Cookies.get(TOKEN_COOKIE);
  if (!cookie) return undefined;
  const credential = readStored('local', CREDENTIAL_KEY) ?? credentialInMemory;
  if (!credential) return undefined;
  return parseCredential(credential).id === cookie.slice(0, Math.max(0, cookie.indexOf('.'))) ? credential : undefined;
}

export function hasToken(): boolean {
  return getToken() !== undefined;
}

/** Keeps a session: the credential from sign-in (or the §2.2 URL hash), `<SessionId>.<Token>`. */
export function setToken(credential: string): void {
  if (!writeStored('local', CREDENTIAL_KEY, credential)) credentialInMemory = credential;
  else credentialInMemory = undefined;
  // Secure on a page served over TLS (directly or behind a TLS proxy: the browser's own scheme), so the
  // cookie never travels over plain HTTP from it (issue 26 L9); a plain-HTTP station LAN can't have it.
  Cookies.set(TOKEN_COOKIE, imageCookie(credential), { path: '/', sameSite: 'Strict', secure: window.location.protocol === 'https:' });
  emit();
}

export function clearToken(): void {
  Cookies.remove(TOKEN_COOKIE, { path: '/' });
  removeStored('local', CREDENTIAL_KEY);
  credentialInMemory = undefined;
  emit();
}

/** The values the browser keeps about a user (§3), from the login result or a fresh GetUserInfo. */
export function userValues(user: User): StoredUser {
  return {
    nickName: user.NickName,
    imgUrl: user.ImgUrl,
    customerName: user.CustomerName,
    email: user.EMail,
    parentUnit: user.ParentUnit,
    phone: user.Phone,
    telephoneCode: user.TelephoneCode,
    userName: user.UserName,
    timeZone: user.TimeZone,
    experience: user.ExperienceFunc === 1 ? '1' : '0',
  };
}

/**
 * A fresh copy of the user from the server (GetUserInfo when the shell opens, ModifyInfo's answer): every
 * kept value but the time zone. The zone this browser shows is the one it chose or signed in with; the
 * server's copy changes when the account signs in somewhere else (until a zone is saved in Settings), and
 * a phone signing in in New York must not move this desktop's tables by five hours (issue 28 item 3).
 */
export function refreshStoredUser(user: User): void {
  const { timeZone: _, ...values } = userValues(user);
  writeStoredUser(values);
}

export function storeLoginResult(result: LoginResult): void {
  writeStoredUser({
    ...userValues(result.User),
    userName: result.UserName || result.User.UserName,
    experience: result.ExperienceFunc === 1 ? '1' : '0',
  });
  setToken(result.Token);
}

export function writeStoredUser(values: Partial<StoredUser>): void {
  for (const [field, key] of Object.entries(USER_KEYS) as [keyof typeof USER_KEYS, string][]) {
    const value = values[field];
    if (value !== undefined) writeStored('local', key, value);
  }
  if (values.experience !== undefined) writeStored('local', EXPERIENCE_FLAG_KEY, values.experience);
  emit();
}

export function readStoredUser(): StoredUser {
  const read = (key: string): string => readStored('local', key) ?? '';
  return {
    nickName: read(USER_KEYS.nickName),
    imgUrl: read(USER_KEYS.imgUrl),
    customerName: read(USER_KEYS.customerName),
    email: read(USER_KEYS.email),
    parentUnit: read(USER_KEYS.parentUnit),
    phone: read(USER_KEYS.phone),
    telephoneCode: read(USER_KEYS.telephoneCode),
    userName: read(USER_KEYS.userName),
    timeZone: read(USER_KEYS.timeZone),
    experience: read(EXPERIENCE_FLAG_KEY) === '1' ? '1' : '0',
  };
}

export function clearStoredUser(): void {
  removeStored('local', ...Object.values(USER_KEYS), EXPERIENCE_FLAG_KEY);
  removeStored('session', SAFETY_PROMPT_KEY);
  removeStored('local', MUST_CHANGE_PASSWORD_KEY);
  emit();
}

/**
 * Ends the session in this browser: token, every kept user value and the kept view context (whoever
 * signs in next on this browser opens on the tree's defaults, not on this user's device and range).
 */
export function clearSession(): void {
  clearToken();
  clearStoredUser();
  resetPositionSelection();
}

/** The default zone (§9): the browser's current offset rounded to the hour, as sign-in and settings offer it. */
export function browserTimeZone(now: Date = new Date()): string {
  return offsetOfDate(now);
}

export function chosenTimeZone(): string | undefined {
  return Cookies.get(CHOSEN_TIME_ZONE_COOKIE) || undefined;
}

/** The zone sign-in sends (§7.2): the one the user chose (30 days), else the browser's. */
export function signInTimeZone(now: Date = new Date()): string {
  return chosenTimeZone() ?? browserTimeZone(now);
}

/** Remembers a time zone the user picked on this browser for 30 days (§9); it wins over any other (`currentZone`). */
export function rememberTimeZone(zone: string): void {
  Cookies.set(CHOSEN_TIME_ZONE_COOKIE, zone, { path: '/', sameSite: 'Lax', expires: TIME_ZONE_KEEP_DAYS });
  writeStoredUser({ timeZone: zone });
}

/**
 * The zone this browser shows times in, in one order: the zone chosen on this browser (Settings, 30
 * days), else the one kept at this browser's sign-in (the account's Settings zone, or the zone it signed
 * in with), else the browser's own. Nothing the server says later changes it (`refreshStoredUser`).
 */
export function currentZone(stored: string = readStoredUser().timeZone, now: Date = new Date()): string {
  return chosenTimeZone() || stored || browserTimeZone(now);
}

export function markSafetyPrompt(needed: boolean): void {
  // storage blocked: the prompt simply does not survive a reload
  if (needed) writeStored('session', SAFETY_PROMPT_KEY, '1');
  else removeStored('session', SAFETY_PROMPT_KEY);
  emit();
}

export function safetyPromptPending(): boolean {
  return readStored('session', SAFETY_PROMPT_KEY) === '1';
}

export function markMustChangePassword(due: boolean): void {
  if (due) writeStored('local', MUST_CHANGE_PASSWORD_KEY, '1');
  else removeStored('local', MUST_CHANGE_PASSWORD_KEY);
  emit();
}

export interface SessionSnapshot {
  token: string | undefined;
  user: StoredUser;
  safetyPrompt: boolean;
  /** The password is a temporary one: the shell shows only the change form until it is changed. */
  mustChangePassword: boolean;
}

let cached: { version: number; snapshot: SessionSnapshot } | null = null;

function snapshot(): SessionSnapshot {
  const token = getToken();
  // The cookie can change without an emit (another tab, the server); compare it too.
  if (!cached || cached.version !== version || cached.snapshot.token !== token) {
    cached = { version, snapshot: { token, user: readStoredUser(), safetyPrompt: safetyPromptPending(), mustChangePassword: readStored('local', MUST_CHANGE_PASSWORD_KEY) === '1' } };
  }
  return cached.snapshot;
}

/** The session as React sees it; re-renders on sign-in, sign-out and user value changes. */
export function useSession(): SessionSnapshot {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** Whether there is a session: queries run only with one (signing out changes their keys, the zone goes). */
export function useSignedIn(): boolean {
  return useSession().token !== undefined;
}

/**
 * The time zone every screen shows times in and sends as `timeZone` (`currentZone`), so the web and the
 * server read and write times in the same zone whatever the account's zone on the server is.
 */
export function useZone(): string {
  return currentZone(useSession().user.timeZone);
}
