import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceType, EXPORT_FILE_TYPES, EXPORT_KINDS, type ExportFileType, type ExportKind, fileTypeCarries, GEODATA_FILE_TYPES, packSamples, SENSOR_KIND_NAMES, SensorKind, SpeciesType } from '@wildtrack/contract';
import { writeExport } from '../../modules/export/index.js';
import { BASE, DAY, HOUR, MIN } from '../fixed-time.js';
import { createTestApp, DIALECTS, type TestApp } from '../helper.js';

/**
 * Export payloads per export kind (issue 26 L5), generated from the contract: for every export kind
 * (EXPORT_KINDS) and every file type that carries it (XLSX, CSV, Movebank CSV), devices whose caption
 * starts with a spreadsheet formula's first character (=, +, -, @, tab, CR) and whose IMEI starts with '-'
 * (in every kind's rows; an IMEI allows no other of them) have their rows written
 * (writeExport: the export call's and the download tasks' writer), and the file is read back by another
 * reader (Python's csv module; ExcelJS for XLSX): every text cell holding a payload starts with the
 * apostrophe that keeps it text, and no cell starts a formula. A new kind or file type is walked here
 * without a case written for it; a kind with no rows in its file fails (the seeding lacks it).
 */
const PAYLOADS = ['=1+2', '+1+2', '-1+2', '@SUM(A1)', '\t=1+2', '\r=1+2'];
const FORMULA = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

const python = spawnSync('python3', ['-c', 'import csv'], { encoding: 'utf8' }).status === 0;

/** A CSV's rows as Python's csv module reads them (the file's BOM dropped by utf-8-sig). */
function csvByPython(file: string): string[][] {
  const r = spawnSync('python3', ['-c', 'import csv, json, sys\nwith open(sys.argv[1], newline="", encoding="utf-8-sig") as f: print(json.dumps(list(csv.reader(f))))', file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as string[][];
}

/** An XLSX's cells as ExcelJS reads them: text as text, numbers as numbers, date cells as Dates, formulas as { formula }. */
async function xlsxByExcelJs(file: string): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const rows: unknown[][] = [];
  book.eachSheet((sheet) => sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1))));
  return rows;
}

describe.each(DIALECTS)('export payloads per export kind on %s', (dialect) => {
  let t: TestApp;
  const devices: { imei: string; payload: string }[] = [];
  const dir = () => path.join(t.dataDir, 'payload-exports');

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.userWithToken({ org: 'Payload Lab' });
    const orgId = await t.services.devices.orgIdByName('Payload Lab');
    fs.mkdirSync(dir(), { recursive: true });
    for (const [n, payload] of PAYLOADS.entries()) {
      // an IMEI takes letters, digits and _.:- only: '-' is its formula start; the caption takes any payload
      const imei = `-${n}-1+IMEI`.replace('+', '-');
      const { id } = await t.services.devices.register({ orgId, imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS', 'Acceleration', 'Temperature'], caption: `${payload}caption` });
      devices.push({ imei, payload });
      const deviceId = Number(id);
      await t.database.db
        .insertInto('fixes')
        .values({ device_id: deviceId, pick_time: BASE + 10 * MIN, lon: -116.5, lat: -39.9, alt: -5, speed: 1, course: 2, temperature: -3.5, activity: 1, voltage: 3.9, channel: 1, satellites: 8, hdop: 1.2, vdop: 1.5, grade: 1, valid: 1, tx_time: BASE + 11 * MIN, received_at: BASE + 12 * MIN, invalid_by: null, invalid_at: null, invalid_reason: null, extra: null })
        .execute();
      await t.services.ingest.writeBatch(
        deviceId,
        {
          // every sensor kind of the contract, with a negative value (a number stays a number)
          sensors: SENSOR_KIND_NAMES.map((kind) => ({ kind, t: [BASE + HOUR], v: [SensorKind[kind].values.map((_, i) => -1.5 - i)] })),
          bursts: [{ t: BASE + 3 * HOUR, hz: 10, axes: 'XYZ', samples: packSamples([2000, 2100, 2400, 2058, 2090, 2410]), scale: [0.002, 0.003, 0.004], offset: [2048, 2048, 2048] }],
        },
        null,
        BASE + 4 * HOUR,
      );
      await t.database.db.insertInto('events').values({ device_id: deviceId, type: 1, happen_time: BASE + 2 * HOUR, instruction_id: null, content: JSON.stringify({ kind: 'fenceEntered', fence: `${payload}fence` }), dedup_key: null }).execute();
    }
  }, 60_000);
  afterAll(async () => t?.close());

  // The files a spreadsheet opens (geodata is read by GIS tools, its text escaped as JSON and XML: geodata.test.ts).
  const spreadsheet = (type: ExportFileType) => !(GEODATA_FILE_TYPES as readonly ExportFileType[]).includes(type);
  const cases = EXPORT_KINDS.flatMap((kind) => EXPORT_FILE_TYPES.filter((type) => spreadsheet(type) && fileTypeCarries(type, kind)).map((type) => [kind, type] as [ExportKind, ExportFileType]));

  it.each(cases)('%s as %s: every payload comes out as text, neutralised; numbers stay numbers', async (kind, fileType) => {
    if (fileType !== 'xls' && !python) throw new Error('python3 is needed to read the CSV back');
    for (const { imei, payload } of devices) {
      const file = path.join(dir(), `${kind}-${fileType}-${devices.findIndex((d) => d.imei === imei)}.${fileType === 'xls' ? 'xlsx' : 'csv'}`);
      const out = new PassThrough();
      const written = new Promise<void>((resolve, reject) => out.pipe(fs.createWriteStream(file)).on('finish', resolve).on('error', reject));
      await writeExport(t.database.db, { imei, kind, startTime: BASE - DAY, endTime: BASE + DAY, timeZone: '+00:00', language: 'en', fileType }, out);
      await written;
      const rows: unknown[][] = fileType === 'xls' ? await xlsxByExcelJs(file) : csvByPython(file);
      expect(rows.length, `${kind} ${fileType}: no data row`).toBeGreaterThan(1);
      let carried = 0;
      let negatives = 0;
      let dates = 0;
      for (const cell of rows.flat()) {
        // times are date cells in XLSX (issue 28 item 3): a date cell, no text to carry a formula
        if (cell instanceof Date) {
          dates += 1;
          continue;
        }
        if (typeof cell === 'object' && cell !== null) throw new Error(`${kind} ${fileType}: a formula cell ${JSON.stringify(cell)}`);
        if (typeof cell === 'number') {
          if (cell < 0) negatives += 1;
          continue;
        }
        const text = String(cell ?? '');
        for (const marker of [imei, payload]) {
          if (!text.includes(marker)) continue;
          carried += 1;
          // a cell that would start with it starts with the apostrophe instead
          expect(text.startsWith(marker), `${kind} ${fileType}: ${JSON.stringify(text)}`).toBe(false);
        }
        expect(FORMULA.test(text) && !PLAIN_NUMBER.test(text), `${kind} ${fileType}: ${JSON.stringify(text)}`).toBe(false);
        if (PLAIN_NUMBER.test(text) && text.startsWith('-')) negatives += 1;
      }
      // the payload made it into the file (its IMEI is in every row), and a negative value stayed a number
      expect(carried, `${kind} ${fileType}`).toBeGreaterThan(0);
      if (kind !== 'event') expect(negatives, `${kind} ${fileType}: negative numbers`).toBeGreaterThan(0);
      if (fileType === 'xls') expect(dates, `${kind} ${fileType}: date cells`).toBeGreaterThan(0);
    }
  });
});
