import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { type Kysely, sql } from 'kysely';
import {
  API_BASE,
  type CallDef,
  calls,
  Code,
  DEVICE_RIGHTS,
  type DeviceRight,
  DeviceType,
  EXPERIENCE_FOLDER_ID,
  formatTime,
  LanguageId,
  SENSOR_FLAG_NAMES,
  SHARED_FOLDER_PREFIX,
  signedHeaders,
  SpeciesType,
  message,
} from '@wildtrack/contract';
import type { DialectName } from '../../db/dialect.js';
import { DeviceRepository } from '../../modules/device/repository.js';
import { SAMPLES_ORG } from '../../modules/device/samples.js';
import { createTestApp, type TestApp } from '../helper.js';
import { now as clockNow } from '../clock.js';

/**
 * The world the generated harnesses walk: an organisation that owns devices and folders, a user it
 * shares devices with (one device per share right, and one with none), a user whose shares are outside
 * their window and whose experience switch is off,
 * a stranger from another organisation, the experience devices, and callers without a live session.
 * Built once per dialect; DbWatch tells what a call changed and puts it back.
 */

/**
 * How the caller stands to the device and folder the body names: their organisation's, shared with them
 * in its window, an example device (experience switch on), one they can't see although it has to do with
 * them (a share outside its window, an example device with the switch off: the folder they name is a
 * shared or experience folder, read-only by its name), another organisation's.
 */
export type Relation = 'own' | 'share' | 'example' | 'hidden' | 'stranger';

export interface Subject {
  name: string;
  /** The session credential (CallOptions.token); undefined for a caller without one. */
  token: string | undefined;
  /** Whether the token is a live session (false: none, garbage, signed out). */
  signedIn: boolean;
  relation: Relation;
  /** The rights the caller holds on the device (what a share grants; all on their own). */
  rights: Record<DeviceRight, boolean>;
  imei: string;
  /** What a list of devices holds (imeis): the device alone unless said otherwise. */
  imeis?: string[];
  /** A folder to act on and a second one (a move's target, a new folder's parent). */
  folder: string;
  target: string;
  /** A fix of the device (its Id: PickTime as epoch ms). */
  fixId: string;
  /** The caller is their organisation's primary user (the owner is; nobody else). */
  primary?: boolean;
}

export interface World {
  t: TestApp;
  dialect: DialectName;
  subjects: Subject[];
  /** The owner's subject (the bad-input harness calls as the owner, so that the body is what is checked). */
  owner: Subject;
  /** The range every fixture fix falls in, in ZONE. */
  range: { startTime: string; endTime: string };
  watch: DbWatch;
  close(): Promise<void>;
}

export const ZONE = '+08:00';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Fixture fixes are made at a fixed instant (not "now"): 2026-06-01 00:00 UTC. */
const FIX_TIME = Date.UTC(2026, 5, 1);

const NO_RIGHTS = Object.fromEntries(DEVICE_RIGHTS.map((r) => [r, false])) as Record<DeviceRight, boolean>;
const ALL_RIGHTS = Object.fromEntries(DEVICE_RIGHTS.map((r) => [r, true])) as Record<DeviceRight, boolean>;
/** What an example device allows (device/access.ts EXAMPLE_RIGHTS): downloading its data only. */
const EXAMPLE_RIGHTS = { ...NO_RIGHTS, DownloadData: true };
/** The rights a share can carry (device_shares columns); EditFix and ShareDevice never travel with one. */
const SHARE_RIGHTS = { EditDevice: 'edit_device', RemoteInstr: 'remote_instr', DownloadData: 'download_data' } as const;

/**
 * A describe block's world, handed to `got` once built: the background jobs' timers stay still (a walk
 * compares the database before and after each call), and the world is closed after the block.
 */
export function useWorld(dialect: DialectName, got: (w: World) => void, env: Record<string, string> = {}): void {
  let world: World | undefined;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    world = await buildWorld(dialect, env);
    got(world);
  }, 120_000);
  afterAll(async () => {
    await world?.close();
    vi.useRealTimers();
  });
}

