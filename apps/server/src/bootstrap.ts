import fs from 'node:fs';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import { PasswordSchema } from '@wildtrack/contract';
import type { Config } from './config.js';
import type { UserService } from './modules/user/service.js';

export const INITIAL_ADMIN_FILE = 'initial-admin.txt';

/**
 * Everything the server writes under the data folder is its own: the database holds device secrets, the
 * sealing private key and password hashes, uploads are organisations' pictures. A process that writes
 * there makes folders 0700 and files 0600 (umask 077), whichever code creates them (SQLite's journal,
 * uploads, media, imports, backups); connect() creates the database file 0600 itself too.
 */
export function keepFilesPrivate(): void {
  process.umask(0o077);
}

export interface LoosePermission {
  path: string;
  /** The mode in octal, e.g. "755". */
  mode: string;
}

/**
 * The data folder and what it holds directly (the database and its journal, the first account's
 * password, the uploads and imports folders) that group or others may read, write or enter. A folder
 * below a private one is out of others' reach, so one level is enough.
 */
export function loosePermissions(dataDir: string): LoosePermission[] {
  const loose: LoosePermission[] = [];
  const check = (p: string) => {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (st && !st.isSymbolicLink() && (st.mode & 0o077) !== 0) loose.push({ path: p, mode: (st.mode & 0o777).toString(8) });
  };
  if (!fs.existsSync(dataDir)) return loose;
  check(dataDir);
  for (const name of fs.readdirSync(dataDir)) check(path.join(dataDir, name));
  return loose;
}

/** The start's warning for each loose permission, naming the path, its mode and the fix. */
export function loosePermissionWarnings(dataDir: string): { path: string; mode: string; msg: string }[] {
  return loosePermissions(dataDir).map((l) => ({
    ...l,
    msg: `${l.path} is open to other users (mode ${l.mode}); it holds device secrets, the sealing key and password hashes: chmod ${fs.statSync(l.path).isDirectory() ? '700' : '600'} ${l.path}`,
  }));
}
export const INITIAL_ORG = 'Wildtrack';
export const INITIAL_USER = 'wildtrack';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A random password that meets §5 (14 characters from an alphabet without look-alikes). */
export function randomPassword(length = 14): string {
  for (;;) {
    let p = '';
    for (let i = 0; i < length; i++) p += ALPHABET[randomInt(ALPHABET.length)];
    if (PasswordSchema.safeParse(p).success) return p;
  }
}

export interface InitialAdmin {
  account: string;
  password: string;
  file: string;
}

/**
 * On the first start (no user yet) creates an organisation and its primary user with a random
 * password, written to $WILDTRACK_DATA/initial-admin.txt (mode 600). Later starts return null.
 */
export async function ensureInitialAdmin(users: UserService, config: Config): Promise<InitialAdmin | null> {
  if (!(await users.isEmpty())) return null;
  const password = randomPassword();
  await users.createUser({
    orgName: INITIAL_ORG,
    userName: INITIAL_USER,
    password,
    email: config.adminEmail,
    nickName: 'Administrator',
    isPrimary: true,
  });
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(config.dataDir, INITIAL_ADMIN_FILE);
  const text = [
    '# Wildtrack: the first account, created on the first start. Change the password after signing in.',
    `account: ${INITIAL_USER}`,
    `password: ${password}`,
    `e-mail: ${config.adminEmail}`,
    '',
  ].join('\n');
  fs.writeFileSync(file, text, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
  return { account: INITIAL_USER, password, file };
}
