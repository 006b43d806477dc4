// The console's Movebank import (issue 10 item 7) through its calls: the multipart upload into a folder,
// the background job's progress and report, re-import, cancel, a server that stopped, and every refusal
// (no session, another organisation, a shared folder without the right, the experience folder, a file
// that is not Movebank data) leaving the database as it was.
import fs from 'node:fs';
import net from 'node:net';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import {
  API_BASE,
  calls,
  Code,
  EXPERIENCE_FOLDER_ID,
  LanguageId,
  MOVEBANK_IMPORT_PATH,
  type MovebankImportJob,
  ROOT_FOLDER_ID,
  SHARED_FOLDER_PREFIX,
  signedHeaders,
} from '@wildtrack/contract';
import { createTestApp, DIALECTS, type Envelope, SHARED_DATA, type TestApp } from '../../test/helper.js';
import { NOW } from '../../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../../test/clock.js';
import { ORPHAN_AGE_MS, STALE_MS } from './import-service.js';

const GULLS = path.join(SHARED_DATA, 'movebank_gulls_gps_acc.csv');
const GULLS_REFERENCE = path.join(SHARED_DATA, 'movebank_gulls_trackdata.csv');

type Part = { name: string; value: string } | { name: string; file: string; filename: string };

/** A synthetic Movebank export of `rows` GPS rows over 20 tags, long enough to be caught running. */
function bigExport(file: string, rows: number): void {
  const out = fs.openSync(file, 'w');
  fs.writeSync(out, 'event-id,visible,timestamp,location-long,location-lat,sensor-type,tag-local-identifier,individual-local-identifier\n');
  const t0 = Date.UTC(2020, 0, 1);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const stamp = new Date(t0 + Math.floor(i / 20) * 60_000).toISOString().replace('T', ' ').slice(0, 23);
    chunk += `${i + 1},true,${stamp},${(4 + (i % 97) / 100).toFixed(5)},${(51 + (i % 89) / 100).toFixed(5)},gps,BIG-${i % 20},Bird ${i % 20}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(out, chunk);
      chunk = '';
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
}

describe.each(DIALECTS)('Movebank import from the console on %s', (dialect) => {
  // The share's window, the orphan sweep's age and the jobs' heartbeats are read on the server's clock: fixed at NOW.
  useFixedClock(NOW);
  let t: TestApp;
  let alice: string;
  let bob: string;
  let aliceOrg: number;
  let folder: string;
  let sharedFolder: string;
  let big: string;

  /** The import's multipart POST, signed like the image upload (over an empty body). */
  const upload = async (parts: Part[], opts: { token?: string | undefined; lang?: 'zh' | 'en' } = {}): Promise<Envelope & { Data: MovebankImportJob | null }> => {
    const boundary = '----wildtrack-movebank';
    const chunks: Buffer[] = [];
    for (const p of parts) {
      chunks.push(
        Buffer.from(
          'file' in p
            ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: text/csv\r\n\r\n`
            : `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}`,
        ),
      );
      if ('file' in p) chunks.push(fs.readFileSync(p.file));
      chunks.push(Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    const res = await t.app.inject({
      method: 'POST',
      url: API_BASE + MOVEBANK_IMPORT_PATH,
      headers: {
        ...signedHeaders({ token: opts.token, path: MOVEBANK_IMPORT_PATH, body: undefined, lcid: LanguageId[opts.lang ?? 'en'], now: clockNow() }),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat(chunks),
    });
    return res.json() as Envelope & { Data: MovebankImportJob | null };
  };
  const job = async (id: string, token = alice, lang: 'zh' | 'en' = 'en') => {
    const r = await t.call(calls.GetMovebankImport.path, { id, timeZone: '+00:00' }, { token, lang });
    return r.body as Envelope & { Data: MovebankImportJob };
  };
  const ended = async (id: string): Promise<MovebankImportJob> => {
    await expect.poll(async () => (await job(id)).Data.Status, { timeout: 60_000, interval: 100 }).toMatch(/done|failed|cancelled|interrupted/);
    return (await job(id)).Data;
  };
  /** What a refused import must leave unchanged: jobs, devices, fixes and uploaded files. */
  const state = async () => ({
    jobs: Number((await t.database.db.selectFrom('movebank_imports').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    devices: Number((await t.database.db.selectFrom('devices').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    fixes: Number((await t.database.db.selectFrom('fixes').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    files: fs.existsSync(path.join(t.dataDir, 'imports')) ? fs.readdirSync(path.join(t.dataDir, 'imports'), { recursive: true }).filter((f) => String(f).endsWith('.csv')).length : 0,
  });
  const fixesIn = async (folderId: number) =>
    Number(
      (
        await t.database.db
          .selectFrom('fixes')
          .innerJoin('devices', 'devices.id', 'fixes.device_id')
          .select((e) => e.fn.countAll().as('n'))
          .where('devices.folder_id', '=', folderId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    // an upload sending nothing for 1 s is refused (the cut-off test waits it out)
    t = await createTestApp(dialect, { UPLOAD_IDLE_SECONDS: '1' });
    ({ token: alice } = await t.userWithToken({ org: 'Gull Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Otter Lab' }));
    const { token: carol, userName: carolName } = await t.userWithToken({ org: 'Crane Lab' });
    aliceOrg = await t.services.devices.orgIdByName('Gull Lab');
    const created = await t.call(calls.CreateFolder.path, { name: 'Gulls', parentId: ROOT_FOLDER_ID }, { token: alice });
    expect(created.body.Code, created.body.Msg).toBe(Code.Success);
    folder = (created.body.Data as { IdStr: string }).IdStr;
    // carol shares a device with alice without the edit right: alice sees carol's shared folder
    const userId = async (name: string) => Number((await t.database.db.selectFrom('users').select('id').where('user_name', '=', name).executeTakeFirstOrThrow()).id);
    const aliceId = Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', aliceOrg).executeTakeFirstOrThrow()).id);
    const carolId = await userId(carolName);
    const shared = await t.services.devices.register({ orgId: await t.services.devices.orgIdByName('Crane Lab'), imei: 'C-SHARED-1', type: 1, speciesType: 2 });
    const now = NOW;
    await t.database.db
      .insertInto('device_shares')
      .values({ device_id: shared.id, owner_user_id: carolId, recipient_user_id: aliceId, edit_device: 0, remote_instr: 0, download_data: 1, effective_time: now - 3600_000, failure_time: now + 3600_000, created_at: now })
      .execute();
    sharedFolder = `${SHARED_FOLDER_PREFIX}${carolId}`;
    expect(carol).toBeTruthy();
    big = path.join(t.dataDir, 'big-export.csv');
    bigExport(big, 400_000);
  });
  afterAll(async () => t.close());

  it('refuses an import without a session, into another organisation, a shared or the experience folder, or of a file that is not Movebank data; nothing changes', async () => {
    const before = await state();
    const gulls = { name: 'file', file: GULLS, filename: 'gulls.csv' };
    const refused = async (parts: Part[], opts: { token?: string | undefined; lang?: 'zh' | 'en' }, code: number, msg: string | RegExp) => {
      const r = await upload(parts, opts);
      expect(r.Code, r.Msg).toBe(code);
      if (typeof msg === 'string') expect(r.Msg).toBe(msg);
      else expect(r.Msg).toMatch(msg);
      expect(await state()).toEqual(before);
    };
    await refused([{ name: 'folderId', value: folder }, gulls], { token: undefined }, Code.SessionExpired, 'Your session has expired, please sign in again');
    // bob's organisation has no such folder
    await refused([{ name: 'folderId', value: folder }, gulls], { token: bob }, Code.NotFound, /folder/i);
    await refused([{ name: 'folderId', value: EXPERIENCE_FOLDER_ID }, gulls], { token: alice }, Code.Forbidden, /read-only|experience/i);
    // alice holds no edit right on carol's shared folder
    await refused([{ name: 'folderId', value: sharedFolder }, gulls], { token: alice }, Code.Forbidden, /shared|read-only/i);
    await refused([gulls], { token: alice }, Code.Invalid, 'Choose the folder.');
    await refused([gulls], { token: alice, lang: 'zh' }, Code.Invalid, '请选择文件夹。');
    await refused([{ name: 'folderId', value: folder }], { token: alice }, Code.Invalid, 'No Movebank file was received.');
    await refused([{ name: 'folderId', value: folder }, { name: 'file', file: GULLS_REFERENCE, filename: 'trackdata.csv' }], { token: alice }, Code.Invalid, /^trackdata\.csv is not a Movebank CSV: it has no "timestamp" column \(its columns: deployment_id, tag_id/);
    await refused([{ name: 'folderId', value: folder }, { name: 'file', file: GULLS_REFERENCE, filename: 'trackdata.csv' }], { token: alice, lang: 'zh' }, Code.Invalid, /^trackdata\.csv 不是 Movebank CSV：没有 "timestamp" 列/);
    const notes = path.join(t.dataDir, 'notes.csv');
    fs.writeFileSync(notes, 'site,observer\nPoyang,Li\n');
    await refused([{ name: 'folderId', value: folder }, gulls, { name: 'reference', file: notes, filename: 'notes.csv' }], { token: alice }, Code.Invalid, /^notes\.csv is not Movebank reference data/);
    await refused([{ name: 'folderId', value: folder }, { name: 'photo', file: GULLS, filename: 'gulls.csv' }], { token: alice }, Code.Invalid, 'The upload holds a part this call does not take: photo.');
  });

  it("reads Movebank's deliveries (a zip of the CSV and its reference data, a .csv.gz) and refuses a spreadsheet or a binary file in both languages, never with a 500", async () => {
    // a folder of their own: the next test counts the fixes of `folder`
    const created = await t.call(calls.CreateFolder.path, { name: 'Deliveries', parentId: ROOT_FOLDER_ID }, { token: alice });
    expect(created.body.Code, created.body.Msg).toBe(Code.Success);
    const deliveries = (created.body.Data as { IdStr: string }).IdStr;
    const csv = (tag: string) => `event-id,timestamp,location-long,location-lat,sensor-type,tag-local-identifier,individual-local-identifier\n1,2024-05-01 09:00:00.000,8.5,47.5,gps,${tag},Zora\n2,2024-05-01 09:10:00.000,8.6,47.6,gps,${tag},Zora\n`;
    /** A zip written by yazl (not the server's own writer), deflated. */
    const zipOf = async (name: string, entries: [string, string][]) => {
      const zip = new yazl.ZipFile();
      for (const [entry, text] of entries) zip.addBuffer(Buffer.from(text), entry);
      zip.end();
      const file = path.join(t.dataDir, name);
      await pipeline(zip.outputStream, fs.createWriteStream(file));
      return file;
    };
    const reference = 'tag_local_identifier,individual_local_identifier,taxon_canonical_name,animal_mass\nZIP-1,Zora,Larus fuscus,800\n';
    const zipped = await zipOf('study.zip', [['Study/Study.csv', csv('ZIP-1')], ['Study/Study-reference-data.csv', reference], ['Study/README.txt', 'see movebank.org']]);
    const started = await upload([{ name: 'folderId', value: deliveries }, { name: 'file', file: zipped, filename: 'study.zip' }], { token: alice });
    expect(started.Code, started.Msg).toBe(Code.Success);
    expect(started.Data).toMatchObject({ FileName: 'study.zip', ReferenceFileName: 'study.zip (reference data)' });
    const fromZip = await ended(started.Data!.IdStr);
    expect([fromZip.Status, fromZip.Report!.Stored, fromZip.Report!.Devices.Created]).toEqual(['done', 2, 1]);
    const zipDevice = await t.database.db.selectFrom('devices').select(['id', 'attributes']).where('imei', '=', 'MB-ZIP-1-Zora').executeTakeFirstOrThrow();
    expect((JSON.parse(zipDevice.attributes) as { reference?: Record<string, string> }).reference).toMatchObject({ animal_mass: '800' });

    const gz = path.join(t.dataDir, 'study.csv.gz');
    fs.writeFileSync(gz, zlib.gzipSync(csv('GZ-1')));
    const fromGz = await upload([{ name: 'folderId', value: deliveries }, { name: 'file', file: gz, filename: 'study.csv.gz' }], { token: alice });
    expect(fromGz.Code, fromGz.Msg).toBe(Code.Success);
    const gzDone = await ended(fromGz.Data!.IdStr);
    expect([gzDone.Status, gzDone.Report!.Stored]).toEqual(['done', 2]);
    expect((await state()).files).toBe(0);

    const before = await state();
    const refused = async (file: string, filename: string, en: RegExp, zh: RegExp) => {
      for (const [lang, msg] of [['en', en], ['zh', zh]] as const) {
        const r = await upload([{ name: 'folderId', value: deliveries }, { name: 'file', file, filename }], { token: alice, lang });
        expect(r.Code, r.Msg).toBe(Code.Invalid);
        expect(r.Msg).toMatch(msg);
        expect(await state()).toEqual(before);
      }
    };
    const xlsx = await zipOf('study.xlsx', [['[Content_Types].xml', '<Types/>'], ['xl/workbook.xml', '<workbook/>'], ['xl/worksheets/sheet1.xml', '<worksheet/>']]);
    const spreadsheetEn = /^study\.xlsx is a spreadsheet, not a CSV: download the data from Movebank as CSV/;
    await refused(xlsx, 'study.xlsx', spreadsheetEn, /^study\.xlsx 是电子表格，不是 CSV：请在 Movebank 中以 CSV 格式下载数据/);
    const xls = path.join(t.dataDir, 'study.xls');
    fs.writeFileSync(xls, Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]));
    await refused(xls, 'study.xls', /^study\.xls is a spreadsheet, not a CSV/, /^study\.xls 是电子表格/);
    const binary = path.join(t.dataDir, 'photo.jpg');
    fs.writeFileSync(binary, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]));
    await refused(binary, 'photo.jpg', /^photo\.jpg is not a CSV file \(it holds binary data\)/, /^photo\.jpg 不是 CSV 文件/);
    const noCsv = await zipOf('notes.zip', [['notes.txt', 'hello']]);
    await refused(noCsv, 'notes.zip', /^notes\.zip holds no Movebank CSV \(its files: notes\.txt\)/, /^notes\.zip 中没有 Movebank CSV/);
    const quoted = path.join(t.dataDir, 'quoted.csv');
    fs.writeFileSync(quoted, 'timestamp,"tag-local-identifier"x,individual-local-identifier\n');
    await refused(quoted, 'quoted.csv', /^quoted\.csv's first line is not CSV the import can read/, /^quoted\.csv 的第一行不是可读取的 CSV/);
    const broken = path.join(t.dataDir, 'broken.csv.gz');
    fs.writeFileSync(broken, zlib.gzipSync(csv('BROKEN')).subarray(0, 30));
    await refused(broken, 'broken.csv.gz', /^broken\.csv\.gz is damaged/, /^broken\.csv\.gz 已损坏/);
  });

  it('imports a real export with its reference data in the background: progress, the report in both languages, a re-import storing nothing twice; another organisation sees none of it', async () => {
    const started = await upload([{ name: 'folderId', value: folder }, { name: 'file', file: GULLS, filename: 'movebank_gulls_gps_acc.csv' }, { name: 'reference', file: GULLS_REFERENCE, filename: 'trackdata.csv' }], { token: alice });
    expect(started.Code, started.Msg).toBe(Code.Success);
    expect(started.Data).toMatchObject({ FolderIdStr: folder, FileName: 'movebank_gulls_gps_acc.csv', ReferenceFileName: 'trackdata.csv', Size: fs.statSync(GULLS).size });
    expect(['queued', 'running', 'done']).toContain(started.Data!.Status);
    const id = started.Data!.IdStr;

    const done = await ended(id);
    expect(done.Status).toBe('done');
    expect(done.Percent).toBe(100);
    expect(done.BytesRead).toBe(done.Size);
    expect(done.Rows).toBeGreaterThan(1000);
    expect(done.RowsPerSecond).toBeGreaterThan(0);
    expect(done.Error).toBe('');
    const report = done.Report!;
    expect(report.Rows).toBe(done.Rows);
    expect(report.Cancelled).toBe(false);
    expect(report.Stored).toBeGreaterThan(0);
    expect(report.Stored).toBe(await fixesIn(Number(folder)));
    expect(done.Stored).toBe(report.Stored + report.Bursts.Stored);
    expect(report.Devices.Created).toBeGreaterThan(0);
    // the uploaded files are gone once imported
    expect((await state()).files).toBe(0);

    // Chinese: the same job, its texts in Chinese
    const zh = (await job(id, alice, 'zh')).Data.Report!;
    expect(zh.Stored).toBe(report.Stored);
    for (const [i, line] of report.Skipped.entries()) {
      expect(line.Examples.length).toBeGreaterThan(0);
      expect(line.Examples[0]!.Line).toBeGreaterThan(1);
      if (!/^[\x20-\x7e]+$/.test(zh.Skipped[i]!.Reason)) continue;
      throw new Error(`reason not translated: ${zh.Skipped[i]!.Reason}`);
    }

    // listed for alice, not for bob; bob can neither read nor cancel it
    const list = await t.call(calls.GetMovebankImportList.path, {}, { token: alice });
    expect((list.body.Data as MovebankImportJob[]).map((j) => j.IdStr)).toContain(id);
    expect((await t.call(calls.GetMovebankImportList.path, {}, { token: bob })).body.Data).toEqual([]);
    expect((await job(id, bob)).Code).toBe(Code.NotFound);
    expect((await t.call(calls.CancelMovebankImport.path, { id }, { token: bob })).body.Code).toBe(Code.NotFound);

    const again = await upload([{ name: 'folderId', value: folder }, { name: 'file', file: GULLS, filename: 'movebank_gulls_gps_acc.csv' }], { token: alice });
    expect(again.Code, again.Msg).toBe(Code.Success);
    const second = await ended(again.Data!.IdStr);
    expect(second.Status).toBe('done');
    expect(second.Report!.Stored).toBe(0);
    expect(second.Report!.Duplicates).toBe(report.Stored);
    expect(second.Report!.Devices).toEqual({ Created: 0, Reused: report.Devices.Created });
  });

  it('cancels a running import: the answer says how many records were stored before it stopped; a queued one is cancelled before it starts', async () => {
    const first = await upload([{ name: 'folderId', value: ROOT_FOLDER_ID }, { name: 'file', file: big, filename: 'big.csv' }], { token: alice });
    expect(first.Code, first.Msg).toBe(Code.Success);
    const queued = await upload([{ name: 'folderId', value: folder }, { name: 'file', file: big, filename: 'big-2.csv' }], { token: alice });
    expect(queued.Code, queued.Msg).toBe(Code.Success);
    // the first is running (with progress) while the second waits for it
    await expect.poll(async () => (await job(first.Data!.IdStr)).Data.Rows, { timeout: 30_000, interval: 50 }).toBeGreaterThan(0);
    const running = (await job(first.Data!.IdStr)).Data;
    expect(running.Status).toBe('running');
    expect(running.Percent).toBeGreaterThan(0);
    expect(running.Percent).toBeLessThan(100);
    expect((await job(queued.Data!.IdStr)).Data.Status).toBe('queued');

    const q = await t.call(calls.CancelMovebankImport.path, { id: queued.Data!.IdStr }, { token: alice });
    expect((q.body.Data as MovebankImportJob)).toMatchObject({ Status: 'cancelled', Stored: 0, Rows: 0, Report: null });

    const c = await t.call(calls.CancelMovebankImport.path, { id: first.Data!.IdStr }, { token: alice });
    expect(c.body.Code, c.body.Msg).toBe(Code.Success);
    const stopped = c.body.Data as MovebankImportJob;
    expect(stopped.Status).toBe('cancelled');
    expect(stopped.Report!.Cancelled).toBe(true);
    expect(stopped.Rows).toBeLessThan(400_000);
    const bigFixes = Number(
      (
        await t.database.db
          .selectFrom('fixes')
          .innerJoin('devices', 'devices.id', 'fixes.device_id')
          .select((e) => e.fn.countAll().as('n'))
          .where('devices.imei', 'like', '%BIG%')
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(stopped.Stored).toBe(bigFixes);
    expect(stopped.Report!.Stored).toBe(bigFixes);
    expect((await state()).files).toBe(0);
  });

  it('deletes uploaded files no job names once untouched for an hour (a server stopped mid-upload), never the file of a job still to run', async () => {
    const dir = path.join(t.dataDir, 'imports', String(aliceOrg));
    fs.mkdirSync(dir, { recursive: true });
    const orphan = path.join(dir, 'orphan.csv');
    const fresh = path.join(dir, 'being-written.csv');
    const queued = path.join(dir, 'queued.csv');
    for (const f of [orphan, fresh, queued]) fs.writeFileSync(f, 'event-id,timestamp\n');
    const old = new Date(NOW - ORPHAN_AGE_MS - 60_000);
    fs.utimesSync(orphan, old, old);
    fs.utimesSync(queued, old, old);
    const id = Number(
      (
        await t.database.db
          .insertInto('movebank_imports')
          .values({ org_id: aliceOrg, user_id: null, folder_id: null, file_name: 'queued.csv', reference_name: null, data_path: queued, reference_path: null, size: 20, status: 'running', created_at: NOW, started_at: NOW, updated_at: NOW + STALE_MS })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    // a job another server runs (its heartbeat is fresh): its file must outlive the sweep
    expect(await t.services.imports.sweepOrphans()).toBe(1);
    expect([fs.existsSync(orphan), fs.existsSync(fresh), fs.existsSync(queued)]).toEqual([false, true, true]);
    await t.database.db.updateTable('movebank_imports').set({ status: 'cancelled' }).where('id', '=', id).execute();
    fs.rmSync(fresh);
    fs.rmSync(queued);
  });

  it('answers multipart without a boundary with the envelope naming what is missing (was HTTP 500), in both languages', async () => {
    for (const [lang, text] of [['en', 'Send the file as multipart/form-data: the Content-Type header lacks its boundary.'], ['zh', '请以 multipart/form-data 上传文件：Content-Type 缺少 boundary 参数。']] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: API_BASE + MOVEBANK_IMPORT_PATH,
        headers: { ...signedHeaders({ token: alice, path: MOVEBANK_IMPORT_PATH, body: undefined, lcid: LanguageId[lang], now: clockNow() }), 'content-type': 'multipart/form-data' },
        payload: 'folderId=1',
      });
      expect([res.statusCode, (res.json() as Envelope).Code, (res.json() as Envelope).Msg]).toEqual([200, Code.Invalid, text]);
    }
  });

  it('closes and removes the file of an upload cut off or stalled mid-body over a real socket: the descriptors come back, no file is left', async () => {
    const address = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const descriptors = () => fs.readdirSync('/proc/self/fd').length;
    const before = { fds: descriptors(), files: (await state()).files };
    const boundary = '----wildtrack-cut';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="folderId"\r\n\r\n${folder}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    );
    const rows = Buffer.from('event-id,timestamp,location-long,location-lat,tag-local-identifier\n' + '1,2020-01-01 00:00:00.000,4.1,51.2,CUT-1\n'.repeat(5000));
    for (let i = 0; i < 6; i++) {
      const socket = net.connect(Number(address.port), address.hostname);
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      const headers = { ...signedHeaders({ token: alice, path: MOVEBANK_IMPORT_PATH, body: undefined, lcid: LanguageId.en, now: clockNow() }), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + 50_000_000) };
      socket.write(`POST ${API_BASE}${MOVEBANK_IMPORT_PATH} HTTP/1.1\r\nHost: ${address.host}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`);
      socket.write(Buffer.concat([head, rows]));
      // the file is being written: then the client goes away
      await expect.poll(async () => (await state()).files).toBe(before.files + 1);
      const answer = new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (b: Buffer) => (text += b.toString()));
        socket.on('close', () => resolve(text));
      });
      // the client goes away, ends its side only (a FIN) and waits, or stops sending and waits
      if (i % 3 === 0) socket.destroy();
      else if (i % 3 === 1) {
        socket.end();
        expect(await answer).toMatch(/^HTTP\/1\.1 |^$/);
      } else {
        // UPLOAD_IDLE_SECONDS 1 in this file: answered, and the connection closed
        const text = await answer;
        expect(text).toMatch(/^HTTP\/1\.1 200 /);
        expect(text).toContain('"Msg":"The upload stalled: nothing arrived for 1 s; send it again."');
      }
      await expect.poll(async () => (await state()).files).toBe(before.files);
    }
    await expect.poll(descriptors).toBeLessThanOrEqual(before.fds);
  });

  it('marks an import interrupted when its server stopped: one whose heartbeat aged, and the running ones of a server that closes', async () => {
    // a server killed mid-import leaves a running row whose heartbeat no longer moves
    const id = Number(
      (
        await t.database.db
          .insertInto('movebank_imports')
          .values({ org_id: aliceOrg, user_id: null, folder_id: null, file_name: 'lost.csv', reference_name: null, data_path: path.join(t.dataDir, 'lost.csv'), reference_path: null, size: 100, status: 'running', created_at: NOW - STALE_MS * 3, started_at: NOW - STALE_MS * 3, updated_at: NOW - STALE_MS * 2 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    // the server's import job sweeps it
    await expect.poll(async () => (await job(String(id))).Data.Status, { timeout: 30_000, interval: 100 }).toBe('interrupted');
    expect((await job(String(id))).Data.Error).toMatch(/^The server stopped while the import ran/);
    expect((await job(String(id), alice, 'zh')).Data.Error).toMatch(/^导入进行中服务器已停止/);

    const started = await upload([{ name: 'folderId', value: folder }, { name: 'file', file: big, filename: 'big-3.csv' }], { token: alice });
    expect(started.Code, started.Msg).toBe(Code.Success);
    await expect.poll(async () => (await job(started.Data!.IdStr)).Data.Rows, { timeout: 30_000, interval: 50 }).toBeGreaterThan(0);
    await t.app.close();
    const row = await t.database.db.selectFrom('movebank_imports').select(['status', 'error', 'stored']).where('id', '=', Number(started.Data!.IdStr)).executeTakeFirstOrThrow();
    expect(row.status).toBe('interrupted');
    expect(row.error).toContain('movebank.interrupted');
  });
});
