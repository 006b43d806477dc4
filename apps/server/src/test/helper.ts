import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import {
  API_BASE,
  calls,
  generateSealKeyPair,
  imageKey,
  LanguageId,
  newRequestCode,
  openSecret,
  parseCredential,
  prepareCall,
  sealSecret,
  sessionCredential,
  signedHeaders,
  signingKey,
  toBase64,
} from '@wildtrack/contract';
import { buildApp, type Services } from '../app.js';
import type { Job } from '../jobs/runner.js';
import { usePasswordHashing } from '../modules/user/service.js';
import { loadConfig } from '../config.js';
import { now as clockNow } from '../lib/clock.js';
import { connect, type Db, migrateToLatest } from '../db/connect.js';
import type { DialectName } from '../db/dialect.js';
import { inject } from 'vitest';
import { databaseUrlOf } from './global-setup.js';

/** The run's migrated databases (test/global-setup.ts), or none outside a vitest run that made them. */
function provided(): { sqliteTemplate: string; pgTemplate: string } {
  try {
    return { sqliteTemplate: inject('sqliteTemplate') ?? '', pgTemplate: inject('pgTemplate') ?? '' };
  } catch {
    return { sqliteTemplate: '', pgTemplate: '' };
  }
}

/**
 * The project's shared real data (Movebank exports), beside the project's folder as on any fresh clone
 * (../shared/data from the repository root); WILDTRACK_SHARED_DATA overrides it.
 */
export const SHARED_DATA = process.env.WILDTRACK_SHARED_DATA ?? fileURLToPath(new URL('../../../../../shared/data/', import.meta.url));

/** SQLite always; PostgreSQL too when DATABASE_URL is set (each test app gets a database of its own: createTestApp). */
export const DIALECTS: DialectName[] = process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** The image cookie's value for a session credential, as the web client sets it: `<SessionId>.<image key>`. */
export function imageCookie(credential: string): string {
  const { id, token } = parseCredential(credential);
  return `${id}.${imageKey(signingKey(token))}`;
}

export interface Envelope {
  Code: number;
  Msg: string;
  Data: unknown;
}

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  /** Every background job of the app (jobs/index.ts serverJobs); those 'with the app' are running. */
  jobs: readonly Job[];
  database: Db;
  dataDir: string;
  /** A signed POST of a contract call, as the web client sends it. */
  call(pathUnderApi: string, body?: unknown, opts?: CallOptions): Promise<{ res: LightMyRequestResponse; body: Envelope }>;
  /**
   * Signs in as the web client does: the password sealed to the server's key, a fresh client key in the
   * body; `credential` is `<SessionId>.<Token>` with the token opened from the answer (undefined when
   * the sign-in was refused), what `CallOptions.token` takes; `timeZone` is the browser's zone it sends (+08:00).
   */
  login(account: string, password: string, lang?: 'zh' | 'en', timeZone?: string): Promise<{ res: LightMyRequestResponse; body: Envelope; credential: string | undefined }>;
  /** Creates a user in a fresh organisation (or the named one) and signs them in; `token` is the session credential. */
  userWithToken(opts?: { org?: string; email?: string }): Promise<{ token: string; userName: string; password: string }>;
  close(): Promise<void>;
}

export interface CallOptions {
  /** The session credential `<SessionId>.<Token>` (login's `credential`): x-session and the signing key. */
  token?: string;
  lang?: 'zh' | 'en';
  /** Replace or drop (undefined) headers after signing, to forge requests. */
  headers?: Record<string, string | undefined>;
  requestCode?: string;
  /** The signature's timestamp; the server's clock (lib/clock.ts) unless given, so a fixed clock signs at its instant. */
  now?: number;
  /** Send this raw text instead of JSON.stringify(body) (still signed over it, never encrypted). */
  raw?: string;
  /**
   * Send a signed-in call's body in clear (docs/api.md "Encrypted bodies and answers"): by default a call
   * with `token` goes encrypted as the web client sends it, and `body` is the envelope with its Data opened.
   */
  clear?: boolean;
}

