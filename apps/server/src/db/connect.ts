import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, type Driver, Kysely, Migrator, PostgresDialect, type SqliteDatabase, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';
import type { DialectName } from './dialect.js';

export interface Db {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The SQLite handle itself, for bulk writes with prepared statements (ingest); undefined on PostgreSQL. */
  sqlite?: SQLite.Database;
  /** The PostgreSQL schema in use, when one was chosen. */
  schema?: string | undefined;
  close(): Promise<void>;
}

// int8 (bigint) columns hold epoch milliseconds and ids, all well inside 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export interface ConnectOptions {
  /** PostgreSQL URL; when absent, SQLite in `sqliteFile`. */
  databaseUrl?: string | undefined;
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests give each file its own). */
  pgSchema?: string | undefined;
}

/**
 * SQLite transactions that take the write lock as they begin ("begin immediate"). A deferred one that
 * reads and then writes fails at once with "database is locked" (a stale snapshot: SQLite does not wait
 * under busy_timeout) when another process, such as the CLI beside the server, committed in between; an
 * immediate one waits for the lock instead. The server has one connection, so it loses no concurrency.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

const sqliteUnder = new WeakMap<Kysely<Database>, SQLite.Database>();

/**
 * The better-sqlite3 connection under a Kysely that connect() made on SQLite, for bulk reads that want
 * rows as arrays (modules/export); undefined on PostgreSQL and for a transaction's Kysely. Run it only
 * inside `db.connection().execute(...)` and synchronously there, so that Kysely runs nothing between.
 */
export const rawSqlite = (db: Kysely<Database>): SQLite.Database | undefined => sqliteUnder.get(db);

export function connect(opts: ConnectOptions): Db {
  if (opts.databaseUrl) {
    const statementNames = new StatementNames();
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: 10,
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    });
    pool.on('connect', (client) => preparing(client, statementNames));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', schema: opts.pgSchema, close: () => db.destroy() };
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') {
    // The database holds device secrets, the sealing private key and password hashes: its folder is
    // private and the file is made 0600 before SQLite opens it (SQLite gives its -wal and -shm files the
    // database file's mode).
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.closeSync(fs.openSync(file, 'a', 0o600));
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
  sqliteUnder.set(db, sqlite);
  return { db, dialect: 'sqlite', sqlite, close: () => db.destroy() };
}

/**
 * PostgreSQL: the names of statements run often enough to be prepared, by their SQL text, shared by a pool's
 * connections (each prepares a name the first time it runs it). bench/load measured a point query 3× cheaper
 * for PostgreSQL prepared than parsed and planned on every run (node-pg's unnamed statements).
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly seen = new Map<string, number>();

  /**
   * @param max  statements prepared at most (each holds a plan in every connection's memory)
   * @param after runs of a text before it is prepared: a text built once (an IN list of an unusual length) is not kept
   */
  constructor(
    private readonly max = 400,
    private readonly after = 2,
  ) {}

  /** The name to run this text under, or undefined to run it unnamed (parsed and planned each time). */
  nameOf(text: string): string | undefined {
    const name = this.names.get(text);
    if (name !== undefined || this.names.size >= this.max) return name;
    if (!/^\s*(select|insert|update|delete|with)\b/i.test(text)) return undefined;
    const n = (this.seen.get(text) ?? 0) + 1;
    if (n < this.after) {
      // the texts counted are bounded too: new ones are not counted once many are waiting
      if (this.seen.size < this.max * 10) this.seen.set(text, n);
      return undefined;
    }
    this.seen.delete(text);
    const fresh = `wt${this.names.size + 1}`;
    this.names.set(text, fresh);
    return fresh;
  }
}

type QueryFn = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * Runs a connection's statements (Kysely's `query(text, values)`) prepared under their StatementNames.
 * A prepared statement whose tables changed shape under it (a migration run by another process) fails with
 * "cached plan must not change result type": that connection then prepares the text afresh under a new name.
 */
function preparing(client: pg.PoolClient, names: StatementNames): void {
  const query = client.query.bind(client) as QueryFn;
  const renamed = new Map<string, string>();
  let renames = 0;
  (client as unknown as { query: QueryFn }).query = (text, values, callback) => {
    if (typeof text !== 'string' || !Array.isArray(values) || callback !== undefined) return query(text, values, callback);
    const shared = names.nameOf(text);
    if (shared === undefined) return query(text, values);
    const name = renamed.get(shared) ?? shared;
    return (query({ name, text, values }) as Promise<unknown>).catch((e: unknown) => {
      if ((e as { code?: string }).code !== '0A000' || renames >= 100) throw e;
      renamed.set(shared, `${shared}r${++renames}`);
      return query(text, values);
    });
  };
}

export async function migrateToLatest(database: Db): Promise<string[]> {
  // Kysely looks for its own tables by name in every schema unless told which one to use.
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
    // Work done side by side adds migrations whose dates interleave (06-20 written after 06-30 ran on a
    // developer's database); each migration stands alone, so a pending one runs even when a later one has.
    allowUnorderedMigrations: true,
    ...(database.schema ? { migrationTableSchema: database.schema } : {}),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (attempt < 10 && otherSchemaDropped(error, database.schema)) continue;
    throw error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Kysely's migrator first looks for its own table among every table of every schema of the database (its
 * introspector reads the catalog and asks has_schema_privilege of each schema by name). A schema dropped
 * by someone else while that read runs fails it with "schema … does not exist" (3F000) naming that other
 * schema: another server's tests dropping theirs, an operator cleaning up. Nothing was migrated then (the
 * migrations run afterwards, in one transaction), so the migration is run again.
 */
function otherSchemaDropped(error: unknown, ours: string | undefined): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === '3F000' && !(ours !== undefined && String(e.message).includes(`"${ours}"`));
}

/**
 * Kysely's SQLite driver prepares every statement it runs; preparing costs more than running a
 * point query (bench/envelope: prepare was the largest single cost of a signed call). Statements are
 * kept by their SQL text, at most `max` of them, oldest dropped first. Kysely runs one query at a time
 * per connection, so a cached statement is never used twice at once.
 */
export function withStatementCache(sqlite: SQLite.Database, max = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (!stmt) {
        stmt = sqlite.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}
