import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, PasswordSchema } from '@wildtrack/contract';
import { ensureInitialAdmin, INITIAL_ADMIN_FILE } from './bootstrap.js';
import { loadConfig } from './config.js';
import { createTestApp, type TestApp } from './test/helper.js';

describe('first start', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => t.close());

  it('creates the primary user once, with a random password written to a mode-600 file that signs in', async () => {
    const config = loadConfig({ WILDTRACK_DATA: t.dataDir });
    const admin = await ensureInitialAdmin(t.services.users, config);
    expect(admin).not.toBeNull();
    expect(PasswordSchema.safeParse(admin!.password).success).toBe(true);
    const file = path.join(t.dataDir, INITIAL_ADMIN_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).toContain(`password: ${admin!.password}`);
    const login = await t.login(admin!.account, admin!.password);
    expect(login.body.Code).toBe(Code.Success);
    expect((login.body.Data as { Permissions: { IsPrimary: boolean } }).Permissions.IsPrimary).toBe(true);
    expect(await ensureInitialAdmin(t.services.users, config)).toBeNull();
  });
});
