import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  calls,
  Code,
  DeviceStatus,
  DeviceType,
  type Fence,
  generateSealKeyPair,
  type IngestAnswer,
  type ShareRecord,
  INGEST_BASE,
  ingestHeaders,
  LanguageId,
  newRequestCode,
  openSecret,
  sealSecret,
  sessionCredential,
  prepareCall,
  signedHeaders,
  toBase64,
  type TreeData,
  type TreeFolder,
} from '@wildtrack/contract';
import { connect, migrateToLatest } from './db/connect.js';
import { DeviceRegistry } from './modules/device/registry.js';
import { DeviceRepository } from './modules/device/repository.js';
import { UserRepository } from './modules/user/repository.js';
import { UserService } from './modules/user/service.js';
import { redisAnswers, TEST_REDIS_URL } from './test/redis.js';
import { BASE } from './test/fixed-time.js';
import { type ServerProcess, startServerProcess } from './test/server-process.js';
import { openLiveReader } from './live/live-client.js';
import { touchLastWork } from './db/shared-writes.js';

const DATABASE_URL = process.env.DATABASE_URL;
const noRedis = (await redisAnswers()) ? null : `no Redis answers at ${TEST_REDIS_URL} (set REDIS_URL)`;
if (noRedis) console.warn(`two-processes.test.ts is skipped: ${noRedis}; it needs Redis (and PostgreSQL, DATABASE_URL, for its PostgreSQL half)`);
else if (!DATABASE_URL) console.warn('two-processes.test.ts runs on SQLite only: DATABASE_URL is not set');

// The servers' clocks start at CLOCK_START, the start of a minute (and of a UTC day), when each is built
// (lib/clock.ts), and run on from there: the rate-limit test, first, counts inside that minute's window.
// `serverNow` is what the test signs with and builds data at: the same instant and elapsed time from just
// before the servers were started, so at most their start-up (seconds) ahead of their clocks.
const CLOCK_START = new Date(BASE).toISOString();
let clockFrom = 0;
const serverNow = () => BASE + Math.floor(performance.now() - clockFrom);

interface Envelope {
  Code: number;
  Msg: string;
  Data: unknown;
}

/** A signed console call over HTTP, as the web client makes it; `from` is the client address (x-forwarded-for). */
function prepare(server: ServerProcess, p: string, body: unknown, opts: { credential?: string; from: string; requestCode?: string }) {
  if (opts.credential) {
    // Signed in: the body encrypted, the answer opened, as the web client does (docs/api.md "Encrypted bodies and answers").
    const prepared = prepareCall({ credential: opts.credential, path: p, body, lcid: LanguageId.en, now: serverNow(), ...(opts.requestCode ? { requestCode: opts.requestCode } : {}) });
    const headers = { ...prepared.headers, 'x-forwarded-for': opts.from };
    const send = (to: ServerProcess = server) =>
      fetch(to.baseUrl + API_BASE + p, { method: 'POST', headers, body: prepared.payload }).then(async (r) => (await prepared.open(await r.text())) as Envelope);
    return { headers, payload: prepared.payload, send };
  }
  const payload = JSON.stringify(body);
  const headers = {
    ...signedHeaders({ token: opts.credential, path: p, body: payload, lcid: LanguageId.en, now: serverNow(), ...(opts.requestCode ? { requestCode: opts.requestCode } : {}) }),
    'content-type': 'application/json',
    'x-forwarded-for': opts.from,
  };
  return { headers, payload, send: (to: ServerProcess = server) => fetch(to.baseUrl + API_BASE + p, { method: 'POST', headers, body: payload }).then(async (r) => (await r.json()) as Envelope) };
}
const call = (server: ServerProcess, p: string, body: unknown, opts: { credential?: string; from: string }) => prepare(server, p, body, opts).send();

/** Signs in as the web client does; the session credential, or the refusal's envelope. */
async function signIn(server: ServerProcess, account: string, password: string, from: string): Promise<{ credential?: string; body: Envelope }> {
  const key = await call(server, calls.GetPublicKey.path, {}, { from });
  if (key.Code !== Code.Success) return { body: key };
  const requestCode = newRequestCode();
  const clientKey = generateSealKeyPair();
  const pwd = sealSecret((key.Data as { PublicKey: string }).PublicKey, password, requestCode);
  const body = await prepare(server, calls.PasswordLogin.path, { account, pwd, timeZone: '+08:00', clientKey: toBase64(clientKey.publicKey) }, { from, requestCode }).send();
  const data = body.Data as { Token?: string; SessionId?: string } | null;
  if (body.Code !== Code.Success || !data?.Token || !data.SessionId) return { body };
  return { credential: sessionCredential(data.SessionId, openSecret(clientKey.secretKey, data.Token, requestCode, 'token')), body };
}

