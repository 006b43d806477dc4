// Child process of bench/import-upload: the real server on a fresh SQLite database with one signed-in
// user. Prints one JSON line {port, credential, dataDir} when listening.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { benchSignIn } from '../sign-in.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-import-upload-'));
const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
const database = connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
await migrateToLatest(database);
const { app, services } = await buildApp(config, database);
await services.users.createUser({ orgName: 'Gull Study', userName: 'gullstudy', password: 'Gull-Study-2026', email: 'gull@example.org' });
const credential = await benchSignIn(services.auth, { account: 'gullstudy', password: 'Gull-Study-2026', timeZone: '+00:00' });
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0, credential, dataDir })}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => database.close()).then(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
