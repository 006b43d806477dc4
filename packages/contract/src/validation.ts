import { z } from 'zod';
import { CODE_LENGTH, EMAIL_MAX, IMEI_MAX, IMEI_MIN, NICKNAME_DISPLAY_WIDTH, PASSWORD_MAX, PASSWORD_MIN, TDT_KEY_MAX } from './constants.js';

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

export const EmailSchema = z
  .string(required)
  .trim()
  .min(1, required)
  .max(EMAIL_MAX, { error: 'validation.email.length' })
  .regex(/^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/, { error: 'validation.email.invalid' });

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

export const NicknameSchema = z
  .string(required)
  .trim()
  .min(1, { error: 'validation.nickname.required' })
  .max(64, { error: 'validation.nickname.length' });

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
