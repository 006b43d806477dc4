import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { holdServerLock } from './backup.js';
import { connect, migrateToLatest } from './connect.js';
import { cli } from '../test/cli-process.js';

/** The writes a snapshot must hold whole: each transaction adds organisation w-n and its folder f-n. */
function snapshotOf(file: string): { orgs: number[]; folders: number[]; filler: number } {
  const db = new SQLite(file, { readonly: true });
  try {
    const nums = (sql: string) => (db.prepare(sql).pluck().all() as string[]).map((s) => Number(s.slice(2))).sort((a, b) => a - b);
    return {
      orgs: nums("select name from organisations where name like 'w-%'"),
      folders: nums("select name from folders where name like 'f-%'"),
      filler: db.prepare('select count(*) from filler').pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

describe('wildtrack backup and restore (SQLite)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-backup-'));
  const sqliteFile = path.join(dataDir, 'wildtrack.db');
  const backupFile = path.join(dataDir, 'copies', 'monday.db');
  const env = { WILDTRACK_DATA: dataDir };
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('copies a consistent snapshot while a server writes, refuses to restore under a running server, restores and migrates it', async () => {
    const database = connect({ sqliteFile });
    await migrateToLatest(database);
    const live = database.sqlite!;
    // 32 MiB of other rows, so that the copy takes a while.
    live.exec('create table filler (b blob)');
    const fill = live.prepare('insert into filler (b) values (randomblob(16384))');
    live.transaction(() => {
      for (let i = 0; i < 2048; i++) fill.run();
    })();

    // The running server: it holds the server lock and writes, two rows a transaction, all along.
    const serverLock = holdServerLock(dataDir);
    const addOrg = live.prepare("insert into organisations (name, created_at) values (?, 0) returning id");
    const addFolder = live.prepare('insert into folders (org_id, name, created_at) values (?, ?, 0)');
    const write = live.transaction((n: number) => {
      const { id } = addOrg.get(`w-${n}`) as { id: number };
      addFolder.run(id, `f-${n}`);
    });
    let written = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        write(++written);
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    await expect.poll(() => written, { timeout: 10_000 }).toBeGreaterThan(50);

    fs.mkdirSync(path.dirname(backupFile));
    const before = written;
    const backup = await cli(['backup', backupFile], env);
    const after = written;
    expect(backup, backup.stderr).toMatchObject({ code: 0 });
    expect(backup.stdout).toContain(`to ${backupFile}`);
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(after).toBeGreaterThan(before);

    // A copy is never overwritten.
    const again = await cli(['backup', backupFile], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists already');

    // Not while a server runs: the live database is left alone.
    const refused = await cli(['restore', backupFile], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('a Wildtrack server is running on this database');
    expect(fs.existsSync(sqliteFile)).toBe(true);

    writing = false;
    await writer;
    const finalCount = written;
    await database.close();
    serverLock.release();

    const restored = await cli(['restore', backupFile], env);
    expect(restored, restored.stderr).toMatchObject({ code: 0 });
    expect(restored.stdout).toMatch(/the database it replaced is kept as .*wildtrack\.db\.before-restore-/);

    // The restored database opens, is at the latest migration, passes its check and holds one snapshot:
    // every transaction whole (each w-n with its f-n), none missing before the last, taken during the copy.
    const reopened = connect({ sqliteFile });
    expect(await migrateToLatest(reopened)).toEqual([]);
    expect(reopened.sqlite!.pragma('integrity_check', { simple: true })).toBe('ok');
    await reopened.close();
    const snap = snapshotOf(sqliteFile);
    const n = snap.orgs.length;
    expect(snap.folders).toEqual(snap.orgs);
    expect(snap.orgs).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(n).toBeGreaterThanOrEqual(before);
    expect(n).toBeLessThanOrEqual(after);
    expect(n).toBeLessThan(finalCount);
    expect(snap.filler).toBe(2048);
    // The database it replaced is kept whole beside it.
    const kept = fs.readdirSync(dataDir).find((f) => f.startsWith('wildtrack.db.before-restore-'))!;
    expect(snapshotOf(path.join(dataDir, kept)).orgs).toHaveLength(finalCount);
  }, 120_000);

  it('says so when there is no database to copy or no backup to restore', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-nodb-'));
    try {
      const r = await cli(['backup', path.join(empty, 'x.db')], { WILDTRACK_DATA: empty });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`there is no database at ${path.join(empty, 'wildtrack.db')}`);
      const rr = await cli(['restore', path.join(empty, 'missing.db')], { WILDTRACK_DATA: empty });
      expect(rr.code).toBe(1);
      expect(rr.stderr).toContain('there is no file');
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  }, 60_000);

  it('points PostgreSQL installations at pg_dump and pg_restore', async () => {
    const r = await cli(['backup', path.join(dataDir, 'pg.dump')], { ...env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('pg_dump --format=custom');
    expect(r.stderr).toContain('pg_restore');
    const rr = await cli(['restore', path.join(dataDir, 'pg.dump')], { ...env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(rr.code).toBe(2);
  }, 60_000);
});
