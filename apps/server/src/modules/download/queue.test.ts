import type { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, DeviceType, type DownloadTask, SpeciesType } from '@wildtrack/contract';
import { contractCalls } from '../../test/contract-calls.js';
import { BASE, DAY, local, type Page, ZONE } from '../../test/fixed-time.js';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { DownloadTaskRepository } from './repository.js';
import { DownloadTaskService, type ExportRequest, type ExportWriters } from './service.js';
import type { DeviceGate } from '../device/gate.js';

/**
 * Fair download queueing (issue 26 L7), through the calls: one user's twelve queued tasks do not hold back
 * another user's one-day task, one user runs at most DOWNLOAD_TASKS_PER_USER tasks over all processes, and
 * each waiting task shows its place in the queue as tasks finish. The app serves the calls only
 * (DOWNLOAD_TASKS=off); the runners are the download service over the same database, each standing for a
 * server process, with a writer the test lets go a task at a time.
 */

const silent = { warn: () => undefined, error: () => undefined };

/** A writer whose files wait until the test lets them go (`release` the oldest waiting, `open` all from now on); it counts each owner's files being written at once. */
function gatedWriters() {
  const pending: { imei: string; go: () => void }[] = [];
  const active = new Map<string, number>();
  const most = new Map<string, number>();
  let open = false;
  const w: ExportWriters & { pending: typeof pending; most: typeof most; release(): void; open(): void } = {
    pending,
    most,
    release: () => pending.shift()?.go(),
    open: () => {
      open = true;
      for (const p of pending.splice(0)) p.go();
    },
    async write(req: ExportRequest, out: Writable, { signal }) {
      active.set(req.imei, (active.get(req.imei) ?? 0) + 1);
      most.set(req.imei, Math.max(most.get(req.imei) ?? 0, active.get(req.imei)!));
      try {
        if (!open) {
          await new Promise<void>((resolve, reject) => {
            pending.push({ imei: req.imei, go: resolve });
            signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
          });
        }
        out.write(`${req.imei}\n`);
        out.end();
      } finally {
        active.set(req.imei, active.get(req.imei)! - 1);
      }
    },
    fileName: (req) => `${req.imei}.csv`,
  };
  return w;
}

