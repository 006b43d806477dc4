import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, migrateToLatest, type Db } from './connect.js';

const betterSqlite = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * Another process (the CLI beside the server) holds the write lock for `holdMs`, writing an
 * organisation, then commits. Resolves once it holds the lock; `done` resolves when it has committed.
 */
async function otherProcessWrites(file: string, holdMs: number): Promise<{ done: Promise<number> }> {
  const script = `
    const Database = require(${JSON.stringify(betterSqlite)});
    const db = new Database(${JSON.stringify(file)});
    db.exec("begin immediate; insert into organisations (name, parent_unit, created_at) values ('Other process', '', 0)");
    process.stdout.write('locked\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${holdMs});
    db.exec('commit');
    db.close();`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const done = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    child.on('exit', () => reject(new Error('the other process ended before taking the lock')));
  });
  return { done };
}

describe('SQLite transactions with another process writing', () => {
  let database: Db | undefined;
  let dir = '';
  afterEach(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('wait for the other writer and then read and write, instead of failing with "database is locked"', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-connect-'));
    const file = path.join(dir, 'wildtrack.db');
    database = connect({ sqliteFile: file });
    await migrateToLatest(database);
    const db = database.db;

    const other = await otherProcessWrites(file, 700);
    // Read, then write, in one transaction while the other process holds the lock. A deferred
    // transaction reads the state before the other commit and then can't write (SQLITE_BUSY_SNAPSHOT).
    const names = await db.transaction().execute(async (trx) => {
      const seen = await trx.selectFrom('organisations').select('name').execute();
      await trx.insertInto('organisations').values({ name: 'This process', parent_unit: '', created_at: 1 }).execute();
      return seen.map((r) => r.name);
    });
    expect(await other.done).toBe(0);
    expect(names).toContain('Other process');
    const all = (await db.selectFrom('organisations').select('name').execute()).map((r) => r.name);
    expect(all).toEqual(expect.arrayContaining(['Other process', 'This process']));
  });
});

describe('migrations written side by side', () => {
  it('runs a pending migration whose name sorts before one the database already ran', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wt-migrate-'));
    const database = connect({ sqliteFile: path.join(dir, 'wildtrack.db') });
    try {
      await migrateToLatest(database);
      // A database that ran every migration but the share-management index, as one migrated before that
      // migration was written beside a later-dated one would be.
      const name = '2026-11-25T06-20-00_share_management';
      await database.db.schema.dropIndex('device_shares_owner_idx').execute();
      await database.db.deleteFrom('kysely_migration' as never).where('name' as never, '=', name as never).execute();
      expect(await migrateToLatest(database)).toEqual([name]);
      const index = database.sqlite!.prepare("select name from sqlite_master where type = 'index' and name = 'device_shares_owner_idx'").get();
      expect(index).toBeTruthy();
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.runIf(process.env.DATABASE_URL)('migrations on PostgreSQL while other schemas come and go', () => {
  it('migrate each schema, though another connection drops schemas all the while', async () => {
    // Kysely's migrator reads every schema's tables first; a schema dropped during that read failed it with
    // 'schema "…" does not exist' (the unit tests, two files at a time, each drops its schema when done).
    const url = process.env.DATABASE_URL!;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    let stop = false;
    let dropped = 0;
    const churn = (async () => {
      while (!stop) {
        const other = `t_churn_${randomBytes(4).toString('hex')}`;
        await admin.query(`create schema ${other}`);
        await admin.query(`create table ${other}.a (id serial primary key, x integer, y text)`);
        await admin.query(`drop schema ${other} cascade`);
        dropped += 1;
      }
    })();
    const failures: string[] = [];
    try {
      for (let i = 0; i < 8; i++) {
        const schema = `t_migrate_${randomBytes(4).toString('hex')}`;
        await admin.query(`create schema ${schema}`);
        const database = connect({ databaseUrl: url, pgSchema: schema });
        try {
          expect((await migrateToLatest(database)).length).toBeGreaterThan(0);
        } catch (err) {
          failures.push((err as Error).message);
        } finally {
          await database.close();
          await admin.query(`drop schema ${schema} cascade`);
        }
      }
    } finally {
      stop = true;
      await churn;
      await admin.end();
    }
    expect(dropped).toBeGreaterThan(8);
    expect(failures).toEqual([]);
  }, 120_000);
});
