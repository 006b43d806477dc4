// The CLI's import-movebank of Movebank's deliveries (issue 29): a .zip of the CSV and its reference data and a
// .csv.gz are read; a spreadsheet is refused with one sentence saying what to do, no stack trace, exit 1. The
// CLI's own process on a database of its own: SQLite, and PostgreSQL (a schema of its own) when DATABASE_URL is set.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { cli } from '../../test/cli-process.js';

const DATABASE_URL = process.env.DATABASE_URL;
const CSV = (tag: string) =>
  `event-id,timestamp,location-long,location-lat,sensor-type,tag-local-identifier,individual-local-identifier\n1,2024-05-01 09:00:00.000,8.5,47.5,gps,${tag},Zora\n2,2024-05-01 09:10:00.000,8.6,47.6,gps,${tag},Zora\n`;

describe.each([
  { dialect: 'sqlite', url: undefined },
  ...(DATABASE_URL ? [{ dialect: 'postgres', url: DATABASE_URL }] : []),
])('wildtrack import-movebank of a delivery on $dialect', ({ url }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-cli-delivery-'));
  const schema = `cli_delivery_${process.pid}`;
  const env: Record<string, string> = { WILDTRACK_DATA: dir, ...(url ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : {}) };
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (url) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  });
  const zipOf = async (name: string, entries: [string, string][]) => {
    const zip = new yazl.ZipFile();
    for (const [entry, text] of entries) zip.addBuffer(Buffer.from(text), entry);
    zip.end();
    const file = path.join(dir, name);
    await pipeline(zip.outputStream, fs.createWriteStream(file));
    return file;
  };
  const imported = async (file: string) => {
    const r = await cli(['import-movebank', '--org', 'Zip Lab', '--folder', 'Deliveries', '--file', file], env);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { file: string; fixes: { stored: number }; devices: { created: number } };
  };

  it('imports a zip (with its reference data) and a .csv.gz, and refuses a spreadsheet in a sentence', async () => {
    expect((await cli(['create-org', '--name', 'Zip Lab'], env)).code).toBe(0);
    const zip = await zipOf('study.zip', [['study.csv', CSV('Z1')], ['study-reference-data.csv', 'tag_local_identifier,individual_local_identifier,animal_mass\nZ1,Zora,800\n']]);
    const fromZip = await imported(zip);
    expect([fromZip.file, fromZip.fixes.stored, fromZip.devices.created]).toEqual([zip, 2, 1]);
    const gz = path.join(dir, 'other.csv.gz');
    fs.writeFileSync(gz, zlib.gzipSync(CSV('G1')));
    expect((await imported(gz)).fixes.stored).toBe(2);
    // what it unpacked is gone
    expect(fs.readdirSync(dir).filter((f) => f.includes('unpacked'))).toEqual([]);

    const xlsx = await zipOf('study.xlsx', [['[Content_Types].xml', '<Types/>'], ['xl/workbook.xml', '<workbook/>']]);
    const r = await cli(['import-movebank', '--org', 'Zip Lab', '--folder', 'Deliveries', '--file', xlsx], env);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`${xlsx}: is a spreadsheet, not a CSV: download the data from Movebank as CSV ("Download data", format CSV) and import that file`);
  }, 120_000);
});
