// One format of bench/export in a process of its own: opens the seeded database, writes the file, prints
// one JSON line (rows, seconds, CPU seconds, bytes, peak RSS in MB and the RSS before writing).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from '../../apps/server/src/db/connect.js';
import { writeExport } from '../../apps/server/src/modules/export/index.js';
import { ExportRepository } from '../../apps/server/src/modules/export/repository.js';
import { headersOf, tableRows } from '../../apps/server/src/modules/export/tables.js';

const START = Date.UTC(2025, 0, 1);
const IMEI = 'STORK-EXPORT';
const ZONE = '+08:00';

export async function runChild(format: string, dbFile: string, deviceId: number, spanMs: number): Promise<void> {
  const database = connect({ sqliteFile: dbFile });
  const file = path.join(os.tmpdir(), `wildtrack-bench-export-${process.pid}.${format === 'csv' || format === 'movebank' ? 'csv' : 'xlsx'}`);
  const out = fs.createWriteStream(file);
  const range = { startTime: START, endTime: START + spanMs };
  const baseMb = process.memoryUsage().rss / 2 ** 20;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let rows = 0;
  if (format === 'read') {
    // The reads alone: what the CSV and XLSX pay before making a cell (their columns, as arrays).
    for await (const batch of new ExportRepository(database.db).fixCells({ deviceId, from: range.startTime, to: range.endTime })) rows += batch.length;
    await new Promise((resolve) => out.end(resolve));
  } else if (format === 'read-raw') {
    // The same rows straight from better-sqlite3 as arrays, one statement iterated: what Kysely's objects cost.
    const stmt = database.sqlite!.prepare('select * from fixes where device_id = ? and pick_time >= ? and pick_time <= ? order by pick_time').raw();
    for (const _row of stmt.iterate(deviceId, range.startTime, range.endTime)) rows += 1;
    await new Promise((resolve) => out.end(resolve));
  } else if (format === 'exceljs') {
    // ExcelJS's streaming writer on the same rows (the same reads and cells as ours); imported here only, so that
    // its code is not in the other formats' memory.
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
    const sheet = workbook.addWorksheet('positions');
    sheet.addRow(headersOf('fix', 'en', '+00:00')).commit();
    const repo = new ExportRepository(database.db);
    const device = (await repo.device(IMEI))!;
    for await (const batch of tableRows('fix', { repo, device, q: { deviceId, from: range.startTime, to: range.endTime }, lang: 'en', zone: ZONE })) {
      for (const r of batch) sheet.addRow(r).commit();
      rows += batch.length;
    }
    sheet.commit();
    await workbook.commit();
  } else {
    const fileType = format === 'xlsx' ? 'xls' : format === 'csv' ? 'csv' : 'movebank';
    ({ rows } = await writeExport(database.db, { imei: IMEI, kind: 'fix', ...range, timeZone: ZONE, language: 'en', fileType }, out));
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // CPU seconds (user + system) of the writing: steadier than wall time on a loaded machine.
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const bytes = fs.statSync(file).size;
  fs.rmSync(file);
  // maxRSS is in kilobytes.
  console.log(JSON.stringify({ rows, seconds, cpuSeconds, bytes, rssMb: process.resourceUsage().maxRSS / 1024, baseMb }));
  await database.db.destroy();
}
