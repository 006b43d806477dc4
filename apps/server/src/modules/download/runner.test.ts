import fs from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceType, SpeciesType } from '@wildtrack/contract';
import type { Caller } from '../../http/caller.js';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { zipEntries } from '../../test/zip-entries.js';
import { NOW } from '../../test/fixed-time.js';
import { advanceClock, useFixedClock } from '../../test/clock.js';
import type { DeviceGate } from '../device/gate.js';
import { DownloadTaskRepository } from './repository.js';
import { DownloadTaskService, type ExportRequest, type ExportWriters, HEARTBEAT_MS, MAX_ATTEMPTS, STALE_MS } from './service.js';

/**
 * The download task runner (issue 16 item 4): two runners on one database run each task exactly once
 * (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: the conditional claim), a task whose process was killed is
 * taken up again (or failed with a reason), a cancel stops the bytes and leaves no file. Runners here are
 * the service over the app's database with a writer the test controls; each stands for a server process.
 */

const silent = { warn: () => undefined, error: () => undefined };

/** A writer that writes `lines` lines of `kind` for the device, a line per turn of the event loop, counting calls. */
function countingWriters(lines = 3): ExportWriters & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async write(req: ExportRequest, out: Writable, { signal, onRows }) {
      calls.push(`${req.imei}/${req.kind}`);
      for (let i = 0; i < lines; i++) {
        signal.throwIfAborted();
        out.write(`${req.imei},${req.kind},${i}\n`);
        onRows(i + 1);
        await new Promise((r) => setImmediate(r));
      }
      out.end();
    },
    fileName: (req) => `${req.caption}-${req.kind}-CSV(${req.imei}).csv`,
  };
}

/** A writer that writes until stopped; `obeys` false: it never looks at the signal (the runner must stop the bytes itself). */
function endlessWriters(obeys: boolean): ExportWriters & { chunks: number; started: Promise<void> } {
  let started!: () => void;
  const w = {
    chunks: 0,
    started: new Promise<void>((r) => (started = r)),
    async write(_req: ExportRequest, out: Writable, { signal, onRows }: { signal: AbortSignal; onRows: (n: number) => void }) {
      for (;;) {
        if (obeys) signal.throwIfAborted();
        if (out.destroyed) await new Promise((r) => setTimeout(r, 5));
        else out.write(Buffer.alloc(4096, 65));
        w.chunks += 1;
        onRows(w.chunks);
        if (w.chunks === 20) started();
        await new Promise((r) => setTimeout(r, 2));
      }
    },
    fileName: () => 'endless.csv',
  };
  return w;
}

