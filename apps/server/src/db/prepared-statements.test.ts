import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db, StatementNames } from './connect.js';

describe('StatementNames: which statements a PostgreSQL pool prepares', () => {
  it('a text is named from its second run on, always the same name', () => {
    const names = new StatementNames(10, 2);
    const text = 'select id from devices where imei = $1';
    expect(names.nameOf(text)).toBeUndefined();
    const name = names.nameOf(text);
    expect(name).toMatch(/^wt\d+$/);
    expect(names.nameOf(text)).toBe(name);
    expect(names.nameOf(' SELECT 2')).toBeUndefined();
    expect(names.nameOf(' SELECT 2')).not.toBe(name);
  });

  it('names only statements that read or write rows, never transaction control', () => {
    const names = new StatementNames(10, 1);
    for (const text of ['begin', 'commit', 'rollback', 'savepoint a', 'set local x = 1', 'create table t (a int)']) expect(names.nameOf(text)).toBeUndefined();
    for (const text of ['select 1', 'insert into t values (1)', 'update t set a = 1', 'delete from t', 'with x as (select 1) select * from x']) expect(names.nameOf(text)).toBeDefined();
  });

  it('prepares at most `max` texts; later ones run unnamed', () => {
    const names = new StatementNames(3, 1);
    const named = Array.from({ length: 5 }, (_, i) => names.nameOf(`select ${i}`));
    expect(named.filter((n) => n !== undefined)).toHaveLength(3);
    expect(new Set(named.filter((n) => n !== undefined)).size).toBe(3);
  });
});

const url = process.env.DATABASE_URL;

describe.runIf(url)('a PostgreSQL pool runs repeated statements prepared', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let database: Db;
  const admin = () => new pg.Client({ connectionString: url });

  beforeAll(async () => {
    const c = admin();
    await c.connect();
    await c.query(`create schema ${schema}`);
    await c.end();
    database = connect({ databaseUrl: url, pgSchema: schema });
    await sql`create table things (id int primary key, name text)`.execute(database.db);
    await sql`insert into things values (1, 'one'), (2, 'two')`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
    const c = admin();
    await c.connect();
    await c.query(`drop schema ${schema} cascade`);
    await c.end();
  });

  /** The prepared statements of the pool's connections, by name (PostgreSQL's own view of them). */
  const prepared = async () => {
    // Kysely keeps one connection for the run of a callback: the view is that connection's.
    return database.db.connection().execute(async (db) => {
      const read = (id: number) => db.selectFrom('things' as never).select('name' as never).where('id' as never, '=', id as never).execute();
      expect(await read(1)).toEqual([{ name: 'one' }]);
      expect(await read(2)).toEqual([{ name: 'two' }]);
      expect(await read(1)).toEqual([{ name: 'one' }]);
      const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db);
      return rows;
    });
  };

  it('a query run again is prepared under its name and answers as before', async () => {
    const rows = await prepared();
    expect(rows.some((r) => /^wt\d+$/.test(r.name) && r.statement.includes('from "things"'))).toBe(true);
  });

  it('a table changed under a prepared select * is prepared afresh, not failed ("cached plan must not change result type")', async () => {
    await database.db.connection().execute(async (db) => {
      const all = () => db.selectFrom('things' as never).selectAll().where('id' as never, '=', 1 as never).execute();
      await all();
      await all();
      expect(await all()).toEqual([{ id: 1, name: 'one' }]);
      await sql`alter table things add column extra text default 'x'`.execute(db);
      expect(await all()).toEqual([{ id: 1, name: 'one', extra: 'x' }]);
      expect(await all()).toEqual([{ id: 1, name: 'one', extra: 'x' }]);
    });
  });
});
