import type SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import { type SharedState, windowOf } from './state.js';

/** A claim waiting for its batch: answered once the batch's transaction has committed. */
interface PendingClaim {
  code: string;
  now: number;
  expiresAt: number;
  resolve: (won: boolean) => void;
  reject: (err: unknown) => void;
}

/** Claims written in one transaction at most; more wait for the next batch. */
const MAX_BATCH = 500;

/**
 * Shared state in the database: every process on one PostgreSQL (or one SQLite file) sees the same
 * rows.
 *
 * Request codes are claimed in batches (group commit): a signed call's claim joins the claims that
 * arrive while the previous batch is being written (and those of the same turn of the event loop), and
 * the next batch is written as one transaction: on PostgreSQL one statement (one round trip and one
 * commit for them all, instead of one each: the commit's flush was most of a signed no-op's time), on
 * SQLite one prepared statement per code inside one transaction. A claim is answered only once its
 * batch has committed, so a call is never served on a code that is not yet durable: a restart, or
 * another process on the same database, still refuses its replay (issue 11, M3). Nothing of the codes
 * is kept in memory beyond the batch being written, so the memory does not grow with the calls.
 * Two claims of one code in one batch: the first wins, the second is refused, as they would be one
 * after the other.
 */
export class DatabaseSharedState implements SharedState {
  readonly kind = 'database';
  private queue: PendingClaim[] = [];
  private writing = false;
  private claimStmt: SQLite.Statement<[string, number, number]> | undefined;

  constructor(private readonly database: Db) {}

  claimCode(code: string, now: number, expiresAt: number): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.queue.push({ code, now, expiresAt, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        // The claims of this turn of the event loop (the requests read together) join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  /** Writes batches until no claim waits. */
  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          const won = await this.writeClaims(batch);
          for (let i = 0; i < batch.length; i++) batch[i]!.resolve(won[i]!);
        } catch (err) {
          for (const c of batch) c.reject(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  /**
   * One transaction for the batch; whether each claim won. An expired row left by a late sweep does not
   * block its code: it is taken over in the same statement.
   */
  private async writeClaims(batch: readonly PendingClaim[]): Promise<boolean[]> {
    const { sqlite, db } = this.database;
    if (sqlite) {
      // Through Kysely's connection, so that the batch never runs inside a transaction Kysely has open
      // (it waits for its end), then better-sqlite3 directly: one prepared statement, one transaction.
      return db.connection().execute(async () => {
        const claim = (this.claimStmt ??= sqlite.prepare<[string, number, number]>(
          'insert into request_codes (code, expires_at) values (?, ?) on conflict (code) do update set expires_at = excluded.expires_at where request_codes.expires_at <= ?',
        ));
        return sqlite.transaction(() => batch.map((c) => claim.run(c.code, c.expiresAt, c.now).changes > 0))();
      });
    }
    // One statement: a code twice in it would be an error (a row affected twice), so later copies are
    // refused here, as the second of two claims is. A row is taken over when expired at the batch's
    // earliest claim.
    const first = new Map<string, number>();
    batch.forEach((c, i) => {
      if (!first.has(c.code)) first.set(c.code, i);
    });
    const codes = [...first.keys()];
    const expires = codes.map((code) => batch[first.get(code)!]!.expiresAt);
    const now = Math.min(...batch.map((c) => c.now));
    const r = await sql<{ code: string }>`insert into request_codes (code, expires_at)
      select * from unnest(${codes}::text[], ${expires}::bigint[])
      on conflict (code) do update set expires_at = excluded.expires_at where request_codes.expires_at <= ${now}
      returning code`.execute(db);
    const won = new Set(r.rows.map((row) => row.code));
    return batch.map((c, i) => first.get(c.code) === i && won.has(c.code));
  }

  async hit(key: string, now: number, windowMs: number): Promise<{ hits: number; resetAt: number }> {
    const { index, resetAt } = windowOf(now, windowMs);
    const row = await this.database.db
      .insertInto('rate_counters')
      .values({ counter_key: `${key}@${index}`, hits: 1, expires_at: resetAt })
      .onConflict((oc) => oc.column('counter_key').doUpdateSet({ hits: sql<number>`rate_counters.hits + 1` }))
      .returning('hits')
      .executeTakeFirstOrThrow();
    return { hits: Number(row.hits), resetAt };
  }

  async count(key: string, now: number, windowMs: number): Promise<number> {
    const { index } = windowOf(now, windowMs);
    const row = await this.database.db.selectFrom('rate_counters').select('hits').where('counter_key', '=', `${key}@${index}`).executeTakeFirst();
    return row ? Number(row.hits) : 0;
  }

  async sweep(now: number): Promise<number> {
    const codes = await this.database.db.deleteFrom('request_codes').where('expires_at', '<=', now).executeTakeFirst();
    const counters = await this.database.db.deleteFrom('rate_counters').where('expires_at', '<=', now).executeTakeFirst();
    return Number(codes.numDeletedRows) + Number(counters.numDeletedRows);
  }

  async close(): Promise<void> {
    // The database is the app's; it closes it.
  }
}
