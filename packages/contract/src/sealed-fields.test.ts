import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type CallDef, defineCall } from './call.js';
import * as calls from './calls/index.js';

/**
 * §7.1 and docs/api.md: passwords and verification codes travel sealed, and a token comes back only
 * sealed to a key the client made for the call. This walks every call of the contract, so a call added
 * later with a `newPwd` or an e-mail `code` it forgot to seal fails here, not in a packet capture.
 */

/** Field names that hold a secret: a password, a verification code, a token. */
const SECRET_NAME = /pwd|passw|secret|token|(^|[a-z])code$|^code/i;
/** Names that end in "code" but are no secret: where the phone number is, which request this is. */
const NOT_SECRET = new Set(['countrycode', 'telephonecode', 'phonecountrycode']);

/**
 * Answered fields that are named like a secret but are meant to be seen: the QR sign-in code is what the
 * screen shows as a QR for another console to photograph (qrlogin.ts); the ticket that receives the
 * session is not named so and is only for the page that asked. A device's ingest secret is shown once to
 * the primary user who registered it, to copy into the device (RegisterDevice); a signed-in answer's Data
 * travels under the session's field cipher, and no other answer carries it again.
 */
const SHOWN_ON_PURPOSE = new Set(['/api/Auth/GetLoginQRCode Data.Code', '/api/Device/Register Data.Secret', '/api/PersonalToken/Create Data.Secret']);

function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_SECRET.has(name.toLowerCase());
}

type Def = { type: string; shape?: Record<string, z.ZodType>; innerType?: z.ZodType; in?: z.ZodType; out?: z.ZodType; element?: z.ZodType; options?: z.ZodType[] };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Every field of a schema with its dotted path (array elements as `[]`), through optional, default, pipe and union. */
function fieldPaths(schema: z.ZodType, prefix = ''): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const out: string[] = [];
      for (const [name, field] of Object.entries(def.shape ?? {})) {
        const p = prefix ? `${prefix}.${name}` : name;
        out.push(p, ...fieldPaths(field, p));
      }
      return out;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return def.innerType ? fieldPaths(def.innerType, prefix) : [];
    case 'pipe':
      return [...(def.in ? fieldPaths(def.in, prefix) : []), ...(def.out ? fieldPaths(def.out, prefix) : [])];
    case 'array':
      return def.element ? fieldPaths(def.element, `${prefix}[]`) : [];
    case 'union':
      return (def.options ?? []).flatMap((o) => fieldPaths(o, prefix));
    default:
      return [];
  }
}

/** Whether a field can hold text: a string (through optional, default, pipe and union), not a flag or a number. */
function holdsText(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (def.type === 'string') return true;
  if (def.type === 'union') return (def.options ?? []).some(holdsText);
  if (def.type === 'pipe') return (def.in ? holdsText(def.in) : false) || (def.out ? holdsText(def.out) : false);
  return def.innerType ? holdsText(def.innerType) : false;
}

/** Every text field of a schema whose name says it holds a secret, with its dotted path. */
function secretTextFields(schema: z.ZodType, prefix = ''): string[] {
  const def = defOf(schema);
  if (def.type === 'object') {
    return Object.entries(def.shape ?? {}).flatMap(([name, field]) => {
      const p = prefix ? `${prefix}.${name}` : name;
      return [...(isSecretName(name) && holdsText(field) ? [p] : []), ...secretTextFields(field, p)];
    });
  }
  if (def.type === 'array') return def.element ? secretTextFields(def.element, `${prefix}[]`) : [];
  if (def.type === 'union') return (def.options ?? []).flatMap((o) => secretTextFields(o, prefix));
  if (def.type === 'pipe') return [...(def.in ? secretTextFields(def.in, prefix) : []), ...(def.out ? secretTextFields(def.out, prefix) : [])];
  return def.innerType ? secretTextFields(def.innerType, prefix) : [];
}

