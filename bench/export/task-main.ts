// The whole path of bench/export in a process of its own (bundled by index.ts, as the server runs): the
// server's app on the seeded database, a download task created through the CreateDownloadTask call (Fastify's
// inject: signature, session, validation, envelope), run by the app's task runner to SUCCESSFUL, its zip on
// disk. Prints one JSON line as child.ts does, the zip's bytes and the time from created to ready.
import fs from 'node:fs';
import path from 'node:path';
import { API_BASE, calls, formatTime, LanguageId, prepareCall } from '@wildtrack/contract';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect } from '../../apps/server/src/db/connect.js';
import { benchSignIn } from '../sign-in.js';

const [fileType, dbFile, dataDir, spanMs] = [process.argv[2] as 'csv' | 'xls', process.argv[3]!, process.argv[4]!, Number(process.argv[5])];
const START = Date.UTC(2025, 0, 1);
const IMEI = 'STORK-EXPORT';
const ZONE = '+08:00';

const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none'), DOWNLOAD_TASKS: 'run' });
const database = connect({ sqliteFile: dbFile });
const { app, services } = await buildApp(config, database, { jobs: false });
const token = await benchSignIn(services.auth, { account: 'flyway', password: 'Fly-Way-2026', timeZone: ZONE });
const body = { imeis: [IMEI], kinds: ['fix'], fileType, startTime: formatTime(START, ZONE), endTime: formatTime(START + spanMs, ZONE), timeZone: ZONE };
const baseMb = process.memoryUsage().rss / 2 ** 20;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
// Encrypted as the console sends it (docs/api.md "Encrypted bodies and answers").
const prepared = prepareCall({ credential: token, path: calls.CreateDownloadTask.path, body, lcid: LanguageId.en });
const res = await app.inject({ method: 'POST', url: API_BASE + calls.CreateDownloadTask.path, headers: prepared.headers, payload: prepared.payload });
const created = (await prepared.open(res.body)) as { Code: number; Data: { IdStr: string } };
if (created.Code !== 1000) throw new Error(res.body);
// the call kicked the runner; this waits until no task is left
await services.downloads.drain();
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const row = (await database.db.selectFrom('download_tasks').select(['status', 'rows', 'file_size', 'user_id', 'id']).where('id', '=', Number(created.Data.IdStr)).executeTakeFirstOrThrow()) as {
  status: string;
  rows: number;
  file_size: number;
  user_id: number;
  id: number;
};
if (row.status !== 'SUCCESSFUL') throw new Error(`task ${row.status}`);
fs.rmSync(path.join(dataDir, 'downloads'), { recursive: true, force: true });
console.log(JSON.stringify({ rows: Number(row.rows), seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, bytes: Number(row.file_size), rssMb: process.resourceUsage().maxRSS / 1024, baseMb }));
await app.close();
await database.db.destroy();