export async function createTestApp(dialect: DialectName, env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-test-'));
  let dropDatabase: (() => Promise<void>) | undefined;
  let database: Db;
  // A copy of the run's migrated database (test/global-setup.ts) when there is one, else one migrated here.
  const templates = provided();
  if (dialect === 'postgres') {
    const url = process.env.DATABASE_URL as string;
    const suffix = randomBytes(6).toString('hex');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    if (templates.pgTemplate) {
      // named after the template, so that the run's end drops whatever a test app left (global-setup.ts)
      const name = `${templates.pgTemplate}_${suffix}`;
      await admin.query(`create database ${name} template ${templates.pgTemplate}`);
      database = connect({ databaseUrl: databaseUrlOf(url, name) });
      dropDatabase = async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        // Not "with (force)": PostgreSQL waits for the app's closing sessions to end (a forced drop killed
        // them mid-goodbye, an uncaught error in the test). One still open 5 s on is dropped at the run's end.
        await c.query(`drop database ${name}`).catch(() => undefined);
        await c.end();
      };
    } else {
      const schema = `t_${suffix}`;
      await admin.query(`create schema ${schema}`);
      database = connect({ databaseUrl: url, pgSchema: schema });
      dropDatabase = async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      };
      await migrateToLatest(database);
    }
    await admin.end();
  } else {
    const file = path.join(dataDir, 'test.db');
    if (templates.sqliteTemplate) fs.copyFileSync(templates.sqliteTemplate, file);
    database = connect({ sqliteFile: file });
    if (!templates.sqliteTemplate) await migrateToLatest(database);
  }
  // The sign-in rate limit (per address: every injected request comes from 127.0.0.1) is off unless a
  // test sets it: the harness sends hundreds of sign-in bodies, and a limit test sets its own.
  // The weather source is a closed local port unless a test names its stub: no test asks the internet.
  // Passwords hashed at 1 MiB of memory, not argon2's 64: the tests create and sign in users hundreds of times,
  // each a hash or a verify, and what they check of passwords does not depend on the cost
  // (PASSWORD_HASH_MEMORY_KIB=65536 in the shell runs them at the server's default).
  // The field cipher is off, which still answers encrypted requests encrypted: `call` sends signed-in bodies
  // encrypted as the console does, and the tests that build their own requests may send them in clear
  // (field-cipher.test.ts runs it on).
  const config = loadConfig({
    LOG_LEVEL: 'silent', WILDTRACK_DATA: dataDir, WEB_DIST: path.join(dataDir, 'no-web'), SIGN_IN_RATE_LIMIT: '0', WEATHER_URL: 'http://127.0.0.1:9/v1/forecast', FIELD_CIPHER: 'off',
    PASSWORD_HASH_MEMORY_KIB: process.env.PASSWORD_HASH_MEMORY_KIB ?? '1024', ...env,
  });
  usePasswordHashing(config);
  const { app, services, jobs } = await buildApp(config, database);

  const call: TestApp['call'] = async (p, body, opts = {}) => {
    const encrypted =
      opts.token && body !== undefined && opts.raw === undefined && !opts.clear
        ? prepareCall({
            credential: opts.token,
            path: p,
            body,
            lcid: LanguageId[opts.lang ?? 'en'],
            ...(opts.requestCode ? { requestCode: opts.requestCode } : {}),
            now: opts.now ?? clockNow(),
          })
        : undefined;
    const payload = encrypted ? encrypted.payload : (opts.raw ?? (body === undefined ? undefined : JSON.stringify(body)));
    const headers: Record<string, string> = encrypted
      ? { ...encrypted.headers }
      : {
          ...signedHeaders({
            token: opts.token,
            path: p,
            body: payload,
            lcid: LanguageId[opts.lang ?? 'en'],
            ...(opts.requestCode ? { requestCode: opts.requestCode } : {}),
            now: opts.now ?? clockNow(),
          }),
        };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    for (const [k, v] of Object.entries(opts.headers ?? {})) {
      if (v === undefined) delete headers[k];
      else headers[k] = v;
    }
    const inject: InjectOptions = { method: 'POST', url: API_BASE + p, headers, ...(payload === undefined ? {} : { payload }) };
    const res = await app.inject(inject);
    if (encrypted && (res.headers['content-type'] ?? '').toString().includes('json')) {
      const opened = await encrypted.open(res.body);
      return { res, body: { Code: opened.Code, Msg: opened.Msg, Data: opened.Data } };
    }
    return { res, body: res.json() as Envelope };
  };

  const login: TestApp['login'] = async (account, password, lang = 'en', timeZone = '+08:00') => {
    const key = await call(calls.GetPublicKey.path, {});
    const publicKey = (key.body.Data as { PublicKey: string }).PublicKey;
    const requestCode = newRequestCode();
    const clientKey = generateSealKeyPair();
    const r = await call(
      calls.PasswordLogin.path,
      { account, pwd: sealSecret(publicKey, password, requestCode), timeZone, clientKey: toBase64(clientKey.publicKey) },
      { requestCode, lang },
    );
    const data = r.body.Data as { Token?: string; SessionId?: string } | null;
    const credential =
      data?.Token && data.SessionId ? sessionCredential(data.SessionId, openSecret(clientKey.secretKey, data.Token, requestCode, 'token')) : undefined;
    return { ...r, credential };
  };

  let counter = 0;
  const userWithToken: TestApp['userWithToken'] = async (opts = {}) => {
    counter += 1;
    const userName = `tester${counter}${randomBytes(3).toString('hex')}`;
    const password = 'Field-Station-1';
    await services.users.createUser({ orgName: opts.org ?? `Org ${userName}`, userName, password, email: opts.email });
    const r = await login(userName, password);
    const token = r.credential;
    if (!token) throw new Error(`login failed: ${JSON.stringify(r.body)}`);
    return { token, userName, password };
  };

  return {
    app,
    services,
    jobs,
    database,
    dataDir,
    call,
    login,
    userWithToken,
    async close() {
      await app.close();
      await database.close();
      await dropDatabase?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