/** `env`: more of the server's environment (the upload harness sets a quick minimum body rate). */
export async function buildWorld(dialect: DialectName, env: Record<string, string> = {}): Promise<World> {
  // Download tasks are not run here: a task the owner creates would finish in the background (a file, a
  // 'ready' notice) while a later caller's refusal is being checked for an unchanged database.
  const t = await createTestApp(dialect, { DOWNLOAD_TASKS: 'off', ...env });
  const db = t.database.db;
  const repo = new DeviceRepository(db);
  // The server's clock: the shares' windows are made around the instant the test fixed it at.
  const now = clockNow();
  // The experience devices' organisation with one device of its own (the full sample fleet takes seconds to make).
  const samplesOrg = await repo.createOrg(SAMPLES_ORG, true, now);

  const owner = await t.userWithToken({ org: 'Harness Owner' });
  const recipient = await t.userWithToken({ org: 'Harness Recipient' });
  const lapsed = await t.userWithToken({ org: 'Harness Lapsed' });
  const stranger = await t.userWithToken({ org: 'Harness Stranger' });
  const orgOf = (name: string) => t.services.devices.orgIdByName(name);
  const userIn = async (org: string) => Number((await db.selectFrom('users').select('id').where('org_id', '=', await orgOf(org)).executeTakeFirstOrThrow()).id);
  const ownerOrg = await orgOf('Harness Owner');
  const ownerId = await userIn('Harness Owner');
  const recipientId = await userIn('Harness Recipient');
  await db.updateTable('users').set({ is_primary: 1 }).where('id', '=', ownerId).execute();
  const lapsedId = await userIn('Harness Lapsed');

  const field = await repo.findOrCreateFolder(ownerOrg, 'Field', now);
  const station = await repo.findOrCreateFolder(ownerOrg, 'Station', now);
  // Every sensor flag: a call about a kind of record answers the owner (a device without the kind is refused 601).
  const register = async (imei: string, folderId: number | null, orgId = ownerOrg) => {
    const { id } = await t.services.devices.register({ orgId, imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: SENSOR_FLAG_NAMES, folderId, example: orgId === samplesOrg });
    await db
      .insertInto('fixes')
      .values([0, 1, 2].map((i) => ({ device_id: id, pick_time: FIX_TIME + i * HOUR, lon: 116 + i / 100, lat: 40, alt: 50, speed: 3, course: null, temperature: 20, activity: null, voltage: 3.9, channel: null, satellites: 8, hdop: 1, vdop: null, grade: 1, valid: 1, tx_time: FIX_TIME + i * HOUR, received_at: now, invalid_by: null, invalid_at: null, invalid_reason: null, extra: null })))
      .execute();
    // An audio recording (PDM, 10 ms of silence) at the range's start, where the recording calls' bodies point (bodies.ts).
    await t.services.ingest.storeMedia(id, { kind: 'audio', t: FIX_TIME - DAY, rate: 512_000, bitDepth: 1 }, Buffer.alloc(640, 0x55), 'audio/x-pdm', null, now);
    return id;
  };
  const share = async (deviceId: number, recipientUserId: number, rights: Partial<Record<keyof typeof SHARE_RIGHTS, boolean>>, from: number, to: number) =>
    db
      .insertInto('device_shares')
      .values({
        device_id: deviceId, owner_user_id: ownerId, recipient_user_id: recipientUserId,
        edit_device: rights.EditDevice ? 1 : 0, remote_instr: rights.RemoteInstr ? 1 : 0, download_data: rights.DownloadData ? 1 : 0,
        effective_time: from, failure_time: to, created_at: now,
      })
      .execute();

  const fixId = String(FIX_TIME);
  const shareFolder = `${SHARED_FOLDER_PREFIX}${ownerId}`;
  const subjects: Subject[] = [];
  await register('HARNESS-OWN', field);
  const own: Subject = { name: 'owner', token: owner.token, signedIn: true, relation: 'own', rights: ALL_RIGHTS, imei: 'HARNESS-OWN', folder: String(field), target: String(station), fixId };
  subjects.push(own);

  // A share in its window for each right a share can carry, and one with none.
  for (const right of [undefined, ...Object.keys(SHARE_RIGHTS)] as (keyof typeof SHARE_RIGHTS | undefined)[]) {
    const imei = `HARNESS-SHARE-${right ?? 'NONE'}`;
    await share(await register(imei, station), recipientId, right ? { [right]: true } : {}, now - DAY, now + DAY);
    subjects.push({
      name: `share with ${right ?? 'no right'}`, token: recipient.token, signedIn: true, relation: 'share',
      rights: right ? { ...NO_RIGHTS, [right]: true } : NO_RIGHTS, imei, folder: shareFolder, target: shareFolder, fixId,
    });
  }
  // Shares outside their window, all rights: one ended, one not begun. The same user has the experience switch off.
  const hidden = { token: lapsed.token, signedIn: true, relation: 'hidden' as const, rights: NO_RIGHTS, folder: shareFolder, target: shareFolder, fixId };
  await share(await register('HARNESS-EXPIRED', station), lapsedId, { EditDevice: true, RemoteInstr: true, DownloadData: true }, now - 3 * DAY, now - DAY);
  subjects.push({ ...hidden, name: 'share expired', imei: 'HARNESS-EXPIRED' });
  await share(await register('HARNESS-FUTURE', station), lapsedId, { EditDevice: true, RemoteInstr: true, DownloadData: true }, now + DAY, now + 3 * DAY);
  subjects.push({ ...hidden, name: 'share not yet begun', imei: 'HARNESS-FUTURE' });
  subjects.push({ ...own, name: 'another organisation', token: stranger.token, relation: 'stranger', rights: NO_RIGHTS });
  // The other way round: the owner naming the stranger's device and folder (in a list, beside their own).
  const theirs = await repo.findOrCreateFolder(await orgOf('Harness Stranger'), 'Theirs', now);
  await register('HARNESS-FOREIGN', theirs, await orgOf('Harness Stranger'));
  subjects.push({
    ...own, name: "another organisation's device", relation: 'stranger', rights: NO_RIGHTS,
    imei: 'HARNESS-FOREIGN', imeis: ['HARNESS-OWN', 'HARNESS-FOREIGN'], folder: String(theirs), target: String(theirs),
  });

  await register('HARNESS-SAMPLE', null, samplesOrg);
  subjects.push({ name: 'experience device', token: owner.token, signedIn: true, relation: 'example', rights: EXAMPLE_RIGHTS, imei: 'HARNESS-SAMPLE', folder: EXPERIENCE_FOLDER_ID, target: EXPERIENCE_FOLDER_ID, fixId });
  await t.call(calls.SetExperienceFuncEnable.path, { enabled: 0 }, { token: lapsed.token });
  subjects.push({ ...hidden, name: 'experience device, switch off', imei: 'HARNESS-SAMPLE', folder: EXPERIENCE_FOLDER_ID, target: EXPERIENCE_FOLDER_ID });

  // Callers without a live session, on the owner's device and folders.
  const signedOut = (await t.login(owner.userName, owner.password)) as { body: { Data: unknown }; credential?: string };
  const signedOutToken = signedOut.credential ?? (signedOut.body.Data as { Token: string }).Token;
  await t.call(calls.Exit.path, {}, { token: signedOutToken });
  // A credential is `<session id>.<token>`: a wrong token for the owner's session, and a session nobody has.
  const dot = owner.token.indexOf('.');
  const garbage = `${dot > 0 ? owner.token.slice(0, dot + 1) : ''}${randomBytes(32).toString('base64url')}`;
  const unknown = `${randomBytes(16).toString('hex')}.${randomBytes(32).toString('base64url')}`;
  for (const [name, token] of [['no token', undefined], ['garbage token', garbage], ['unknown session', unknown], ['signed-out session', signedOutToken]] as const) {
    subjects.push({ ...own, name, token, signedIn: false, rights: NO_RIGHTS });
  }

  for (const s of subjects) s.primary = s.signedIn && s.token === owner.token;

  // Nothing left for the background segment builder: the walk starts from a settled database.
  while ((await t.services.fixes.buildStaleSegments(500)) > 0) {
    /* until none is stale */
  }
  const watch = await DbWatch.install(t.database.db as unknown as Kysely<Record<string, Record<string, unknown>>>, dialect);
  return {
    t,
    dialect,
    subjects,
    owner: own,
    range: { startTime: formatTime(FIX_TIME - DAY, ZONE), endTime: formatTime(FIX_TIME + DAY, ZONE) },
    watch,
    close: () => t.close(),
  };
}

