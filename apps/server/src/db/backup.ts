import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { now as clockNow } from '../lib/clock.js';

/**
 * Backups of the SQLite database (`wildtrack backup` / `wildtrack restore`, docs/operations.md).
 * PostgreSQL installations use pg_dump / pg_restore, which know their server better than we could.
 */

export const SERVER_LOCK_FILE = 'server.lock';

/** better-sqlite3's first step only starts the copy; the next copies every page (its largest step). */
const ALL_AT_ONCE = { progress: () => 0x7fffffff };

/**
 * Takes a consistent copy of a live database with SQLite's online backup API while servers keep
 * writing. A write by another process between two steps restarts the copy, so after the first step
 * everything is copied in one step: one read transaction, one snapshot (WAL lets writers go on meanwhile).
 * Writes `dest` (which must not exist) through a temporary file, so a half-made copy never has its name.
 */
export async function backupSqlite(sqliteFile: string, dest: string): Promise<{ bytes: number; pages: number }> {
  if (!fs.existsSync(sqliteFile)) throw new BackupError(`there is no database at ${sqliteFile} (is WILDTRACK_DATA right?)`);
  if (fs.existsSync(dest)) throw new BackupError(`${dest} exists already; choose a new file name`);
  const source = new SQLite(sqliteFile, { fileMustExist: true });
  const partial = `${dest}.partial`;
  try {
    source.pragma('busy_timeout = 5000');
    fs.rmSync(partial, { force: true });
    const { totalPages } = await source.backup(partial, ALL_AT_ONCE);
    const check = new SQLite(partial, { readonly: true });
    const ok = check.pragma('quick_check', { simple: true });
    check.close();
    if (ok !== 'ok') throw new BackupError(`the copy failed its check: ${String(ok)}`);
    fs.renameSync(partial, dest);
    return { bytes: fs.statSync(dest).size, pages: totalPages };
  } finally {
    source.close();
    fs.rmSync(partial, { force: true });
  }
}

export class BackupError extends Error {}

/**
 * A running server holds a shared lock on `<data>/server.lock` (an SQLite read transaction kept open:
 * several servers may share it, and the system releases it when a process ends, even by kill -9).
 * Restore takes the lock exclusively, so it never swaps the database under a running server, and a
 * server that starts during a restore waits, then fails.
 */
export function holdServerLock(dataDir: string): { release(): void } {
  const lock = openLock(dataDir, 10_000);
  try {
    lock.exec('begin');
    lock.prepare('select count(*) from sqlite_master').get();
  } catch (err) {
    lock.close();
    throw new BackupError(`the database is being restored (${path.join(dataDir, SERVER_LOCK_FILE)} is locked): ${err instanceof Error ? err.message : String(err)}`);
  }
  return { release: () => lock.close() };
}

function openLock(dataDir: string, timeoutMs: number): SQLite.Database {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, SERVER_LOCK_FILE);
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  const lock = new SQLite(file, { timeout: timeoutMs });
  // A rollback journal, so that a reader's SHARED lock keeps an exclusive locker out (WAL would not).
  lock.pragma('journal_mode = DELETE');
  return lock;
}

/**
 * Puts a backup back in place of `sqliteFile`: checks the backup is a sound Wildtrack database, takes
 * the server lock exclusively (refused while a server runs), moves the current database (and its -wal,
 * -shm) aside as `<file>.before-restore-<time>`, and copies the backup in. The caller migrates it.
 */
export async function restoreSqlite(sqliteFile: string, backupFile: string, now = new Date(clockNow())): Promise<{ keptAs: string | null }> {
  if (!fs.existsSync(backupFile)) throw new BackupError(`there is no file ${backupFile}`);
  const backup = new SQLite(backupFile, { readonly: true, fileMustExist: true });
  try {
    const ok = backup.pragma('quick_check', { simple: true });
    if (ok !== 'ok') throw new BackupError(`${backupFile} is damaged: ${String(ok)}`);
    const isOurs = backup.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!isOurs) throw new BackupError(`${backupFile} is not a Wildtrack database`);
  } catch (err) {
    backup.close();
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${backupFile} is not an SQLite database: ${err instanceof Error ? err.message : String(err)}`);
  }

  const dataDir = path.dirname(sqliteFile);
  const lock = openLock(dataDir, 0);
  try {
    try {
      lock.exec('begin exclusive');
    } catch {
      throw new BackupError('a Wildtrack server is running on this database: stop it (every process), then restore');
    }
    const incoming = `${sqliteFile}.restoring`;
    fs.rmSync(incoming, { force: true });
    await backup.backup(incoming, ALL_AT_ONCE);
    let keptAs: string | null = null;
    if (fs.existsSync(sqliteFile)) {
      // Fold the current WAL into the file first, so what is kept aside is one self-contained database.
      const current = new SQLite(sqliteFile);
      current.pragma('wal_checkpoint(TRUNCATE)');
      current.close();
      keptAs = `${sqliteFile}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(sqliteFile, keptAs);
    }
    for (const side of ['-wal', '-shm', '-journal']) fs.rmSync(sqliteFile + side, { force: true });
    fs.renameSync(incoming, sqliteFile);
    return { keptAs };
  } finally {
    backup.close();
    lock.close();
  }
}