/** What is wrong with one call's sealing, as sentences naming the field; [] when nothing is. */
function sealingProblems(def: CallDef): string[] {
  const problems: string[] = [];
  const bodyFields = new Set(fieldPaths(def.body));
  const sealed = new Set(def.sealed ?? []);
  for (const field of bodyFields) {
    const name = field.slice(field.lastIndexOf('.') + 1).replace('[]', '');
    if (!isSecretName(name)) continue;
    if (field === 'clientKey') continue;
    if (field.includes('.') || field.includes('[]')) problems.push(`${def.path}: ${field} holds a secret inside an object; sealed fields must be top-level`);
    else if (!sealed.has(field)) problems.push(`${def.path}: ${field} looks like a password or code but is not in sealed`);
  }
  for (const field of sealed) if (!bodyFields.has(field)) problems.push(`${def.path}: sealed names ${field}, which the body does not have`);
  const dataFields = fieldPaths(def.data);
  if (dataFields.some((f) => /(^|\.)token$/i.test(f)) && !bodyFields.has('clientKey')) {
    problems.push(`${def.path}: Data carries a Token but the body has no clientKey to seal it to`);
  }
  // An answer carries no password or code in clear; the only secret it may carry is the Token sealed to clientKey.
  for (const field of secretTextFields(def.data)) {
    if (/(^|\.)token$/i.test(field) && bodyFields.has('clientKey')) continue;
    if (SHOWN_ON_PURPOSE.has(`${def.path} Data.${field}`)) continue;
    problems.push(`${def.path}: Data.${field} answers a password or code in clear`);
  }
  return problems;
}

const allCalls = Object.values(calls) as CallDef[];

describe('sealed fields (docs/api.md "Sealed values")', () => {
  it('walks the whole contract', () => {
    expect(allCalls.length).toBeGreaterThan(30);
    expect(allCalls.every((c) => typeof c.path === 'string' && c.body !== undefined)).toBe(true);
  });

  it('seals every password and verification code, answers none, and every call answering a token takes a clientKey', () => {
    expect(allCalls.flatMap(sealingProblems)).toEqual([]);
  });

  it('sign-in seals pwd and answers a token sealed to clientKey', () => {
    expect(calls.PasswordLogin.sealed).toEqual(['pwd']);
    expect(fieldPaths(calls.PasswordLogin.body)).toContain('clientKey');
  });

  it('a member\'s temporary password goes sealed from the browser and comes back in no answer', () => {
    for (const c of [calls.CreateMember, calls.ResetMemberPassword]) {
      expect(c.sealed).toEqual(['tempPwd']);
      expect(secretTextFields(c.data)).toEqual([]);
    }
  });

  it('finds what a careless call would leak', () => {
    const careless = defineCall({
      path: '/api/Auth/Careless',
      auth: 'session',
      body: z.object({ oldPwd: z.string(), newPwd: z.string(), email: z.string(), code: z.string(), countryCode: z.string(), nested: z.object({ smsCode: z.string() }).optional() }),
      data: z.object({ Token: z.string(), Member: z.object({ TempPassword: z.string(), MustChangePassword: z.boolean() }), Codes: z.array(z.object({ smsCode: z.string().optional() })) }),
      sealed: ['oldPwd', 'missing'],
      summary: 'planted',
    });
    expect(sealingProblems(careless)).toEqual([
      '/api/Auth/Careless: newPwd looks like a password or code but is not in sealed',
      '/api/Auth/Careless: code looks like a password or code but is not in sealed',
      '/api/Auth/Careless: nested.smsCode holds a secret inside an object; sealed fields must be top-level',
      '/api/Auth/Careless: sealed names missing, which the body does not have',
      '/api/Auth/Careless: Data carries a Token but the body has no clientKey to seal it to',
      '/api/Auth/Careless: Data.Token answers a password or code in clear',
      '/api/Auth/Careless: Data.Member.TempPassword answers a password or code in clear',
      '/api/Auth/Careless: Data.Codes[].smsCode answers a password or code in clear',
    ]);
    expect(['pwd', 'loginPwd', 'newPassword', 'code', 'emailCode', 'authCode', 'token'].every(isSecretName)).toBe(true);
    expect(['countryCode', 'account', 'email', 'lcid', 'tdtKey', 'imei'].some(isSecretName)).toBe(false);
  });
});
