// Child process of the envelope benchmark: either the bare Fastify route or the real console app on a
// fresh SQLite database with a signed-in user. Prints one JSON line {port, token} when listening.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { benchSignIn } from '../sign-in.js';

const mode = process.argv[2];

if (mode === 'bare') {
  // The same logger settings as the app below (JSON logs, warn level), so the ratio measures the
  // console's transport — signature, replay check, session, validation, envelope — not logging.
  const app = Fastify({ logger: { level: 'warn' } });
  app.post('/bare', async () => ({ Code: 1000, Msg: 'ok', Data: { ServerTime: Date.now() } }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0 })}\n`);
} else {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-'));
  const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
  const database = connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
  await migrateToLatest(database);
  const { app, services } = await buildApp(config, database);
  await services.users.createUser({ orgName: 'Bench', userName: 'benchuser', password: 'Bench-Pass-1', email: 'bench@example.org' });
  const token = await benchSignIn(services.auth, { account: 'benchuser', password: 'Bench-Pass-1', timeZone: '+08:00' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0, token })}\n`);
  process.on('SIGTERM', () => {
    void app.close().then(() => fs.rmSync(dataDir, { recursive: true, force: true })).then(() => process.exit(0));
  });
}
