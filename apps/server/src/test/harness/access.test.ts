import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type AccessRule, accessRules, API_BASE, type CallDef, calls, Code, isAccessRule, type Lang, LIVE_STREAM_PATH, message, type MessageKey, newRequestCode, sealSecret } from '@wildtrack/contract';
import { DIALECTS } from '../helper.js';
import { bodyFor, ruleKinds, subjectFields } from './bodies.js';
import { buildWorld, send, type Subject, type World } from './world.js';
import { useFixedClock } from '../clock.js';
import { NOW } from '../fixed-time.js';

/**
 * The authorization harness (issue 11 item 1), generated from the contract: every call × every kind of
 * caller, the answer checked against the call's declared access rule, and the database unchanged after
 * every refusal. A new call is walked as soon as it is in `calls` with its rule; nobody writes its cases.
 */

const ALL_CALLS = Object.entries(calls as unknown as Record<string, CallDef>).sort(([a], [b]) => a.localeCompare(b));

/**
 * What the declared rule says a subject gets: allowed, or refused with one of these codes (and this
 * message); 'either' when the rule doesn't decide (a public call presented with a dead session: the
 * signature is keyed with that session, so the transport may refuse it as it would any call).
 */
type Expected = { allowed: true } | { allowed: false; codes: readonly number[]; key?: MessageKey } | { allowed: 'either' };

const ALLOWED: Expected = { allowed: true };
/** A caller without a live session: no token, an unknown one, or one signed out. The transport answers 1004 (1020 when the signature can't be checked against a session). */
const NO_SESSION: Expected = { allowed: false, codes: [Code.SessionExpired, Code.BadSignature] };
const NO_DEVICE: Expected = { allowed: false, codes: [Code.NotFound], key: 'device.notFound' };
const NO_FOLDER: Expected = { allowed: false, codes: [Code.NotFound], key: 'folder.notFound' };
const FORBIDDEN: Expected = { allowed: false, codes: [Code.Forbidden] };

export function expectedOf(rule: AccessRule, s: Subject): Expected {
  if (rule === 'public') return s.signedIn || s.token === undefined ? ALLOWED : { allowed: 'either' };
  if (!s.signedIn) return NO_SESSION;
  if (rule === 'session') return ALLOWED;
  const visible = s.relation === 'own' || s.relation === 'share' || s.relation === 'example';
  if (rule === 'device read') return visible ? ALLOWED : NO_DEVICE;
  if (rule.startsWith('device right ')) {
    if (!visible) return NO_DEVICE;
    return s.rights[rule.slice('device right '.length) as keyof Subject['rights']] ? ALLOWED : FORBIDDEN;
  }
  if (rule === 'device own') return s.relation === 'own' ? ALLOWED : visible ? FORBIDDEN : NO_DEVICE;
  // Folders: the subject's are the owner's own, the sharer's folder for a share, the experience folder
  // for an example; a hidden one's is a shared or the experience folder the caller doesn't see, which is
  // read-only by its name whoever names it.
  if (rule === 'folder read') return s.relation === 'stranger' || s.relation === 'hidden' ? NO_FOLDER : ALLOWED;
  if (rule === 'folder edit') return s.relation === 'own' ? ALLOWED : s.relation === 'stranger' ? NO_FOLDER : FORBIDDEN;
  if (rule === 'primary') return s.primary ? ALLOWED : FORBIDDEN;
  throw new Error(`the harness does not know the rule ${rule}: add what it expects here`);
}

/** Several rules are checked in order: the first that refuses decides. */
export function expectedOfAccess(def: CallDef, s: Subject): Expected {
  for (const rule of accessRules(def.access!)) {
    const e = expectedOf(rule, s);
    if (e.allowed !== true) return e;
  }
  return ALLOWED;
}

/** An answer that refuses access (whatever else a call may answer to an allowed caller: a business refusal, 601 for a value, ...). */
function isAccessRefusal(code: number | undefined, msg: string | undefined, lang: Lang): boolean {
  if (code === Code.Forbidden || code === Code.SessionExpired || code === Code.BadSignature) return true;
  return code === Code.NotFound && (msg === message(lang, 'device.notFound') || msg === message(lang, 'folder.notFound'));
}

describe('every call declares its access rule', () => {
  it.each(ALL_CALLS)('%s', (_name, def) => {
    expect(def.access, `${def.path} has no access rule (packages/contract/src/call.ts AccessRule)`).toBeDefined();
    const rules = accessRules(def.access!);
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) expect(isAccessRule(rule), `${def.path}: unknown rule ${String(rule)}`).toBe(true);
    expect(def.auth === 'public', `${def.path}: auth ${def.auth} with access ${JSON.stringify(def.access)}`).toBe(rules[0] === 'public');
    // A rule about a device or a folder needs a body field naming it, or the server can't check it.
    const { device, folder } = ruleKinds(def);
    if (device || folder) expect(subjectFields(def), `${def.path}: its rule names a ${device ? 'device' : 'folder'} its body has no field for`).not.toEqual([]);
  });
});

/** A body with the named string fields sealed to the server key for this request code, as the client sends it. */
function sealFields(body: Record<string, unknown>, fields: readonly string[], publicKey: string, requestCode: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, fields.includes(k) && typeof v === 'string' ? sealSecret(publicKey, v, requestCode) : v]));
}

