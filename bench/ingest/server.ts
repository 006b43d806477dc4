// Child process of bench/ingest: the real server on a fresh SQLite database with one registered
// device. Prints one JSON line {port, imei, secret, dataDir} when listening.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeviceType } from '@wildtrack/contract';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { DeviceRepository } from '../../apps/server/src/modules/device/repository.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-ingest-'));
const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
const database = connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
await migrateToLatest(database);
const { app, services } = await buildApp(config, database);
const orgId = await new DeviceRepository(database.db).createOrg('Bench', false, Date.now());
const dev = await services.devices.register({ orgId, imei: '869000000000001', type: DeviceType.Tracker, sensors: ['GNSS'] });
await app.listen({ port: 0, host: '127.0.0.1' });
const addr = app.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0, imei: dev.imei, secret: dev.secret, dataDir })}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => database.close()).then(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