function findFolder(folders: readonly TreeFolder[], id: string): TreeFolder | undefined {
  for (const f of folders) {
    if (f.IdStr === id) return f;
    const inner = findFolder(f.Folders, id);
    if (inner) return inner;
  }
  return undefined;
}

// PostgreSQL: each process with a data folder of its own. SQLite: both on one data folder, so one database
// file in WAL mode (how a server uses both cores of a machine without PostgreSQL; bench/load BENCH_SERVERS=2).
describe.each([
  { dialect: 'PostgreSQL', skip: noRedis ?? (DATABASE_URL ? null : 'DATABASE_URL is not set') },
  { dialect: 'SQLite', skip: noRedis },
])('two server processes on one $dialect database with REDIS_URL', ({ dialect, skip }) => {
  if (skip) return void it.skip(`skipped: ${skip}`, () => {});
  const onPostgres = dialect === 'PostgreSQL';
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const dirs = onPostgres ? [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-two-'))) : Array(2).fill(fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-two-'))) as string[];
  const password = 'Curlew-Flats-3';
  const RATE_LIMIT = 8;
  let a: ServerProcess;
  let b: ServerProcess;
  let orgId = 0;
  let deviceSecret = '';
  let sharedSecret = '';

  beforeAll(async () => {
    if (onPostgres) {
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
    }
    const database = onPostgres ? connect({ databaseUrl: DATABASE_URL, pgSchema: schema }) : connect({ sqliteFile: path.join(dirs[0]!, 'wildtrack.db') });
    await migrateToLatest(database);
    const users = new UserService(new UserRepository(database.db));
    await users.createUser({ orgName: 'Estuary Lab', userName: 'dunlin01', password, email: 'dunlin@example.org', isPrimary: true });
    await users.createUser({ orgName: 'Estuary Lab', userName: 'curlew01', password, email: 'curlew@example.org' });
    orgId = Number((await database.db.selectFrom('organisations').select('id').where('name', '=', 'Estuary Lab').executeTakeFirstOrThrow()).id);
    deviceSecret = (await new DeviceRegistry(new DeviceRepository(database.db)).register({ orgId, imei: '865000000000901', type: DeviceType.Tracker })).secret;
    // issue 26 H1: a device shared with an account of another organisation
    await users.createUser({ orgName: 'Tidal Lab', userName: 'godwit01', password, email: 'godwit@example.org' });
    sharedSecret = (await new DeviceRegistry(new DeviceRepository(database.db)).register({ orgId, imei: '865000000000902', type: DeviceType.Tracker, status: DeviceStatus.Working })).secret;
    // issue 26 H2: a member (not the primary user dunlin01) who shares organisation devices with that account
    await users.createUser({ orgName: 'Estuary Lab', userName: 'stint01', password, email: 'stint@example.org' });
    for (const imei of ['865000000000903', '865000000000904']) {
      const { id } = await new DeviceRegistry(new DeviceRepository(database.db)).register({ orgId, imei, type: DeviceType.Tracker, status: DeviceStatus.Working });
      // heard from a minute before the test's start (a device never heard from takes no instruction)
      await touchLastWork(database.db, Number(id), serverNow() - 60_000);
    }
    await database.close();

    const env = (dir: string) => ({
      WILDTRACK_DATA: dir,
      ...(onPostgres ? { DATABASE_URL: DATABASE_URL!, DATABASE_SCHEMA: schema } : {}),
      REDIS_URL: TEST_REDIS_URL,
      REDIS_KEY_PREFIX: `wildtrack-test-${schema}:`,
      SIGN_IN_RATE_LIMIT: String(RATE_LIMIT),
      TRUST_PROXY: '1',
      CLOCK_START,
    });
    clockFrom = performance.now();
    [a, b] = await Promise.all([startServerProcess(env(dirs[0]!)), startServerProcess(env(dirs[1]!))]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    if (onPostgres) {
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
    for (const d of new Set(dirs)) fs.rmSync(d, { recursive: true, force: true });
  });

  it(`counts the sign-in rate limit per address across both: ${RATE_LIMIT} public calls a minute in all`, async () => {
    // First of the tests, so inside the minute the servers' clocks started in (CLOCK_START, above).
    const from = '203.0.113.50';
    const codes: number[] = [];
    for (let i = 0; i < RATE_LIMIT; i++) codes.push((await call(i % 2 === 0 ? a : b, calls.GetPublicKey.path, {}, { from })).Code);
    expect(codes).toEqual(Array(RATE_LIMIT).fill(Code.Success));
    const refusedA = await call(a, calls.GetPublicKey.path, {}, { from });
    const refusedB = await call(b, calls.GetPublicKey.path, {}, { from });
    expect([refusedA.Code, refusedB.Code]).toEqual([Code.TooManyRequests, Code.TooManyRequests]);
    expect(refusedB.Msg).toMatch(/^Too many sign-in attempts from your address; try again in \d+ seconds$/);
    expect((await call(b, calls.GetPublicKey.path, {}, { from: '203.0.113.51' })).Code).toBe(Code.Success);
  });

  it('refuses on one process a request code used on the other', async () => {
    const { credential } = await signIn(a, 'dunlin01', password, '198.51.100.1');
    expect(credential).toBeDefined();
    const heartbeat = prepare(a, calls.Heartbeat.path, {}, { credential, from: '198.51.100.1' });
    expect((await heartbeat.send(a)).Code).toBe(Code.Success);
    expect(await heartbeat.send(b)).toMatchObject({ Code: Code.Replayed, Msg: 'A repeated request was refused' });
    expect((await heartbeat.send(a)).Code).toBe(Code.Replayed);
    // The session itself is good on both.
    expect((await call(b, calls.Heartbeat.path, {}, { credential, from: '198.51.100.1' })).Code).toBe(Code.Success);
  });

  it('ends a session signed out through one process on the other at once (no session kept per process)', async () => {
    const { credential } = await signIn(b, 'dunlin01', password, '198.51.100.3');
    const opts = { credential, from: '198.51.100.3' };
    expect((await call(a, calls.Heartbeat.path, {}, opts)).Code).toBe(Code.Success);
    expect((await call(b, calls.Exit.path, {}, opts)).Code).toBe(Code.Success);
    expect((await call(a, calls.Heartbeat.path, {}, opts)).Code).toBe(Code.SessionExpired);
  });

  it('counts the lockout across both: 5 failures in all lock the account on both', async () => {
    const codes: number[] = [];
    // Each guess from its own address, so that only the lockout (per account) is at work.
    for (let i = 0; i < 5; i++) codes.push((await signIn(i % 2 === 0 ? a : b, i % 2 === 0 ? 'curlew01' : 'curlew@example.org', 'Wrong-Guess-9', `192.0.2.${i + 1}`)).body.Code);
    expect(codes).toEqual([Code.SignInFailed, Code.SignInFailed, Code.SignInFailed, Code.SignInFailed, Code.AccountLocked]);
    expect((await signIn(b, 'curlew01', password, '192.0.2.50')).body.Code).toBe(Code.AccountLocked);
    expect((await signIn(a, 'curlew01', password, '192.0.2.51')).body.Code).toBe(Code.AccountLocked);
  });

  it("counts an account's signed-out code tries across both: ten a day in all, then refused on both (issue 26 M2)", async () => {
    const database = onPostgres ? connect({ databaseUrl: DATABASE_URL, pgSchema: schema }) : connect({ sqliteFile: path.join(dirs[0]!, 'wildtrack.db') });
    try {
      const account = 'curlew@example.org';
      let n = 0;
      // each call from its own address, so that only the account's budget is at work
      const from = () => `198.18.${Math.floor(++n / 200)}.${n % 200}`;
      const server = () => (n % 2 === 0 ? a : b);
      const ask = () => call(server(), calls.GetUnloginSecurityAuthCode.path, { account }, { from: from() });
      const tryCode = async (code: string) => {
        const where = server();
        const ip = from();
        const key = await call(where, calls.GetPublicKey.path, {}, { from: ip });
        const requestCode = newRequestCode();
        const seal = (v: string) => sealSecret((key.Data as { PublicKey: string }).PublicKey, v, requestCode);
        return prepare(where, calls.ResetPassword.path, { account, code: seal(code), newPwd: seal('Curlew-Flats-4') }, { from: ip, requestCode }).send();
      };
      const sentCode = async () => {
        const row = await database.db.selectFrom('message_outbox').select('text').where('address', '=', account).orderBy('id', 'desc').executeTakeFirst();
        return row?.text.match(/\b(\d{4})\b/)?.[1] ?? '0000';
      };
      for (let round = 0; round < 2; round++) {
        await database.db.updateTable('verification_codes').set({ sent_at: 0 }).execute();
        expect((await ask()).Code).toBe(Code.Success);
        const code = await sentCode();
        const wrong = code === '0000' ? '0001' : '0000';
        for (let i = 0; i < 5; i++) expect((await tryCode(wrong)).Msg).toBe('The verification code is wrong or no longer valid; ask for a new one');
      }
      await database.db.updateTable('verification_codes').set({ sent_at: 0 }).execute();
      const limit = /^Too many verification codes were tried for this account today/;
      expect((await call(a, calls.GetUnloginSecurityAuthCode.path, { account }, { from: from() })).Msg).toMatch(limit);
      expect((await call(b, calls.GetUnloginSecurityAuthCode.path, { account }, { from: from() })).Msg).toMatch(limit);
      expect((await tryCode('1234')).Msg).toMatch(limit);
    } finally {
      await database.close();
    }
  });

  it('delivers a fix stored through one process to consoles connected to either (Redis pub/sub), and a sign-out through one closes the stream on the other', async () => {
    const { credential } = await signIn(a, 'dunlin01', password, '198.51.100.4');
    const onA = await openLiveReader(a.baseUrl, credential, {}, serverNow());
    const onB = await openLiveReader(b.baseUrl, credential, {}, serverNow());
    await onA.waitFor((m) => m.type === 'ready');
    await onB.waitFor((m) => m.type === 'ready');
    const body = JSON.stringify({ fixes: { t: [serverNow() - 60_000], lon: [121.25], lat: [31.5], alt: [3] } });
    const res = await fetch(`${a.baseUrl}${INGEST_BASE}/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...ingestHeaders({ imei: '865000000000901', secret: deviceSecret, path: `${INGEST_BASE}/batch`, body, now: serverNow() }) },
      body,
    });
    expect(res.status).toBe(200);
    for (const reader of [onA, onB]) await reader.waitFor((m) => m.type === 'fix' && m.imei === '865000000000901' && m.lon === 121.25, 15_000);
    // Each process delivers it once.
    expect(onB.messages.filter((m) => m.type === 'fix')).toHaveLength(1);
    // A console that reconnects to the other process catches up from the shared log (a Redis stream).
    const ready = onA.messages.find((m) => m.type === 'ready')!;
    const back = await openLiveReader(b.baseUrl, credential, { fix: ready.type === 'ready' ? ready.cursor.fix : '' }, serverNow());
    await back.waitFor((m) => m.type === 'fix' && m.lon === 121.25);
    back.close();
    onA.close();
    expect((await call(a, calls.Exit.path, {}, { credential, from: '198.51.100.4' })).Code).toBe(Code.Success);
    await onB.ended;
  });

  it("stops a share recipient's fence rules on the owner's device when the owner revokes the share through the other process (issue 26 H1)", async () => {
    const imei = '865000000000902';
    const owner = { credential: (await signIn(a, 'dunlin01', password, '198.51.100.6')).credential, from: '198.51.100.6' };
    const recipient = { credential: (await signIn(b, 'godwit01', password, '198.51.100.7')).credential, from: '198.51.100.7' };
    const text = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const now = serverNow();
    const ok = async (r: Promise<Envelope>) => {
      const e = await r;
      expect(e.Code, e.Msg).toBe(Code.Success);
      return e.Data;
    };
    await ok(call(a, calls.CreateShare.path, { imeis: [imei], account: 'godwit01', effectiveTime: text(now - 3_600_000), failureTime: text(now + 10 * 365 * 86_400_000), canRemoteInstr: true, timeZone: '+08:00' }, owner));
    const fence = (label: string, ruleType: 1 | 2) => ({
      label, shape: ruleType === 1 ? { Type: 'Polygon', Coordinates: [[121, 31], [121.1, 31], [121.1, 31.1], [121, 31.1]] } : { Type: 'Circle', Center: [121.05, 31.05], Radius: 800 },
      inOrOut: 'BOTH', ruleType, allowSendInstr: 1, imeis: [imei], collection: { Mode: 'INTERVAL', IntervalMinutes: 5 }, postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512 }, timeZone: '+08:00',
    });
    const remote = (await ok(call(b, calls.CreateFence.path, fence('Godwit remote', 1), recipient))) as Fence;
    const onboard = (await ok(call(b, calls.CreateFence.path, fence('Godwit on-board', 2), recipient))) as Fence;
    const batch = async (server: ServerProcess, at: number, lon: number, lat: number) => {
      const body = JSON.stringify({ fixes: { t: [at], lon: [lon], lat: [lat] } });
      const res = await fetch(`${server.baseUrl}${INGEST_BASE}/batch`, {
        method: 'POST', headers: { 'content-type': 'application/json', ...ingestHeaders({ imei, secret: sharedSecret, path: `${INGEST_BASE}/batch`, body, now: serverNow() }) }, body,
      });
      expect(res.status).toBe(200);
      return (await res.json()) as IngestAnswer;
    };
    const sent = async () => ((await ok(call(a, calls.GetInstructionCount.path, { imeis: [imei], startTime: text(now - 86_400_000), endTime: text(now + 86_400_000), timeZone: '+08:00' }, owner))) as { Count: number }).Count;
    // the owner sees both fences (through the other process), marked as the recipient's organisation's
    const listed = ((await ok(call(a, calls.GetFenceList.path, { timeZone: '+08:00' }, owner))) as { List: Fence[] }).List.filter((f) => f.Owner?.OrgName === 'Tidal Lab');
    expect(listed.map((f) => f.Id).sort()).toEqual([remote.Id, onboard.Id].sort());
    // while the share lasts: the device is handed the on-board rule, and crossing the remote fence sends its two instructions
    expect((await batch(b, now - 10 * 60_000, 120.9, 30.95)).fenceRules?.filter((r) => r.fenceId === onboard.Id && !r.removed)).toHaveLength(1);
    await batch(b, now - 9 * 60_000, 121.05, 31.05);
    await expect.poll(sent).toBe(2);
    // revoked through A; B, whose fence index was built before, sees it at once
    const shareId = ((await ok(call(a, calls.GetSharedListByPage.path, { timeZone: '+08:00' }, owner))) as { List: ShareRecord[] }).List.find((x) => x.IMEI === imei)!.IdStr;
    await ok(call(a, calls.RevokeShare.path, { shareIds: [shareId] }, owner));
    const after = await batch(b, now - 8 * 60_000, 120.9, 30.95);
    expect(after.fenceRules?.filter((r) => r.fenceId === onboard.Id).map((r) => r.removed)).toEqual([true]);
    await batch(b, now - 7 * 60_000, 121.05, 31.05);
    expect(await sent()).toBe(2);
    expect(((await ok(call(b, calls.GetFenceList.path, { timeZone: '+08:00' }, owner))) as { List: Fence[] }).List.filter((f) => f.Owner?.OrgName === 'Tidal Lab')).toEqual([]);
  });

  it("ends a member's shares on the other process when the member is disabled through one, and the primary user sees and revokes the organisation's shares (issue 26 H2)", async () => {
    const primary = { credential: (await signIn(a, 'dunlin01', password, '198.51.100.8')).credential, from: '198.51.100.8' };
    const member = { credential: (await signIn(a, 'stint01', password, '198.51.100.9')).credential, from: '198.51.100.9' };
    const outside = { credential: (await signIn(b, 'godwit01', password, '198.51.100.10')).credential, from: '198.51.100.10' };
    const text = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const now = serverNow();
    const ok = async (r: Promise<Envelope>) => {
      const e = await r;
      expect(e.Code, e.Msg).toBe(Code.Success);
      return e.Data;
    };
    type List = { List: ShareRecord[]; Organisation: boolean };
    const [kept, revoked] = ['865000000000903', '865000000000904'];
    // the member shares two of the organisation's devices with the outside account for ten years, every right
    await ok(call(a, calls.CreateShare.path, {
      imeis: [kept, revoked], account: 'godwit01', effectiveTime: text(now - 3_600_000), failureTime: text(now + 10 * 365 * 86_400_000),
      canEditDevice: true, canRemoteInstr: true, canDownloadData: true, timeZone: '+08:00',
    }, member));
    const reads = async (server: ServerProcess, imei: string) => (await call(server, calls.GetFixCount.path, { imei, startTime: text(now - 3_600_000), endTime: text(now + 3_600_000), timeZone: '+08:00' }, outside)).Code;
    const instructs = async (server: ServerProcess, imei: string) =>
      (await call(server, calls.SendInstruction.path, { imeis: [imei], params: { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'DATA_CNT', PacketCount: 5, PacketSize: 512 } }, timeZone: '+08:00' }, outside)).Code;
    expect([await reads(b, kept), await reads(b, revoked), await instructs(b, kept)]).toEqual([Code.Success, Code.Success, Code.Success]);
    // the primary user sees the member's shares through the other process, with who gave them, and revokes one by id
    const given = (await ok(call(b, calls.GetSharedListByPage.path, { timeZone: '+08:00' }, primary))) as List;
    const mine = given.List.filter((x) => x.IMEI === kept || x.IMEI === revoked);
    expect([given.Organisation, mine.map((x) => [x.IMEI, x.SharerName, x.State]).sort()]).toEqual([true, [[kept, 'stint01', 'ACTIVE'], [revoked, 'stint01', 'ACTIVE']]]);
    expect(await ok(call(b, calls.RevokeShare.path, { shareIds: [mine.find((x) => x.IMEI === revoked)!.IdStr] }, primary))).toEqual({ Count: 1 });
    expect(await reads(a, revoked)).toBe(Code.NotFound);
    // the member disabled through A: through B at once, the outside account reads nothing and instructs nothing
    const members = ((await ok(call(a, calls.GetMemberList.path, { timeZone: '+08:00' }, primary))) as { List: { UserIdStr: string; UserName: string }[] }).List;
    await ok(call(a, calls.SetMemberEnabled.path, { memberId: members.find((m) => m.UserName === 'stint01')!.UserIdStr, enabled: 0, timeZone: '+08:00' }, primary));
    // The share ends at A's instant of the disabling. These servers' clocks start at CLOCK_START when each is
    // built, so B's may be behind A's by their start-up (seconds under load): B refuses once its clock is past
    // that instant (real servers share the wall clock). Without the fix it never does.
    await expect.poll(() => reads(b, kept), { timeout: 15_000 }).toBe(Code.NotFound);
    expect(await instructs(b, kept)).toBe(Code.NotFound);
    // the primary user, through B, sees the share ended with its sharer
    const after = ((await ok(call(b, calls.GetSharedListByPage.path, { timeZone: '+08:00' }, primary))) as List).List.find((x) => x.IMEI === kept)!;
    expect([after.State, after.SharerName]).toEqual(['EXPIRED', 'stint01']);
  }, 60_000);

  it('shows a tree change made through one process through the other at once', async () => {
    const { credential } = await signIn(b, 'dunlin01', password, '198.51.100.2');
    const opts = { credential, from: '198.51.100.2' };
    const tree = async (s: ServerProcess) => {
      const r = await call(s, calls.GetTree.path, { timeZone: '+08:00' }, opts);
      expect(r.Code, r.Msg).toBe(Code.Success);
      return (r.Data as TreeData).Folders;
    };
    // B has read (and cached) the tree before A changes it.
    const root = findFolder(await tree(b), '-1')!;
    expect(root.Devices.map((d) => d.IMEI)).toContain('865000000000901');

    const created = await call(a, calls.CreateFolder.path, { name: 'Wetland', parentId: '-1' }, opts);
    expect(created.Code, created.Msg).toBe(Code.Success);
    const folderId = (created.Data as { IdStr: string }).IdStr;
    expect(findFolder(await tree(b), folderId)?.Name).toBe('Wetland');

    expect((await call(a, calls.UpdateFolderName.path, { id: folderId, name: 'Salt marsh' }, opts)).Code).toBe(Code.Success);
    expect(findFolder(await tree(b), folderId)?.Name).toBe('Salt marsh');

    expect((await call(a, calls.MoveDevice.path, { imei: '865000000000901', folderId }, opts)).Code).toBe(Code.Success);
    const after = await tree(b);
    expect(findFolder(after, folderId)!.Devices.map((d) => d.IMEI)).toEqual(['865000000000901']);
    expect(findFolder(after, '-1')!.Devices.map((d) => d.IMEI)).not.toContain('865000000000901');

    // And back through B, seen through A.
    expect((await call(b, calls.MoveDevice.path, { imei: '865000000000901', folderId: '-1' }, opts)).Code).toBe(Code.Success);
    expect(findFolder(await tree(a), folderId)!.Devices).toEqual([]);
  });
});
