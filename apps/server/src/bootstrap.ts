import fs from 'node:fs';
import path from 'node:path';
import { randomInt } from 'node:crypto';
import { PasswordSchema } from '@wildtrack/contract';
import type { Config } from './config.js';
import type { UserService } from './modules/user/service.js';

export const INITIAL_ADMIN_FILE = 'initial-admin.txt';
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
  fs.mkdirSync(config.dataDir, { recursive: true });
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
