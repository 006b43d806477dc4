import { z } from 'zod';
import { CODE_LENGTH, EMAIL_MAX, IMEI_MAX, IMEI_MIN, NICKNAME_DISPLAY_WIDTH, PASSWORD_MAX, PASSWORD_MIN, TDT_KEY_MAX, UPLOADS_URL } from './constants.js';

/**
 * The validation rules of §5, written once. Error texts are message keys (see messages.ts) that the
 * server and the web forms translate into the caller's language.
 */

/** The message of a missing or empty field: pass it to z.string(required) and .min(1, required). */
export const required = { error: 'validation.required' } as const;

/** The characters an IMEI may hold; imports replace any other by '_' (see IMEI_OTHER_CHARS). */
export const IMEI_CHARS = /^[A-Za-z0-9_.:-]+$/;
export const IMEI_OTHER_CHARS = /[^A-Za-z0-9_.:-]/g;

/**
 * A device's IMEI, the one rule for registering a device and for every call that names one: trimmed,
 * IMEI_MIN to IMEI_MAX letters, digits or _.:- (a tag's 15 digits, or an imported tag's longer name).
 */
export const ImeiSchema = z
  .string(required)
  .trim()
  .min(1, required)
  .max(IMEI_MAX, { error: 'validation.tooLong' })
  .min(IMEI_MIN, { error: 'validation.imei' })
  .regex(IMEI_CHARS, { error: 'validation.imei' });

/** The Luhn check digit of an IMEI's 14-digit body (3GPP TS 23.003). */
export function imeiCheckDigit(body14: string): number {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    let d = Number(body14[i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether a 15-digit IMEI's last digit is its check digit. */
export function imeiCheckDigitOk(imei: string): boolean {
  return /^\d{15}$/.test(imei) && imeiCheckDigit(imei.slice(0, 14)) === Number(imei[14]);
}

/**
 * The IMEI of a real device registered from the console: 15 digits whose last is the Luhn check digit
 * of the other 14 (a typo in one digit, or two digits swapped, is caught). Imported tags keep ImeiSchema.
 */
export const DeviceImeiSchema = z
  .string(required)
  .trim()
  .min(1, required)
  .regex(/^\d{15}$/, { error: 'validation.imeiDigits' })
  .refine(imeiCheckDigitOk, { error: 'validation.imeiCheckDigit' });

export const PasswordSchema = z
  .string(required)
  .min(1, required)
  .min(PASSWORD_MIN, { error: 'validation.password.length' })
  .max(PASSWORD_MAX, { error: 'validation.password.length' })
  .regex(/[a-z]/, { error: 'validation.password.rule' })
  .regex(/[A-Z]/, { error: 'validation.password.rule' })
  .regex(/\d/, { error: 'validation.password.rule' })
  .regex(/^[\x21-\x7e]+$/, { error: 'validation.password.rule' });

/** A stored password that no longer meets the rule: the shell suggests changing it (§5). */
export function isSimplePassword(password: string): boolean {
  return !PasswordSchema.safeParse(password).success;
}

export const AccountNameSchema = z
  .string(required)
  .min(1, required)
  .regex(/^[A-Za-z]/, { error: 'validation.accountName.start' })
  .min(6, { error: 'validation.accountName.length' })
  .max(30, { error: 'validation.accountName.length' })
  .regex(/^[\x21-\x7e]+$/, { error: 'validation.accountName.chars' })
  .refine((v) => !v.includes('@'), { error: 'validation.accountName.at' });

/** What an e-mail address looks like (§5); EmailSchema and the feedback form's e-mail check it. */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

export const EmailSchema = z
  .string(required)
  .trim()
  .min(1, required)
  .max(EMAIL_MAX, { error: 'validation.email.length' })
  .regex(EMAIL_PATTERN, { error: 'validation.email.invalid' });

export const PhoneSchema = z
  .string(required)
  .trim()
  .min(1, required)
  .regex(/^1[3-9]\d{9}$/, { error: 'validation.phone.invalid' });

export const VerificationCodeSchema = z
  .string(required)
  .trim()
  .min(1, required)
  .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), { error: 'validation.code.invalid' });

/**
 * Characters a name or a text people read must not hold: C0 and C1 controls (a text of several lines may
 * keep tab and line breaks); the bidirectional embeddings, overrides, isolates and marks that reorder what
 * is shown (U+202A-202E, U+2066-2069, U+200E-200F, U+061C: "gpj.exe" shown as "exe.jpg"); and characters
 * that show nothing (zero-width space, word joiner and invisible operators, byte-order mark, soft hyphen,
 * Mongolian vowel separator, Hangul fillers, line and paragraph separators, interlinear annotation marks,
 * tag characters) so that two names that look the same are the same. Zero-width (non-)joiners stay: emoji
 * sequences and some scripts need them.
 */
const HIDDEN_CHARS: readonly (readonly [number, number])[] = [
  [0x00, 0x08], [0x0b, 0x0c], [0x0e, 0x1f], [0x7f, 0x9f], // controls (tab, line feed, carriage return apart)
  [0xad, 0xad], [0x34f, 0x34f], [0x115f, 0x1160], [0x180e, 0x180e], [0x200b, 0x200b], [0x2060, 0x2064],
  [0x3164, 0x3164], [0xfeff, 0xfeff], [0xffa0, 0xffa0], [0xfff9, 0xfffb], [0xe0000, 0xe007f], // show nothing
  [0x61c, 0x61c], [0x200e, 0x200f], [0x202a, 0x202e], [0x2066, 0x2069], // text direction
  [0x2028, 0x2029], // line and paragraph separators
];
/** Tab, line feed and carriage return: allowed only in a text of several lines. */
const LINE_CHARS = [0x09, 0x0a, 0x0d];

/** Whether a text is free of hidden characters (see HIDDEN_CHARS); `lines` lets tab and line breaks through. */
export function isPlainText(text: string, opts: { lines?: boolean } = {}): boolean {
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (HIDDEN_CHARS.some(([lo, hi]) => c >= lo && c <= hi)) return false;
    if (opts.lines !== true && LINE_CHARS.includes(c)) return false;
  }
  return true;
}