/**
 * Tables that record that a request happened, whatever its answer: they change on refusals by design.
 * - request_codes: the replay memory (every signed request's code is remembered for the window);
 * - rate_counters: attempts counted per address (a refused attempt counts too).
 */
export const BOOKKEEPING_TABLES = new Set(['request_codes', 'rate_counters']);
/** Columns of the same kind: a session's last-seen time is touched by any call that presents it. */
export const BOOKKEEPING_COLUMNS: Record<string, readonly string[]> = { sessions: ['last_seen_at'] };

type Row = Record<string, unknown>;
type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

function cell(v: unknown): unknown {
  if (v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString('hex')}`;
  if (typeof v === 'bigint') return Number(v);
  return v;
}

/**
 * What the database holds, and what a call changed: a trigger on every table logs the tables a
 * statement touched; those are compared row by row (by primary key) with a snapshot of the settled
 * world, and put back when a call that was allowed changed them. `digest()` hashes every table's rows
 * (ordered) for the end-of-walk check.
 */
export class DbWatch {
  private snapshot = new Map<string, Map<string, Row>>();

  private constructor(
    private readonly db: AnyDb,
    private readonly dialect: DialectName,
    readonly tables: string[],
    private readonly keys: Map<string, string[]>,
  ) {}

  static async install(db: AnyDb, dialect: DialectName): Promise<DbWatch> {
    const names =
      dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)).rows
        : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)).rows;
    const tables = names.map((r) => r.name).filter((n) => !n.startsWith('kysely_') && !n.startsWith('harness_') && !BOOKKEEPING_TABLES.has(n)).sort();
    const keys = new Map<string, string[]>();
    for (const table of tables) {
      const pk =
        dialect === 'sqlite'
          ? (await sql<{ name: string }>`select name from pragma_table_info(${table}) where pk > 0 order by pk`.execute(db)).rows
          : (
              await sql<{ name: string }>`select a.attname as name from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                where i.indisprimary and i.indrelid = (quote_ident(current_schema()) || '.' || quote_ident(${table}))::regclass`.execute(db)
            ).rows;
      keys.set(table, pk.map((r) => r.name));
    }
    await sql`create table harness_changes (tbl text not null)`.execute(db);
    if (dialect === 'postgres') {
      await sql`create function harness_log() returns trigger language plpgsql as $$ begin insert into harness_changes (tbl) values (TG_TABLE_NAME); return null; end $$`.execute(db);
      for (const table of tables) {
        await sql`create trigger ${sql.id(`harness_${table}`)} after insert or update or delete on ${sql.table(table)} for each row execute function harness_log()`.execute(db);
      }
    } else {
      for (const table of tables) {
        for (const op of ['insert', 'update', 'delete']) {
          await sql`create trigger ${sql.id(`harness_${table}_${op}`)} after ${sql.raw(op)} on ${sql.table(table)} begin insert into harness_changes (tbl) values (${sql.lit(table)}); end`.execute(db);
        }
      }
    }
    const watch = new DbWatch(db, dialect, tables, keys);
    await watch.takeSnapshot();
    return watch;
  }

  private keyOf(table: string, row: Row): string {
    const pk = this.keys.get(table) ?? [];
    return JSON.stringify(pk.length > 0 ? pk.map((c) => cell(row[c])) : this.content(table, row));
  }

  /** A row as compared: bookkeeping columns left out. */
  private content(table: string, row: Row): string {
    const skip = BOOKKEEPING_COLUMNS[table] ?? [];
    return JSON.stringify(Object.keys(row).sort().filter((c) => !skip.includes(c)).map((c) => [c, cell(row[c])]));
  }

  private async rows(table: string): Promise<Map<string, Row>> {
    const rows = (await sql<Row>`select * from ${sql.table(table)}`.execute(this.db)).rows;
    return new Map(rows.map((r) => [this.keyOf(table, r), r]));
  }

  async takeSnapshot(): Promise<void> {
    for (const table of this.tables) this.snapshot.set(table, await this.rows(table));
    await this.clearLog();
  }

  private async clearLog(): Promise<void> {
    await sql`delete from harness_changes`.execute(this.db);
  }

  /** The rows that differ from the snapshot in one table: added, removed, changed (by key). */
  private async diff(table: string): Promise<{ added: Row[]; removed: Row[]; changed: { before: Row; after: Row }[] }> {
    const before = this.snapshot.get(table) ?? new Map<string, Row>();
    const now = await this.rows(table);
    const added: Row[] = [];
    const changed: { before: Row; after: Row }[] = [];
    for (const [key, row] of now) {
      const old = before.get(key);
      if (!old) added.push(row);
      else if (this.content(table, old) !== this.content(table, row)) changed.push({ before: old, after: row });
    }
    const removed = [...before].filter(([key]) => !now.has(key)).map(([, row]) => row);
    return { added, removed, changed };
  }

  /**
   * The tables whose rows differ from the snapshot since the last look, with what differs (for a
   * failure's message); the log is cleared. A statement that wrote the same values changes nothing.
   */
  async changes(): Promise<{ table: string; added: Row[]; removed: Row[]; changed: { before: Row; after: Row }[] }[]> {
    const logged = (await sql<{ tbl: string }>`select distinct tbl from harness_changes`.execute(this.db)).rows.map((r) => r.tbl);
    if (logged.length === 0) return [];
    await this.clearLog();
    const out = [];
    for (const table of logged.sort()) {
      const d = await this.diff(table);
      if (d.added.length + d.removed.length + d.changed.length > 0) out.push({ table, ...d });
    }
    return out;
  }

  /** Puts the tables back as the snapshot has them (rows a call added go, rows it removed or changed come back). */
  async restore(tables: readonly string[]): Promise<void> {
    const failures: unknown[] = [];
    // Foreign keys decide an order the tables don't declare: a table that fails is tried again after the others.
    let pending = [...tables];
    for (let pass = 0; pass < 4 && pending.length > 0; pass++) {
      const next: string[] = [];
      for (const table of pending) {
        try {
          await this.restoreTable(table);
        } catch (err) {
          failures.push(err);
          next.push(table);
        }
      }
      pending = next;
    }
    await this.clearLog();
    if (pending.length > 0) throw new Error(`could not restore ${pending.join(', ')}: ${String(failures.at(-1))}`);
  }

  private where(table: string, row: Row) {
    const pk = this.keys.get(table) ?? [];
    const cols = pk.length > 0 ? pk : Object.keys(row);
    return sql.join(
      cols.map((c) => (row[c] === null ? sql`${sql.ref(c)} is null` : sql`${sql.ref(c)} = ${row[c]}`)),
      sql` and `,
    );
  }

  private async restoreTable(table: string): Promise<void> {
    const { added, removed, changed } = await this.diff(table);
    for (const row of added) await sql`delete from ${sql.table(table)} where ${this.where(table, row)}`.execute(this.db);
    for (const { before } of changed) {
      const sets = sql.join(Object.keys(before).map((c) => sql`${sql.ref(c)} = ${before[c]}`), sql`, `);
      await sql`update ${sql.table(table)} set ${sets} where ${this.where(table, before)}`.execute(this.db);
    }
    for (const row of removed) {
      const cols = Object.keys(row);
      await sql`insert into ${sql.table(table)} (${sql.join(cols.map((c) => sql.ref(c)))}) values (${sql.join(cols.map((c) => row[c]))})`.execute(this.db);
    }
  }

  /** A hash of every watched table's rows, in order (bookkeeping columns left out). */
  async digest(): Promise<string> {
    const hash = createHash('sha256');
    for (const table of this.tables) {
      hash.update(`\n#${table}\n`);
      for (const line of [...(await this.rows(table)).values()].map((r) => this.content(table, r)).sort()) hash.update(line);
    }
    return hash.digest('hex');
  }

  async snapshotDigest(): Promise<string> {
    const hash = createHash('sha256');
    for (const table of this.tables) {
      hash.update(`\n#${table}\n`);
      for (const line of [...(this.snapshot.get(table) ?? new Map<string, Row>()).values()].map((r) => this.content(table, r)).sort()) hash.update(line);
    }
    return hash.digest('hex');
  }
}

