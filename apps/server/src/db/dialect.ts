import type { CreateTableBuilder, Kysely } from 'kysely';
import { PostgresAdapter, sql } from 'kysely';

/** The few differences between SQLite and PostgreSQL, kept in one place (migrations use these too). */
export type DialectName = 'sqlite' | 'postgres';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** An auto-generated integer primary key named `id`. */
export function withId<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: DialectName,
): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Epoch-millisecond times and other 64-bit integers. */
export function bigintType(dialect: DialectName): 'bigint' | 'integer' {
  return dialect === 'postgres' ? 'bigint' : 'integer';
}

export function blobType(dialect: DialectName): 'bytea' | 'blob' {
  return dialect === 'postgres' ? 'bytea' : 'blob';
}

/** SQLite clusters a WITHOUT ROWID table by its primary key; PostgreSQL's heap has no such option. */
export function clusteredByKey<T extends string, C extends string>(table: CreateTableBuilder<T, C>, dialect: DialectName): CreateTableBuilder<T, C> {
  return dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table;
}
