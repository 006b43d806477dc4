import type SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Db } from '../db/connect.js';
import { type SharedState, windowOf } from './index.js';

/**
 * Shared state in the database: every process on one PostgreSQL (or one SQLite file) sees the same
 * rows. On SQLite the two statements that run on every signed call are prepared once (the query
 * builder costs more than the insert itself).
 */
export class DatabaseSharedState implements SharedState {
  readonly kind = 'database';
  private claimStmt: SQLite.Statement<[string, number, number]> | undefined;

  constructor(private readonly database: Db) {}

  async claimCode(code: string, now: number, expiresAt: number): Promise<boolean> {
    const { sqlite, db } = this.database;
    if (sqlite) {
      // An expired row left by a late sweep does not block its code: it is taken over in the same statement.
      this.claimStmt ??= sqlite.prepare(
        'insert into request_codes (code, expires_at) values (?, ?) on conflict (code) do update set expires_at = excluded.expires_at where request_codes.expires_at <= ?',
      );
      return this.claimStmt.run(code, expiresAt, now).changes > 0;
    }
    // Written as SQL: it runs on every signed call, and the builder would cost more than the statement's compile.
    const r = await sql`insert into request_codes (code, expires_at) values (${code}, ${expiresAt})
      on conflict (code) do update set expires_at = excluded.expires_at where request_codes.expires_at <= ${now}`.execute(db);
    return Number(r.numAffectedRows ?? 0) > 0;
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

  async sweep(now: number): Promise<number> {
    const codes = await this.database.db.deleteFrom('request_codes').where('expires_at', '<=', now).executeTakeFirst();
    const counters = await this.database.db.deleteFrom('rate_counters').where('expires_at', '<=', now).executeTakeFirst();
    return Number(codes.numDeletedRows) + Number(counters.numDeletedRows);
  }

  async close(): Promise<void> {
    // The database is the app's; it closes it.
  }
}