export interface Answer {
  status: number;
  code: number | undefined;
  msg: string | undefined;
  data: unknown;
  /** From the request handed to the server to its answer (signing and encoding left out). */
  ms: number;
  /**
   * This process's CPU time over the same span (the server runs in it, app.inject): the work the call made,
   * which other processes on a busy machine do not inflate as they do `ms`.
   */
  cpuMs: number;
  /** The body as sent (for a failure's message). */
  sent: string;
  res: LightMyRequestResponse;
}

let addresses = 0;
/**
 * Each request from an address of its own: the sign-in rate limit (counted per address, before the body
 * is read) would otherwise answer the harness's many sign-in bodies before their schema does.
 */
function nextAddress(): string {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
}

/** The fields of a body that is an object; none otherwise (a query or upload can't carry anything else). */
function plainObject(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** One signed call as the web client makes it: POST with a JSON body, or GET with the body's fields as the query. */
/** requestCode: the one a body's sealed fields were sealed for (sealedBody); a fresh one otherwise. */
export async function send(t: TestApp, def: CallDef, body: unknown, token: string | undefined, lang: 'en' | 'zh', raw?: string, requestCode?: string): Promise<Answer> {
  let started = 0;
  let cpu = process.cpuUsage();
  let res: LightMyRequestResponse;
  let sent: string;
  if (def.multipart) {
    // An upload: its text fields, then one small file part under a name no call takes (the fields are
    // checked when the first file arrives; the unknown part is refused before anything is stored),
    // signed over an empty body like the web client's.
    const boundary = '----wildtrack-harness';
    const fields = Object.entries(plainObject(body))
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`)
      .join('');
    const file = `--${boundary}\r\nContent-Disposition: form-data; name="harness-part"; filename="harness.txt"\r\nContent-Type: text/plain\r\n\r\nx\r\n`;
    const payload = raw ?? `${fields}${file}--${boundary}--\r\n`;
    sent = payload;
    const headers = signedHeaders({ token, path: def.path, body: undefined, lcid: LanguageId[lang], now: clockNow() });
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    started = performance.now();
    cpu = process.cpuUsage();
    res = await t.app.inject({ method: 'POST', url: API_BASE + def.path, headers, payload, remoteAddress: nextAddress() });
  } else if (def.method === 'GET') {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(plainObject(body))) query.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    const url = query.size > 0 ? `${def.path}?${query.toString()}` : def.path;
    sent = url;
    started = performance.now();
    cpu = process.cpuUsage();
    res = await t.app.inject({ method: 'GET', url: API_BASE + url, headers: signedHeaders({ token, method: 'GET', path: url, body: undefined, lcid: LanguageId[lang], now: clockNow() }), remoteAddress: nextAddress() });
  } else {
    const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
    sent = payload ?? '';
    const headers = signedHeaders({ token, path: def.path, body: payload, lcid: LanguageId[lang], requestCode, now: clockNow() });
    if (payload !== undefined) headers['content-type'] = 'application/json';
    started = performance.now();
    cpu = process.cpuUsage();
    res = await t.app.inject({ method: 'POST', url: API_BASE + def.path, headers, ...(payload === undefined ? {} : { payload }), remoteAddress: nextAddress() });
  }
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  let parsed: { Code?: number; Msg?: string; Data?: unknown } = {};
  if (def.download && res.statusCode === 200 && String(res.headers['content-type']).startsWith(def.download.type) && /^attachment;/.test(String(res.headers['content-disposition']))) {
    // A download's success is its file, not the envelope (CallDef.download); a refusal is still the envelope.
    // It stands for the envelope's success, whose message is in the caller's language.
    parsed = { Code: Code.Success, Msg: message(lang, 'ok'), Data: null };
  } else {
    try {
      parsed = res.json();
    } catch {
      // not an envelope: the checks say so
    }
  }
  return { status: res.statusCode, code: parsed.Code, msg: parsed.Msg, data: parsed.Data, ms, cpuMs, sent: sent.length > 300 ? `${sent.slice(0, 300)}… (${sent.length} chars)` : sent, res };
}
