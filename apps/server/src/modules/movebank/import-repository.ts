import type { Kysely, Selectable } from 'kysely';
import type { Database, MovebankImportTable } from '../../db/schema.js';

export type ImportJobRow = Selectable<MovebankImportTable> & { user_name: string | null };

export interface NewImportJob {
  orgId: number;
  userId: number;
  folderId: number | null;
  fileName: string;
  referenceName: string | null;
  dataPath: string;
  referencePath: string | null;
  size: number;
  now: number;
}

export interface JobProgress {
  bytesRead: number;
  rows: number;
  stored: number;
  seconds: number;
}

/** The console's Movebank imports (table movebank_imports): queued, claimed by one server, progress, end. */
export class ImportJobRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private select() {
    return this.db
      .selectFrom('movebank_imports as j')
      .leftJoin('users as u', 'u.id', 'j.user_id')
      .selectAll('j')
      .select('u.nick_name as user_name');
  }

  async create(j: NewImportJob): Promise<number> {
    const row = await this.db
      .insertInto('movebank_imports')
      .values({
        org_id: j.orgId,
        user_id: j.userId,
        folder_id: j.folderId,
        file_name: j.fileName,
        reference_name: j.referenceName,
        data_path: j.dataPath,
        reference_path: j.referencePath,
        size: j.size,
        status: 'queued',
        created_at: j.now,
        updated_at: j.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async byId(id: number): Promise<ImportJobRow | undefined> {
    return this.select().where('j.id', '=', id).executeTakeFirst();
  }

  /** A job of the organisation; another organisation's is not found. */
  async ofOrg(orgId: number, id: number): Promise<ImportJobRow | undefined> {
    return this.select().where('j.id', '=', id).where('j.org_id', '=', orgId).executeTakeFirst();
  }

  async latest(orgId: number, limit: number): Promise<ImportJobRow[]> {
    return this.select().where('j.org_id', '=', orgId).orderBy('j.id', 'desc').limit(limit).execute();
  }

  /**
   * Claims the oldest queued job for this server: the update only succeeds for one claimant, so two
   * servers never run the same import.
   */
  async claimNext(now: number): Promise<ImportJobRow | undefined> {
    for (;;) {
      const next = await this.db.selectFrom('movebank_imports').select('id').where('status', '=', 'queued').orderBy('id').limit(1).executeTakeFirst();
      if (!next) return undefined;
      const r = await this.db
        .updateTable('movebank_imports')
        .set({ status: 'running', started_at: now, updated_at: now })
        .where('id', '=', next.id)
        .where('status', '=', 'queued')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) return this.byId(Number(next.id));
    }
  }

  /** Writes a running job's progress (its heartbeat); answers whether a cancel was asked for. */
  async progress(id: number, p: JobProgress, now: number): Promise<boolean> {
    const row = await this.db
      .updateTable('movebank_imports')
      .set({ bytes_read: p.bytesRead, rows: p.rows, stored: p.stored, seconds: p.seconds, updated_at: now })
      .where('id', '=', id)
      .returning('cancel_requested')
      .executeTakeFirst();
    return row?.cancel_requested === 1;
  }

  async finish(id: number, status: 'done' | 'failed' | 'cancelled' | 'interrupted', p: JobProgress | null, report: string | null, error: string | null, now: number): Promise<void> {
    await this.db
      .updateTable('movebank_imports')
      .set({
        status,
        report,
        error,
        updated_at: now,
        finished_at: now,
        ...(p ? { bytes_read: p.bytesRead, rows: p.rows, stored: p.stored, seconds: p.seconds } : {}),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Cancels a job nobody has claimed yet; answers whether it was still queued. */
  async cancelQueued(id: number, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('movebank_imports')
      .set({ status: 'cancelled', cancel_requested: 1, updated_at: now, finished_at: now })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async requestCancel(id: number): Promise<void> {
    await this.db.updateTable('movebank_imports').set({ cancel_requested: 1 }).where('id', '=', id).where('status', '=', 'running').execute();
  }

  /** The files queued and running jobs will read. */
  async pendingFiles(): Promise<string[]> {
    const rows = await this.db.selectFrom('movebank_imports').select(['data_path', 'reference_path']).where('status', 'in', ['queued', 'running']).execute();
    return rows.flatMap((r) => (r.reference_path ? [r.data_path, r.reference_path] : [r.data_path]));
  }

  /** Running jobs whose heartbeat stopped before `before` and that this server does not run. */
  async stale(before: number): Promise<ImportJobRow[]> {
    return this.select().where('j.status', '=', 'running').where('j.updated_at', '<', before).execute();
  }

  /** Marks a stale running job interrupted, unless its heartbeat came back meanwhile. */
  async interrupt(id: number, before: number, error: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('movebank_imports')
      .set({ status: 'interrupted', error, updated_at: now, finished_at: now })
      .where('id', '=', id)
      .where('status', '=', 'running')
      .where('updated_at', '<', before)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