describe.each(DIALECTS)('the access walk on %s', (dialect) => {
  let w: World;
  // The world's shares are made around the server's clock, and read against it: fixed at NOW.
  useFixedClock(NOW);
  /** The server key sealed fields go to. */
  let publicKey = '';
  /** Calls the owner made with success: the generated bodies reach the handlers, not just the schema. */
  const ownerSucceeded = new Set<string>();

  beforeAll(async () => {
    // Background jobs stay still: the walk compares the database before and after each call.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    w = await buildWorld(dialect);
    publicKey = ((await w.t.call(calls.GetPublicKey.path, {})).body.Data as { PublicKey: string }).PublicKey;
  }, 120_000);
  afterAll(async () => {
    await w?.close();
    vi.useRealTimers();
  });

  it('serves every contract call, and no route under /prod-api/api that is not one', async () => {
    await w.t.app.ready();
    const paths = new Set(ALL_CALLS.map(([, def]) => API_BASE + def.path));
    for (const [, def] of ALL_CALLS) expect(w.t.app.hasRoute({ method: def.method ?? 'POST', url: API_BASE + def.path }), def.path).toBe(true);
    // printRoutes draws a radix tree: a line's path is its parent's plus its own segment.
    const stack: string[] = [];
    const routes: string[] = [];
    for (const line of w.t.app.printRoutes({ commonPrefix: false }).split('\n')) {
      const m = /^([│ ]*)[├└]── (.*?) \(([A-Z, ]+)\)$/.exec(line.replace(/\s+$/, ''));
      if (!m) continue;
      const depth = m[1]!.length / 4;
      stack[depth] = (depth > 0 ? stack[depth - 1]! : '') + m[2]!;
      stack.length = depth + 1;
      routes.push(stack[depth]!);
    }
    expect(routes.length).toBeGreaterThan(ALL_CALLS.length);
    // The one route the contract declares that is not a call: the live stream (contract live.ts), a signed GET
    // answered with server-sent events for as long as the console stays; its callers (no session, a forged
    // signature, a stranger, a share that ends while connected) are walked by live/live.test.ts, not here,
    // since an allowed caller's answer never ends.
    const streams = new Set([API_BASE + LIVE_STREAM_PATH]);
    const strays = routes.filter((r) => r.startsWith(`${API_BASE}/api/`) && !paths.has(r) && !streams.has(r));
    expect(strays, 'routes under /prod-api/api without a CallDef in the contract').toEqual([]);
  });

  it.each(ALL_CALLS)('%s: each caller gets what the rule says, and a refusal changes nothing', async (_name, def) => {
    const problems: string[] = [];
    for (const [i, s] of w.subjects.entries()) {
      const lang: Lang = i % 2 === 0 ? 'en' : 'zh';
      const body = bodyFor(def, s, w.range);
      const parsed = (def.multipart?.fields ?? def.body).safeParse(body);
      if (!parsed.success) throw new Error(`${def.path}: the generated body ${JSON.stringify(body)} is refused by its own schema: ${parsed.error.message}`);
      // Where the rule refuses callers by who they are, the sealed fields go sealed as the client sends them,
      // so that the answer is the rule's and not 1023 for a clear value. Under 'session' and 'public' any
      // caller is let through; there the clear value (1023) keeps a wrong password from counting against anyone.
      const requestCode = newRequestCode();
      const byWho = accessRules(def.access!).some((r) => r !== 'public' && r !== 'session');
      const sealed = def.sealed?.length && byWho ? sealFields(body, def.sealed, publicKey, requestCode) : body;
      const a = await send(w.t, def, sealed, s.token, lang, undefined, requestCode);
      const expected = expectedOfAccess(def, s);
      if (s === w.owner && a.code === Code.Success) ownerSucceeded.add(def.path);
      const where = `${s.name} (${lang}) sent ${a.sent} → HTTP ${a.status} ${a.code} ${a.msg}`;
      if (a.status >= 500 || a.code === undefined || a.code === Code.ServerError) problems.push(`${where}: not an answer`);
      else if (expected.allowed === true) {
        if (isAccessRefusal(a.code, a.msg, lang)) problems.push(`${where}: refused, but the rule ${JSON.stringify(def.access)} allows it`);
      } else if (expected.allowed === false) {
        if (!expected.codes.includes(a.code)) problems.push(`${where}: expected ${expected.codes.join(' or ')} by the rule ${JSON.stringify(def.access)}`);
        else if (expected.key && a.msg !== message(lang, expected.key)) problems.push(`${where}: expected the message "${message(lang, expected.key)}"`);
      }
      const changed = await w.watch.changes();
      if (changed.length > 0) {
        if (expected.allowed === false || a.code !== Code.Success) {
          const what = changed.map((c) => `${c.table} (+${c.added.length} -${c.removed.length} ~${c.changed.length}: ${JSON.stringify(c.added[0] ?? c.changed[0]?.after ?? c.removed[0]).slice(0, 200)})`);
          const why = expected.allowed === false ? 'for a caller the rule refuses' : 'on an answer that is not a success';
          problems.push(`${where}: the database changed ${why}: ${what.join('; ')}`);
        }
        await w.watch.restore(changed.map((c) => c.table));
      }
    }
    expect(problems).toEqual([]);
  });

  it('reached the handlers: the owner succeeded with most calls', () => {
    // The rest answer a business refusal to the smallest body (a bird's info asked as a beast's, an upload without a file, ...).
    expect(ownerSucceeded.size).toBeGreaterThanOrEqual(Math.ceil((ALL_CALLS.length * 2) / 3));
  });

  it('leaves the database as the walk found it', async () => {
    expect(await w.watch.digest()).toBe(await w.watch.snapshotDigest());
  });
});
