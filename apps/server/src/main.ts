import path from 'node:path';
import { buildApp } from './app.js';
import { ensureInitialAdmin, INITIAL_ADMIN_FILE, INITIAL_ORG, keepFilesPrivate, loosePermissionWarnings } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { holdServerLock } from './db/backup.js';
import { connect, migrateToLatest } from './db/connect.js';
import { DeviceRepository } from './modules/device/repository.js';
import { ensureSampleDevices } from './modules/device/samples.js';
import { FenceRepository } from './modules/fence/repository.js';
import { ensureSampleFences } from './modules/fence/samples.js';
import { usePasswordHashing } from './modules/user/service.js';
import { startServerJobs } from './jobs/index.js';

async function main(): Promise<void> {
  const config = loadConfig();
  usePasswordHashing(config);
  keepFilesPrivate();
  // Held while the server runs, so that `wildtrack restore` never swaps the SQLite file under it.
  const serverLock = config.databaseUrl ? undefined : holdServerLock(config.dataDir);
  const database = connect({ databaseUrl: config.databaseUrl, pgSchema: config.databaseSchema, sqliteFile: path.join(config.dataDir, 'wildtrack.db') });
  const applied = await migrateToLatest(database);
  const { app, services, jobs } = await buildApp(config, database);
  if (applied.length > 0) app.log.info({ applied }, 'migrations applied');
  for (const { msg, ...where } of loosePermissionWarnings(config.dataDir)) app.log.warn(where, msg);
  const admin = await ensureInitialAdmin(services.users, config);
  if (config.sampleDevices) {
    const samples = await ensureSampleDevices(new DeviceRepository(database.db), services.devices, services.ingest, {
      asOf: config.samplesAsOf,
      history: (entries) => services.instructions.storeSampleHistory(entries),
    });
    if (samples) app.log.info(samples, 'sample devices created');
    const fenced = await ensureSampleFences(new FenceRepository(database.db, database.sqlite));
    if (fenced > 0) app.log.info({ fences: fenced }, 'sample fences created');
  }
  // The jobs that start after start-up (jobs/index.ts): the live sample fleet never appends to a history still being written.
  startServerJobs(app, jobs, 'after start-up');
  if (jobs.some((job) => job.name === 'live sample fleet')) app.log.info('live sample fleet on (WILDTRACK_SAMPLES_LIVE=false turns it off)');

  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    serverLock?.release();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const scheme = config.tls ? 'https' : 'http';
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `${scheme}://localhost:${port}`;
  const db = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `SQLite in ${path.join(config.dataDir, 'wildtrack.db')}`;
  const lines = ['', `  Wildtrack is running: ${url}`, `  Database: ${db}`];
  if (admin) {
    lines.push(
      `  First start: the organisation "${INITIAL_ORG}" and its primary user were created.`,
      `    account:  ${admin.account}`,
      `    password: ${admin.password}`,
      `  (printed once; also in ${admin.file}, readable only by you)`,
    );
  } else {
    lines.push(`  Sign in with your account; the first account's credentials are in ${path.join(config.dataDir, INITIAL_ADMIN_FILE)}.`);
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) process.stderr.write(`${err.message}\n`);
  else process.stderr.write(`Wildtrack failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
