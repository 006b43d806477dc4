import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, DeviceType, type DownloadTask, formatTime, INGEST_BASE, ingestHeaders } from '@wildtrack/contract';
import { connect, migrateToLatest } from './db/connect.js';
import { callProcess, type ServerProcess, signInProcess, startServerProcess } from './test/server-process.js';
import { DeviceRegistry } from './modules/device/registry.js';
import { DeviceRepository } from './modules/device/repository.js';
import { UserRepository } from './modules/user/repository.js';
import { UserService } from './modules/user/service.js';
import { BASE } from './test/fixed-time.js';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.warn('download-two-processes.test.ts is skipped: it needs PostgreSQL (DATABASE_URL)');

/**
 * Two real server processes on one PostgreSQL, each with its own data folder, both running download tasks:
 * tasks queued through either are each run exactly once (one claim, one attempt, one zip in one of the two
 * folders), whichever process took it.
 * The data is made at a fixed instant (BASE); the processes run on the real clock and their requests are
 * signed on it: a process restarted on the same CLOCK_START would go back in time (its heartbeats too).
 */
describe.skipIf(!DATABASE_URL)('download tasks with two server processes on one PostgreSQL', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const dirs = [0, 1].map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-dl-')));
  const password = 'Godwit-Flats-7';
  const imeis = ['865000000000951', '865000000000952'];
  let servers: ServerProcess[] = [];
  let bulkDeviceId = 0;
  const env = (dir: string) => ({ WILDTRACK_DATA: dir, DATABASE_URL: DATABASE_URL!, DATABASE_SCHEMA: schema, SIGN_IN_RATE_LIMIT: '0' });

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const database = connect({ databaseUrl: DATABASE_URL, pgSchema: schema });
    await migrateToLatest(database);
    await new UserService(new UserRepository(database.db)).createUser({ orgName: 'Godwit Lab', userName: 'godwit01', password, email: 'godwit@example.org', isPrimary: true });
    const orgId = Number((await database.db.selectFrom('organisations').select('id').where('name', '=', 'Godwit Lab').executeTakeFirstOrThrow()).id);
    const secrets = [];
    for (const imei of imeis) secrets.push((await new DeviceRegistry(new DeviceRepository(database.db)).register({ orgId, imei, type: DeviceType.Tracker })).secret);
    bulkDeviceId = Number((await new DeviceRegistry(new DeviceRepository(database.db)).register({ orgId, imei: '865000000000953', type: DeviceType.Tracker })).id);
    await database.close();
    servers = await Promise.all(dirs.map((d) => startServerProcess(env(d))));
    // a day of fixes for each device, through the ingest route
    const now = BASE;
    for (const [i, imei] of imeis.entries()) {
      const body = JSON.stringify({ fixes: { t: [now - 3_600_000, now - 1_800_000], lon: [10, 10.1], lat: [50, 50.1] } });
      const res = await fetch(`${servers[0]!.baseUrl}${INGEST_BASE}/batch`, { method: 'POST', headers: { ...ingestHeaders({ imei, secret: secrets[i]!, path: `${INGEST_BASE}/batch`, body }), 'content-type': 'application/json' }, body });
      expect(res.status).toBe(200);
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`drop schema if exists ${schema} cascade`);
    await admin.end();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('runs each task exactly once, whichever process queued or claimed it', { timeout: 120_000 }, async () => {
    const credentials = await Promise.all(servers.map((s) => signInProcess(s, 'godwit01', password)));
    const day = new Date(BASE + 8 * 3_600_000).toISOString().slice(0, 10);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const s = i % 2;
      const r = await callProcess(servers[s]!, calls.CreateDownloadTask.path, { imeis, kinds: ['fix', 'event'], fileType: 'csv', startTime: `${day} 00:00:00`, endTime: `${day} 23:59:59`, timeZone: '+08:00' }, { credential: credentials[s] });
      expect(r.Code, r.Msg).toBe(Code.Success);
      ids.push((r.Data as DownloadTask).IdStr);
    }
    const list = async () => ((await callProcess(servers[0]!, calls.GetDownloadTaskListByPage.path, { currentPage: 1, pageSize: 20 }, { credential: credentials[0] })).Data as { List: DownloadTask[] }).List;
    await expect.poll(async () => (await list()).filter((x) => x.Status === 'SUCCESSFUL').length, { timeout: 60_000, interval: 250 }).toBe(ids.length);
    const user = (await list())[0]!.UserId;
    for (const id of ids) {
      const where = dirs.filter((d) => fs.existsSync(path.join(d, 'downloads', user, `${id}.zip`)));
      expect(where, `task ${id}'s zip`).toHaveLength(1);
    }
    const database = connect({ databaseUrl: DATABASE_URL, pgSchema: schema });
    try {
      const rows = await database.db.selectFrom('download_tasks').select(['id', 'attempts', 'status']).execute();
      expect(rows.map((r) => [r.status, r.attempts])).toEqual(ids.map(() => ['SUCCESSFUL', 1]));
    } finally {
      await database.close();
    }
    const perProcess = dirs.map((d) => (fs.existsSync(path.join(d, 'downloads', user)) ? fs.readdirSync(path.join(d, 'downloads', user)).length : 0));
    console.log(`10 tasks over two processes: ${perProcess.join(' + ')} zips`);
  });

  it('a process killed mid-task leaves it DOWNLOADING only until its heartbeat ages: restarted, the process takes it up again and it ends SUCCESSFUL, no part file left', { timeout: 240_000 }, async () => {
    // one process only from here: the other must not take the task over
    await servers[1]!.stop();
    const now = BASE;
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      await client.query(`set search_path to ${schema}`);
      // 400,000 fixes over the last 3 days: an XLSX of them takes seconds to write
      await client.query('insert into fixes (device_id, pick_time, lon, lat, valid, received_at) select $1::bigint, $2::bigint + g * 600, 10 + g * 0.000001, 50, 1, $3::bigint from generate_series(0, 399999) g', [bulkDeviceId, now - 3 * 86_400_000, now]);
    } finally {
      await client.end();
    }
    const a = servers[0]!;
    const credential = await signInProcess(a, 'godwit01', password);
    const created = await callProcess(a, calls.CreateDownloadTask.path, { imeis: ['865000000000953'], kinds: ['fix'], fileType: 'xls', startTime: formatTime(now - 3 * 86_400_000 - 60_000, '+08:00'), endTime: formatTime(now, '+08:00'), timeZone: '+08:00' }, { credential });
    expect(created.Code, created.Msg).toBe(Code.Success);
    const id = Number((created.Data as DownloadTask).IdStr);
    const database = connect({ databaseUrl: DATABASE_URL, pgSchema: schema });
    try {
      const row = () => database.db.selectFrom('download_tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      await expect.poll(async () => { const r = await row(); return r.status === 'DOWNLOADING' && Number(r.rows) > 0; }, { timeout: 60_000, interval: 100 }).toBe(true);
      a.child.kill('SIGKILL');
      await new Promise((r) => a.child.once('exit', r));
      const killed = await row();
      expect(killed.status).toBe('DOWNLOADING');
      const user = String(killed.user_id);
      const part = path.join(dirs[0]!, 'downloads', user, `${id}.zip.part`);
      expect(fs.existsSync(part), 'the killed process left its part file').toBe(true);
      console.log(`killed at ${killed.rows} rows`);
      // restarted on the same data folder: once the heartbeat is older than 15 s the task is queued again and run
      servers[0] = await startServerProcess(env(dirs[0]!));
      await expect.poll(async () => (await row()).status, { timeout: 150_000, interval: 500 }).toBe('SUCCESSFUL');
      const done = await row();
      expect(Number(done.attempts)).toBe(2);
      expect(Number(done.rows)).toBe(400_000);
      expect(fs.existsSync(part)).toBe(false);
      expect(fs.existsSync(path.join(dirs[0]!, 'downloads', user, `${id}.zip`))).toBe(true);
    } finally {
      await database.close();
    }
  });
});