describe.each(DIALECTS)('download task runner on %s', (dialect) => {
  // Tasks, heartbeats and their staleness are read on the server's clock: fixed at NOW (the heartbeats' timers stay real).
  useFixedClock(NOW);
  let t: TestApp;
  let userId = 0;
  let caller: Caller;
  // the runner never resolves devices (that is done when a task is created): none is given
  const devices = {} as DeviceGate;
  const repo = () => new DownloadTaskRepository(t.database.db);
  // one user's tasks here: the per-user cap (queue.test.ts) raised so that both runners claim at once
  const runner = (writers: ExportWriters) => new DownloadTaskService(repo(), devices, writers, t.dataDir, { keepMs: 7 * 24 * 3600_000, perUser: 8 }, silent);
  const queue = async (n: number, caption = 'Stork') => {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      ids.push(
        await repo().create({
          userId,
          title: `task ${i}`,
          imeis: JSON.stringify([{ imei: 'R-ONE', caption, from: 0, to: 1 }, { imei: 'R-TWO', caption: 'Crane', from: 0, to: 1 }]),
          kinds: JSON.stringify(['fix', 'temperature']),
          fileType: 'csv',
          from: 0,
          to: 1,
          zone: '+08:00',
          lang: 'en',
          filesTotal: 4,
          now: NOW,
        }),
      );
    }
    return ids;
  };
  const row = async (id: number) => (await repo().byId(id))!;
  const dir = () => path.join(t.dataDir, 'downloads', String(userId));
  const filesLeft = () => (fs.existsSync(dir()) ? fs.readdirSync(dir()) : []);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.userWithToken({ org: 'Stork Lab' });
    const org = await t.services.devices.orgIdByName('Stork Lab');
    userId = Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', org).executeTakeFirstOrThrow()).id);
    for (const imei of ['R-ONE', 'R-TWO']) await t.services.devices.register({ orgId: org, imei, caption: imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'] });
    caller = { session: { userId, orgId: org } as Caller['session'], lang: 'en', zone: '+08:00', orgName: 'Stork Lab' };
    // the app's own runner stays out of the way: these tests run their own
    await t.services.downloads.close();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('two runners draining one queue at once run each task exactly once', async () => {
    const ids = await queue(8);
    const [a, b] = [countingWriters(), countingWriters()];
    const [ra, rb] = [runner(a), runner(b)];
    await Promise.all([ra.drain(), rb.drain(), ra.drain(), rb.drain()]);
    for (const id of ids) expect(await row(id), `task ${id}`).toMatchObject({ status: 'SUCCESSFUL', attempts: 1, files_done: 4, rows: 12 });
    // 8 tasks × 2 devices × 2 kinds, each file written once by one of them
    const all = [...a.calls, ...b.calls];
    expect(all).toHaveLength(8 * 4);
    expect(filesLeft().sort()).toEqual(ids.map((id) => `${id}.zip`).sort());
    if (dialect === 'postgres') expect(a.calls.length * b.calls.length, 'on PostgreSQL both runners took tasks').toBeGreaterThan(0);
  });

  it('a cancel stops a writer that obeys the signal and one that does not; no partial file is left', async () => {
    for (const obeys of [true, false]) {
      const [id] = await queue(1);
      const w = endlessWriters(obeys);
      const r = runner(w);
      const running = r.drain();
      await w.started;
      expect((await row(id!)).status).toBe('DOWNLOADING');
      const asked = performance.now(); // a duration, only logged
      const answer = await r.cancel(caller, String(id));
      const took = Math.round(performance.now() - asked);
      expect(answer.Status).toBe('CANCELLED');
      expect(filesLeft().filter((f) => f.startsWith(`${id}.`))).toEqual([]);
      const chunks = w.chunks;
      // not a boundary dodged: a while for a writer that went on to show it writes nothing
      await new Promise((res) => setTimeout(res, 50));
      // a writer that ignores the signal may go on into nothing: no file grows
      expect(filesLeft().filter((f) => f.startsWith(`${id}.`))).toEqual([]);
      if (obeys) expect(w.chunks).toBe(chunks);
      console.log(`cancel (${obeys ? 'obeying' : 'deaf'} writer, ${dialect}): answered CANCELLED after ${took} ms`);
      await running;
    }
  });

  it('a cancel asked through another runner (another process) stops the task at its next heartbeat', async () => {
    const [id] = await queue(1);
    const w = endlessWriters(true);
    const running = runner(w).drain();
    await w.started;
    const asked = performance.now(); // a duration, only logged
    const answer = await runner(countingWriters()).cancel(caller, String(id));
    const took = Math.round(performance.now() - asked);
    expect(answer.Status).toBe('CANCELLED');
    expect(filesLeft().filter((f) => f.startsWith(`${id}.`))).toEqual([]);
    console.log(`cancel through another runner (${dialect}): answered after ${took} ms (heartbeat ${HEARTBEAT_MS} ms)`);
    await running;
  });

  it('a task left DOWNLOADING by a killed process is taken up again, and failed with a reason after MAX_ATTEMPTS', async () => {
    const [resumed, given] = await queue(2);
    const old = NOW - STALE_MS - 1000;
    // what a process killed mid-task leaves: the row DOWNLOADING with a heartbeat that no longer moves, a part file
    await t.database.db.updateTable('download_tasks').set({ status: 'DOWNLOADING', attempts: 1, heartbeat_at: old, started_at: old, rows: 5 }).where('id', '=', resumed!).execute();
    await t.database.db.updateTable('download_tasks').set({ status: 'DOWNLOADING', attempts: MAX_ATTEMPTS, heartbeat_at: old, started_at: old }).where('id', '=', given!).execute();
    fs.mkdirSync(dir(), { recursive: true });
    fs.writeFileSync(path.join(dir(), `${resumed}.zip.part`), 'half a zip');
    fs.writeFileSync(path.join(dir(), `${given}.zip.part`), 'half a zip');
    // a heartbeat younger than STALE_MS is left alone
    const fresh = (await queue(1))[0]!;
    await t.database.db.updateTable('download_tasks').set({ status: 'DOWNLOADING', attempts: 1, heartbeat_at: NOW }).where('id', '=', fresh).execute();

    await runner(countingWriters()).tick();
    expect(await row(resumed!)).toMatchObject({ status: 'SUCCESSFUL', attempts: 2, rows: 12 });
    expect(await row(given!)).toMatchObject({ status: 'FAILED' });
    expect(await row(fresh)).toMatchObject({ status: 'DOWNLOADING', attempts: 1 });
    const failed = (await runner(countingWriters()).page(caller, 'FAILED', 1, 10)).List.find((x) => x.IdStr === String(given));
    expect(failed?.Error).toBe(`The server stopped while writing the file; tried ${MAX_ATTEMPTS} times.`);
    expect(filesLeft().filter((f) => f.endsWith('.part'))).toEqual([]);
    await t.database.db.updateTable('download_tasks').set({ status: 'CANCELLED' }).where('id', '=', fresh).execute();
  });

  it('a closing process gives its running task back to the queue; another takes it up', async () => {
    const [id] = await queue(1);
    const w = endlessWriters(true);
    const closing = runner(w);
    const running = closing.drain();
    await w.started;
    await closing.close();
    await running;
    expect(await row(id!)).toMatchObject({ status: 'WAITING', attempts: 1 });
    expect(filesLeft().filter((f) => f.startsWith(`${id}.`))).toEqual([]);
    await runner(countingWriters()).drain();
    expect(await row(id!)).toMatchObject({ status: 'SUCCESSFUL', attempts: 2 });
  });

  it('reports progress as rows written of rows counted: a one-file task half written reads 50 %, with a time left', async () => {
    // 40 fixes of R-ONE at ms 1000..40000, one outside the range; a task of that one device and kind only
    const device = Number((await t.database.db.selectFrom('devices').select('id').where('imei', '=', 'R-ONE').executeTakeFirstOrThrow()).id);
    const fix = (pick: number) => ({ device_id: device, pick_time: pick, lon: 8.5, lat: 47.4, valid: 1, received_at: pick });
    await t.database.db.insertInto('fixes').values([...Array.from({ length: 40 }, (_, i) => fix(1000 * (i + 1))), fix(99_000)]).execute();
    const id = await repo().create({
      userId, title: 'one file', imeis: JSON.stringify([{ imei: 'R-ONE', caption: 'Stork', from: 1000, to: 50_000 }]), kinds: JSON.stringify(['fix']),
      fileType: 'csv', from: 1000, to: 50_000, zone: '+08:00', lang: 'en', filesTotal: 1, now: NOW,
    });
    // a writer that writes 20 of its 40 rows, then waits to be let go
    let release!: () => void;
    let halfway!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const half = new Promise<void>((r) => (halfway = r));
    const writers: ExportWriters = {
      async write(_req, out, { onRows }) {
        for (let i = 1; i <= 40; i++) {
          out.write(`${i}\n`);
          onRows(i);
          if (i === 20) {
            halfway();
            await gate;
          }
        }
        out.end();
      },
      fileName: () => 'fixes.csv',
    };
    const r = runner(writers);
    const running = r.drain();
    await half;
    const view = async () => (await r.page(caller, undefined, 1, 50)).List.find((x) => x.IdStr === String(id))!;
    // the heartbeat writes the progress: wait for it, not for a time
    await expect.poll(async () => (await view()).Rows, { timeout: 10_000, interval: 50 }).toBe(20);
    // half written 10 s after it started (on the fixed clock): as long again to go
    advanceClock(10_000);
    const mid = await view();
    expect(mid).toMatchObject({ Status: 'DOWNLOADING', Rows: 20, RowsTotal: 40, Percent: 50, EtaMs: 10_000 });
    release();
    await running;
    expect(await view()).toMatchObject({ Status: 'SUCCESSFUL', Rows: 40, RowsTotal: 40, Percent: 100, EtaMs: -1 });
  });

  it("names the zip's entries by the server: a device's caption cannot climb out of the archive", async () => {
    const [id] = await queue(1, '../../etc/passwd\\x:*?"<>| 白鹳');
    await runner(countingWriters()).drain();
    const names = [...zipEntries(fs.readFileSync(path.join(dir(), `${id}.zip`))).keys()];
    expect(names).toHaveLength(4);
    for (const name of names) expect(name).toMatch(/^[\p{L}\p{N}._()-]+$/u);
    expect(names.filter((n) => n.includes('白鹳'))).toHaveLength(2);
    expect(names.some((n) => n.startsWith('.'))).toBe(false);
  });
});