/** The one rule for names and texts people read (device, folder, remark and nick names, animal info): no hidden characters. */
export const plainText = { check: (v: string) => isPlainText(v), error: 'validation.hiddenChars' } as const;
/** The same for a text of several lines (a description): tab and line breaks allowed. */
export const plainLines = { check: (v: string) => isPlainText(v, { lines: true }), error: 'validation.hiddenChars' } as const;

/**
 * The schema of a free string field: any text a caller types or a client sends that no pattern or fixed set
 * of values constrains (titles, names, keywords, ids given as text, JSON given as text), with the text rule
 * (issue 26 L8): hidden characters are refused, naming the field, in the caller's language. Every free
 * string of a call's body is built by it or carries `plainText` / `plainLines` itself; the generated
 * harness (apps/server/src/test/harness/bad-input.test.ts, "hidden characters per free string field") fails
 * for a field that lets one through. `lines` lets tab and line breaks through (a description, JSON text).
 * Refined before any `.trim()` chained after it, so a hidden character at either end is refused too.
 */
export function freeText(params?: { error: string }, opts: { lines?: boolean } = {}): z.ZodString {
  const rule = opts.lines === true ? plainLines : plainText;
  return z.string(params).refine(rule.check, { error: rule.error });
}

export const NicknameSchema = z
  .string(required)
  .trim()
  .min(1, { error: 'validation.nickname.required' })
  .max(64, { error: 'validation.nickname.length' })
  .refine(plainText.check, { error: plainText.error });

/** An uploaded picture's address as /api/Image/Upload answers it: /prod-api/files/uploads/<organisation>/<32 hex>.jpg|png. */
export const UPLOAD_URL_PATTERN = new RegExp(`^${UPLOADS_URL.replace(/[/.]/g, '\\$&')}/(\\d{1,15})/([0-9a-f]{32}\\.(?:jpg|png))$`);

/** The organisation (as its id text) and file name of an uploaded picture's address; null when it is not one. */
export function parseUploadUrl(url: string): { org: string; name: string } | null {
  const m = UPLOAD_URL_PATTERN.exec(url);
  return m ? { org: m[1]!, name: m[2]! } : null;
}

/**
 * The one rule of image fields (animal info photos, and any other field holding a picture): only the
 * relative address of a picture uploaded to this server. No external host, no protocol (`javascript:`,
 * `data:`), no path outside the uploads. Whose organisation the picture is the server checks.
 */
export const ImageUrlSchema = z
  .string(required)
  .trim()
  .max(300, { error: 'validation.tooLong' })
  .refine((v) => parseUploadUrl(v) !== null, { error: 'validation.imageUrl' });

/**
 * The map-service (Tianditu) key of the settings form: optional, trimmed, letters and digits. Whether the
 * key works is only known by asking Tianditu for a tile, which the browser does before saving (§5).
 */
export const TdtKeySchema = z
  .string()
  .trim()
  .max(TDT_KEY_MAX, { error: 'validation.tdtKey.length' })
  .regex(/^[A-Za-z0-9]*$/, { error: 'validation.tdtKey.chars' });

/** Weighted display width (§5): characters above code 127 and the caret count 2, others 1. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += ch.codePointAt(0)! > 127 || ch === '^' ? 2 : 1;
  return width;
}

/** Cuts text at the weighted width, adding an ellipsis when anything was cut. */
export function truncateDisplay(text: string, max: number = NICKNAME_DISPLAY_WIDTH): string {
  if (displayWidth(text) <= max) return text;
  let width = 0;
  let out = '';
  for (const ch of text) {
    const w = ch.codePointAt(0)! > 127 || ch === '^' ? 2 : 1;
    if (width + w > max - 1) break;
    width += w;
    out += ch;
  }
  return `${out}…`;
}

/** Masked display (§9): e-mail keeps its first 3 characters and the domain; phone its first and last 3. */
export function maskEmail(email: string): string {
  const at = email.indexOf('@');
  if (at < 0) return email;
  return `${email.slice(0, Math.min(3, at))}***${email.slice(at)}`;
}

export function maskPhone(phone: string): string {
  if (phone.length <= 6) return phone;
  return `${phone.slice(0, 3)}${'*'.repeat(phone.length - 6)}${phone.slice(-3)}`;
}
