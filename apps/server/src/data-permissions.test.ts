import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loosePermissions } from './bootstrap.js';
import { connect, migrateToLatest } from './db/connect.js';
import { startServerProcess } from './test/server-process.js';

const mode = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);

describe('data folder permissions (the database holds device secrets, the sealing key and password hashes)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-perm-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('creates the data folder 0700 and the database, its -wal and -shm 0600, whatever the umask', async () => {
    const dir = path.join(root, 'fresh', 'data');
    const file = path.join(dir, 'wildtrack.db');
    const before = process.umask(0o022);
    try {
      const database = connect({ sqliteFile: file });
      await migrateToLatest(database);
      expect(mode(dir)).toBe('700');
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect([f, mode(f)]).toEqual([f, '600']);
      await database.close();
    } finally {
      process.umask(before);
    }
  });

  it('finds what group or others can reach, with its mode', () => {
    const dir = path.join(root, 'loose');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, 'wildtrack.db'), '');
    fs.chmodSync(path.join(dir, 'wildtrack.db'), 0o644);
    fs.writeFileSync(path.join(dir, 'private.txt'), '');
    fs.chmodSync(path.join(dir, 'private.txt'), 0o600);
    expect(loosePermissions(dir)).toEqual([
      { path: dir, mode: '755' },
      { path: path.join(dir, 'wildtrack.db'), mode: '644' },
    ]);
    fs.chmodSync(dir, 0o700);
    fs.chmodSync(path.join(dir, 'wildtrack.db'), 0o600);
    expect(loosePermissions(dir)).toEqual([]);
  });

  it('warns at start, naming the path and mode, when the data folder is open to others; files it writes are private', async () => {
    const dir = path.join(root, 'served');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
    const server = await startServerProcess({ WILDTRACK_DATA: dir });
    try {
      const warning = server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { level: number; path?: string; mode?: string; msg: string })
        .find((l) => l.path === dir);
      expect(warning).toMatchObject({ level: 40, path: dir, mode: '755' });
      expect(warning!.msg).toContain(`chmod 700 ${dir}`);
      // Created by the server under its umask 077: the database and the first account's password.
      expect(mode(path.join(dir, 'wildtrack.db'))).toBe('600');
      expect(mode(path.join(dir, 'initial-admin.txt'))).toBe('600');
    } finally {
      await server.stop();
    }
  }, 90_000);
});
