import { SensorKind, type SensorKindName } from '@wildtrack/contract';
import { type Kysely, type Selectable, sql } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { Database, DownloadTaskTable } from '../../db/schema.js';

/** The advisory lock PostgreSQL claims are taken under (any number; the same in every process). */
const CLAIM_LOCK = 26_0707;

export type DownloadTaskRow = Selectable<DownloadTaskTable>;

export interface NewDownloadTask {
  userId: number;
  title: string;
  /** JSON of the devices and their ranges, and of the kinds. */
  imeis: string;
  kinds: string;
  fileType: string;
  from: number;
  to: number;
  zone: string;
  lang: string;
  filesTotal: number;
  now: number;
}

export interface TaskProgress {
  rows: number;
  filesDone: number;
}

/**
 * Download tasks (table download_tasks): queued by a user, claimed by one server process, its progress and
 * heartbeat, its end, its file's expiry. Only the owner's tasks are read for the calls (`ofUser`).
 */
export class DownloadTaskRepository {
  private readonly postgres: boolean;

  constructor(private readonly db: Kysely<Database>) {
    this.postgres = dialectOf(db) === 'postgres';
  }

  async create(t: NewDownloadTask): Promise<number> {
    const row = await this.db
      .insertInto('download_tasks')
      .values({
        user_id: t.userId,
        title: t.title,
        imeis: t.imeis,
        kinds: t.kinds,
        file_type: t.fileType,
        start_time: t.from,
        end_time: t.to,
        time_zone: t.zone,
        lang: t.lang,
        status: 'WAITING',
        files_total: t.filesTotal,
        created_at: t.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async byId(id: number): Promise<DownloadTaskRow | undefined> {
    return this.db.selectFrom('download_tasks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A task of the user; another user's is not found. */
  async ofUser(userId: number, id: number): Promise<DownloadTaskRow | undefined> {
    return this.db.selectFrom('download_tasks').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  async count(userId: number, status: string | undefined): Promise<number> {
    let q = this.db.selectFrom('download_tasks').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId);
    if (status) q = q.where('status', '=', status);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  async page(userId: number, status: string | undefined, limit: number, offset: number): Promise<DownloadTaskRow[]> {
    let q = this.db.selectFrom('download_tasks').selectAll().where('user_id', '=', userId);
    if (status) q = q.where('status', '=', status);
    return q.orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }

  /**
   * The waiting task to claim next, fair between users (issue 26 L7): among the owners with a waiting task
   * and fewer than `perUser` running, the one served least recently (the latest `started_at` of their
   * tasks; never served first), their oldest waiting task; ties by the task's id. One user's twelve big
   * tasks then take turns with everyone else's instead of going first.
   */
  private nextWaiting(perUser: number) {
    return this.db
      .selectFrom('download_tasks as t')
      .select('t.id')
      .where('t.status', '=', 'WAITING')
      .where(sql<number>`(select count(*) from download_tasks r where r.user_id = t.user_id and r.status = 'DOWNLOADING')`, '<', perUser)
      .orderBy(sql`coalesce((select max(s.started_at) from download_tasks s where s.user_id = t.user_id), -1)`)
      .orderBy('t.id')
      .limit(1);
  }

  /**
   * Claims the next waiting task (`nextWaiting`) for this process, unless its owner already runs `perUser`
   * tasks. On PostgreSQL claims are taken one at a time under a transaction's advisory lock, so two processes
   * claiming at once see each other's claim (the per-user cap holds across processes; SKIP LOCKED alone
   * would let both take a task of the same user); on SQLite one statement, conditional on the status and the
   * owner's running count, decides (one process writes at a time). Either way one claimant only gets a task.
   */
  async claimNext(now: number, perUser = 1): Promise<DownloadTaskRow | undefined> {
    const claim = (db: Kysely<Database>) =>
      db
        .updateTable('download_tasks')
        .set((eb) => ({ status: 'DOWNLOADING', started_at: now, heartbeat_at: now, attempts: eb('attempts', '+', 1), rows: 0, rows_total: 0, files_done: 0 }))
        .where('id', '=', this.postgres ? this.nextWaiting(perUser).forUpdate().skipLocked() : this.nextWaiting(perUser))
        .where('status', '=', 'WAITING')
        .returningAll()
        .executeTakeFirst();
    if (!this.postgres) return claim(this.db);
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
      return claim(trx);
    });
  }

  /**
   * The queue as the claim sees it: every waiting task (id, owner) in id order, and for each of their owners
   * when they were last served and how many of their tasks run now.
   */
  async queue(): Promise<{ waiting: { id: number; userId: number }[]; owners: Map<number, { lastServed: number; running: number }> }> {
    const waiting = await this.db.selectFrom('download_tasks').select(['id', 'user_id']).where('status', '=', 'WAITING').orderBy('id').execute();
    const owners = new Map<number, { lastServed: number; running: number }>();
    if (waiting.length === 0) return { waiting: [], owners };
    const rows = await this.db
      .selectFrom('download_tasks')
      .select((eb) => [
        'user_id',
        eb.fn.max('started_at').as('last'),
        eb.fn.sum<number>(eb.case().when('status', '=', 'DOWNLOADING').then(1).else(0).end()).as('running'),
      ])
      .where('user_id', 'in', (eb) => eb.selectFrom('download_tasks').select('user_id').where('status', '=', 'WAITING'))
      .groupBy('user_id')
      .execute();
    for (const r of rows) owners.set(Number(r.user_id), { lastServed: r.last === null ? -1 : Number(r.last), running: Number(r.running) });
    return { waiting: waiting.map((w) => ({ id: Number(w.id), userId: Number(w.user_id) })), owners };
  }

  /** Writes a running task's progress (its heartbeat); answers whether a cancel was asked for. */
  async progress(id: number, p: TaskProgress, now: number): Promise<boolean> {
    const row = await this.db
      .updateTable('download_tasks')
      .set({ rows: p.rows, files_done: p.filesDone, heartbeat_at: now })
      .where('id', '=', id)
      .where('status', '=', 'DOWNLOADING')
      .returning('cancel_requested')
      .executeTakeFirst();
    // a row gone (deleted) or no longer running is a cancel too
    return !row || row.cancel_requested === 1;
  }

  /**
   * How many rows a device's file of `kind` will hold over [from, to] (ms, both ends included): a count per
   * table by its (device, time) index, the same rows the export writer reads (acceleration: a row per sample).
   */
  async rowsOf(imei: string, kind: string, from: number, to: number): Promise<number> {
    const device = await this.db.selectFrom('devices').select('id').where('imei', '=', imei).executeTakeFirst();
    if (!device) return 0;
    const id = device.id;
    let q;
    if (kind === 'fix') q = this.db.selectFrom('fixes').select((eb) => eb.fn.countAll<number>().as('n')).where('device_id', '=', id).where('pick_time', '>=', from).where('pick_time', '<=', to);
    else if (kind === 'acceleration')
      q = this.db.selectFrom('acc_bursts').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('sample_count'), eb.lit(0)).as('n')).where('device_id', '=', id).where('start_time', '>=', from).where('start_time', '<=', to);
    else if (kind === 'event') q = this.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).where('device_id', '=', id).where('happen_time', '>=', from).where('happen_time', '<=', to);
    else {
      const sensor = SensorKind[kind as SensorKindName];
      if (!sensor) return 0;
      q = this.db.selectFrom('sensor_records').select((eb) => eb.fn.countAll<number>().as('n')).where('device_id', '=', id).where('kind', '=', sensor.id).where('time', '>=', from).where('time', '<=', to);
    }
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  async setRowsTotal(id: number, rowsTotal: number): Promise<void> {
    await this.db.updateTable('download_tasks').set({ rows_total: rowsTotal }).where('id', '=', id).execute();
  }

  /** Ends a running task; answers whether it was still running (a delete meanwhile: nothing to end). */
  async finish(id: number, end: { status: 'SUCCESSFUL' | 'FAILED' | 'CANCELLED'; progress: TaskProgress; fileSize?: number; expiresAt?: number; error?: string }, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('download_tasks')
      .set({
        status: end.status,
        rows: end.progress.rows,
        files_done: end.progress.filesDone,
        file_size: end.fileSize ?? 0,
        expires_at: end.expiresAt ?? null,
        error: end.error ?? null,
        heartbeat_at: now,
        finished_at: now,
      })
      .where('id', '=', id)
      .where('status', '=', 'DOWNLOADING')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** A running task given back to the queue (its server is closing): another process takes it up. */
  async requeue(id: number, now: number): Promise<void> {
    await this.db.updateTable('download_tasks').set({ status: 'WAITING', heartbeat_at: now, rows: 0, files_done: 0 }).where('id', '=', id).where('status', '=', 'DOWNLOADING').execute();
  }

  /** Cancels a task nobody has claimed yet; answers whether it was still waiting. */
  async cancelWaiting(id: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('download_tasks')
      .set({ status: 'CANCELLED', cancel_requested: 1, finished_at: now })
      .where('id', '=', id)
      .where('status', '=', 'WAITING')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async requestCancel(id: number): Promise<void> {
    await this.db.updateTable('download_tasks').set({ cancel_requested: 1 }).where('id', '=', id).where('status', '=', 'DOWNLOADING').execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('download_tasks').where('id', '=', id).execute();
  }

  /** Running tasks whose heartbeat stopped before `before`. */
  async stale(before: number): Promise<DownloadTaskRow[]> {
    return this.db.selectFrom('download_tasks').selectAll().where('status', '=', 'DOWNLOADING').where('heartbeat_at', '<', before).execute();
  }

  /**
   * A stale running task taken back (its server stopped): queued again, or failed with `error` once it has
   * been tried `maxAttempts` times; unless its heartbeat came back meanwhile. Answers whether it changed.
   */
  async reclaim(id: number, before: number, maxAttempts: number, error: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('download_tasks')
      .set((eb) => ({
        status: eb.case().when('attempts', '>=', maxAttempts).then('FAILED').else('WAITING').end(),
        error: eb.case().when('attempts', '>=', maxAttempts).then(error).else(null).end(),
        finished_at: eb.case().when('attempts', '>=', maxAttempts).then(now).else(null).end(),
        rows: 0,
        files_done: 0,
        heartbeat_at: now,
      }))
      .where('id', '=', id)
      .where('status', '=', 'DOWNLOADING')
      .where('heartbeat_at', '<', before)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Successful tasks whose file's time is up become EXPIRED; answers them (their files are deleted). */
  async expire(now: number): Promise<DownloadTaskRow[]> {
    return this.db
      .updateTable('download_tasks')
      .set({ status: 'EXPIRED' })
      .where('status', '=', 'SUCCESSFUL')
      .where('expires_at', '<=', now)
      .returningAll()
      .execute();
  }
}