describe.each(DIALECTS)('fair download queue on %s', (dialect) => {
  let t: TestApp;
  let ibis: string;
  let plover: string;
  const { data } = contractCalls(() => t, () => ibis, { timeZone: ZONE });
  const runners: DownloadTaskService[] = [];
  // the runner resolves no device (that is done when a task is created)
  const runner = (writers: ExportWriters, perUser = 1) => {
    const r = new DownloadTaskService(new DownloadTaskRepository(t.database.db), {} as DeviceGate, writers, t.dataDir, { keepMs: DAY, perUser }, silent);
    runners.push(r);
    return r;
  };
  const list = async (token: string) => (await data<Page<DownloadTask>>(calls.GetDownloadTaskListByPage, { currentPage: 1, pageSize: 50 }, { token })).List;
  /** Each of the caller's tasks (oldest first) as [status, queue position]. */
  const states = async (token: string) => (await list(token)).reverse().map((x) => [x.Status, x.QueuePosition] as const);
  /** Twelve month-long tasks of the Ibis Lab's device, then the Plover Lab's one-day task. */
  const queueBoth = async () => {
    const big: DownloadTask[] = [];
    for (let i = 0; i < 12; i++) {
      big.push(await data<DownloadTask>(calls.CreateDownloadTask, { imeis: ['Q-IBIS'], kinds: ['fix'], fileType: 'csv', title: `month ${i + 1}`, startTime: local(BASE - 30 * DAY), endTime: local(BASE) }));
    }
    const small = await data<DownloadTask>(calls.CreateDownloadTask, { imeis: ['Q-PLOVER'], kinds: ['fix'], fileType: 'csv', title: 'one day', startTime: local(BASE - DAY), endTime: local(BASE) }, { token: plover });
    return { big, small };
  };
  const statusOf = async (token: string, id: string) => (await list(token)).find((x) => x.IdStr === id)?.Status;
  const clear = async () => {
    await t.database.db.deleteFrom('download_tasks').execute();
  };

  beforeAll(async () => {
    t = await createTestApp(dialect, { DOWNLOAD_TASKS: 'off' });
    ({ token: ibis } = await t.userWithToken({ org: 'Ibis Lab' }));
    ({ token: plover } = await t.userWithToken({ org: 'Plover Lab' }));
    for (const [org, imei] of [['Ibis Lab', 'Q-IBIS'], ['Plover Lab', 'Q-PLOVER']] as const) {
      await t.services.devices.register({ orgId: await t.services.devices.orgIdByName(org), imei, caption: imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'] });
    }
  }, 60_000);
  afterAll(async () => {
    for (const r of runners) await r.close();
    await t?.close();
  });

  it("takes another user's one-day task second, not after the twelve queued before it; the places in the queue follow", async () => {
    const { big, small } = await queueBoth();
    // as created: the first big task is next, the one-day task second, the other eleven after it
    expect(big[0]!.QueuePosition).toBe(1);
    expect(small.QueuePosition).toBe(2);
    expect(await states(ibis)).toEqual([['WAITING', 1], ...Array.from({ length: 11 }, (_, i) => ['WAITING', i + 3])]);
    expect(await states(plover)).toEqual([['WAITING', 2]]);

    const w = gatedWriters();
    const draining = runner(w).drain();
    await expect.poll(() => statusOf(ibis, big[0]!.IdStr)).toBe('DOWNLOADING');
    expect(await states(ibis)).toEqual([['DOWNLOADING', 0], ...Array.from({ length: 11 }, (_, i) => ['WAITING', i + 2])]);
    expect(await states(plover)).toEqual([['WAITING', 1]]);

    // the first big task ends: the one-day task is taken up next
    await expect.poll(() => w.pending.map((p) => p.imei)).toEqual(['Q-IBIS']);
    w.release();
    await expect.poll(() => statusOf(plover, small.IdStr)).toBe('DOWNLOADING');
    expect(await statusOf(ibis, big[0]!.IdStr)).toBe('SUCCESSFUL');
    expect(await states(ibis)).toEqual([['SUCCESSFUL', 0], ...Array.from({ length: 11 }, (_, i) => ['WAITING', i + 1])]);
    await expect.poll(() => w.pending.map((p) => p.imei)).toEqual(['Q-PLOVER']);

    w.release();
    await expect.poll(() => statusOf(ibis, big[1]!.IdStr)).toBe('DOWNLOADING');
    await expect.poll(() => w.pending.map((p) => p.imei)).toEqual(['Q-IBIS']);
    expect(await states(plover)).toEqual([['SUCCESSFUL', 0]]);
    expect((await states(ibis)).slice(2)).toEqual(Array.from({ length: 10 }, (_, i) => ['WAITING', i + 1]));
    w.open();
    await draining;
    expect((await list(ibis)).every((x) => x.Status === 'SUCCESSFUL' && x.QueuePosition === 0)).toBe(true);
    await clear();
  });

  it('runs one task of a user at a time over two processes: the other process is free for another user at once', async () => {
    const big: DownloadTask[] = [];
    for (let i = 0; i < 12; i++) big.push(await data<DownloadTask>(calls.CreateDownloadTask, { imeis: ['Q-IBIS'], kinds: ['fix'], fileType: 'csv', startTime: local(BASE - 30 * DAY), endTime: local(BASE) }));
    const w = gatedWriters();
    const [p, q] = [runner(w), runner(w)];
    // both processes claim at once: one takes the first big task, the other finds nothing it may take
    let pDone = false;
    let qDone = false;
    const dp = p.drain().then(() => (pDone = true));
    const dq = q.drain().then(() => (qDone = true));
    await Promise.race([dp, dq]);
    await expect.poll(() => w.pending.length).toBe(1);
    expect((await list(ibis)).filter((x) => x.Status === 'DOWNLOADING')).toHaveLength(1);
    expect([pDone, qDone].filter(Boolean)).toHaveLength(1);
    const free = pDone ? p : q;

    // the other user's one-day task, queued now, is taken up by the free process while the big task still runs
    const small = await data<DownloadTask>(calls.CreateDownloadTask, { imeis: ['Q-PLOVER'], kinds: ['fix'], fileType: 'csv', startTime: local(BASE - DAY), endTime: local(BASE) }, { token: plover });
    expect(small.QueuePosition).toBe(1);
    const dfree = free.drain();
    await expect.poll(() => statusOf(plover, small.IdStr)).toBe('DOWNLOADING');
    expect(await statusOf(ibis, big[0]!.IdStr)).toBe('DOWNLOADING');
    await expect.poll(() => w.pending.map((x) => x.imei).sort()).toEqual(['Q-IBIS', 'Q-PLOVER']);

    w.open();
    await Promise.all([dp, dq, dfree]);
    // the free process may come back for the big tasks once the one-day task is done: never two at once
    await Promise.all([p.drain(), q.drain()]);
    expect(await statusOf(plover, small.IdStr)).toBe('SUCCESSFUL');
    expect((await list(ibis)).map((x) => x.Status)).toEqual(Array(12).fill('SUCCESSFUL'));
    expect(w.most.get('Q-IBIS')).toBe(1);
    await clear();
  });

  it('lets a user run DOWNLOAD_TASKS_PER_USER tasks at once when it is raised', async () => {
    for (let i = 0; i < 3; i++) await data<DownloadTask>(calls.CreateDownloadTask, { imeis: ['Q-IBIS'], kinds: ['fix'], fileType: 'csv', startTime: local(BASE - DAY), endTime: local(BASE) });
    const w = gatedWriters();
    const [p, q, r] = [runner(w, 2), runner(w, 2), runner(w, 2)];
    const drains = [p.drain(), q.drain(), r.drain()];
    await Promise.race(drains);
    await expect.poll(() => w.pending.length).toBe(2);
    expect((await list(ibis)).filter((x) => x.Status === 'DOWNLOADING')).toHaveLength(2);
    w.open();
    await Promise.all(drains);
    await Promise.all([p.drain(), q.drain(), r.drain()]);
    expect((await list(ibis)).map((x) => x.Status)).toEqual(Array(3).fill('SUCCESSFUL'));
    expect(w.most.get('Q-IBIS')).toBe(2);
    await clear();
  });
});
