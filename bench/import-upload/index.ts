// bench/import-upload: the console's Movebank import of a 100 MB file (issue 10 item 7). A Movebank CSV
// of GPS rows (the gulls file's columns, 40 tags, one fix a minute each) is written to a temporary file,
// uploaded to the real server (bench/import-upload/server.ts, its own process) as the console does
// (multipart folderId + file, streamed from disk), then imported in the background while the bench reads
// the job's progress. The server's RSS is sampled every 10 ms: its growth over the idle figure is printed
// for the upload and for the import, with the upload rate and the import's rows/s.
// BENCH_IMPORT_MB sets the file's size (default 100); BENCH_UPLOAD_ONLY=1 cancels the import once the
// upload is answered (to measure uploads larger than an import should take on a bench).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { API_BASE, calls, LanguageId, MOVEBANK_IMPORT_PATH, type MovebankImportJob, prepareCall, ROOT_FOLDER_ID, signedHeaders } from '@wildtrack/contract';

const MB = Number(process.env.BENCH_IMPORT_MB ?? 100);
const here = path.dirname(new URL(import.meta.url).pathname);

// ---- the file -----------------------------------------------------------------------------------
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-movebank-')), 'gulls-100mb.csv');
{
  const out = fs.openSync(file, 'w');
  fs.writeSync(out, 'event-id,timestamp,location-long,location-lat,sensor-type,individual-local-identifier,tag-local-identifier,individual-taxon-canonical-name,study-name,gps:dop,gps:satellite-count,ground-speed,heading,height-above-msl,visible\n');
  const t0 = Date.UTC(2021, 2, 3);
  let size = 0;
  let chunk = '';
  for (let i = 0; size < MB * 1e6; i++) {
    const tag = i % 40;
    const stamp = new Date(t0 + Math.floor(i / 40) * 60_000).toISOString().replace('T', ' ').slice(0, 23);
    chunk += `${33763085849 + i},${stamp},${(0.9 + (i % 997) / 1000).toFixed(7)},${(49.9 + (i % 991) / 1000).toFixed(7)},gps,55011${tag},55${tag},Larus fuscus,LBBG_ZEEBRUGGE,${(1 + (i % 20) / 10).toFixed(1)},${4 + (i % 8)},${(i % 300) / 10},${i % 360},${i % 120},TRUE\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(out, chunk);
      size += chunk.length;
      chunk = '';
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
}
const fileSize = fs.statSync(file).size;

// ---- the server ---------------------------------------------------------------------------------
const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
const info = JSON.parse(await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve))) as { port: number; credential: string };
const rssMiB = (): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

function post(p: string, body: unknown): Promise<{ Code: number; Msg: string; Data: unknown }> {
  // Encrypted as the console sends it (docs/api.md "Encrypted bodies and answers"); the upload below goes as it is.
  const { payload: text, headers, open } = prepareCall({ credential: info.credential, path: p, body, lcid: LanguageId.en });
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: info.port, path: API_BASE + p, method: 'POST', headers }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (data += c));
      res.on('end', () => void open(data).then(resolve, reject));
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** The multipart upload, the file streamed from disk as the browser sends it. */
function upload(): Promise<{ Code: number; Msg: string; Data: MovebankImportJob | null }> {
  const boundary = '----wildtrack-bench';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="folderId"\r\n\r\n${ROOT_FOLDER_ID}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gulls-100mb.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const headers = {
    ...signedHeaders({ token: info.credential, path: MOVEBANK_IMPORT_PATH, body: undefined, lcid: LanguageId.en }),
    'content-type': `multipart/form-data; boundary=${boundary}`,
    'content-length': head.length + fileSize + tail.length,
  };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: info.port, path: API_BASE + MOVEBANK_IMPORT_PATH, method: 'POST', headers }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (data += c));
      res.on('end', () => resolve(JSON.parse(data) as { Code: number; Msg: string; Data: MovebankImportJob | null }));
    });
    req.on('error', reject);
    req.write(head);
    const input = fs.createReadStream(file);
    input.pipe(req, { end: false });
    input.on('end', () => req.end(tail));
  });
}

try {
  await new Promise((r) => setTimeout(r, 1000));
  const idle = rssMiB();
  let peak = idle;
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB())), 10);
  const t0 = performance.now();
  const started = await upload();
  const uploadMs = performance.now() - t0;
  const uploadPeak = Math.max(peak, rssMiB());
  if (started.Code !== 1000 || !started.Data) throw new Error(`upload refused: ${started.Code} ${started.Msg}`);
  console.log(`file: ${(fileSize / 1e6).toFixed(1)} MB; server RSS idle ${idle.toFixed(0)} MiB`);
  console.log(`upload: ${(uploadMs / 1000).toFixed(1)} s (${(fileSize / 1e6 / (uploadMs / 1000)).toFixed(0)} MB/s); server RSS peak ${uploadPeak.toFixed(0)} MiB, growth ${(uploadPeak - idle).toFixed(0)} MiB`);
  if (process.env.BENCH_UPLOAD_ONLY === '1') {
    clearInterval(timer);
    const stopped = (await post(calls.CancelMovebankImport.path, { id: started.Data.IdStr })).Data as MovebankImportJob;
    console.log(`import cancelled after ${stopped.Rows.toLocaleString('en-US')} rows (BENCH_UPLOAD_ONLY)`);
  } else {
    peak = rssMiB();
    const importStart = peak;
    let job = started.Data;
    let lastLine = 0;
    // how long the server takes to answer another call while it imports (the import yields to it)
    let slowest = 0;
    while (job.Status === 'queued' || job.Status === 'running') {
      await new Promise((r) => setTimeout(r, 500));
      const asked = performance.now();
      job = (await post(calls.GetMovebankImport.path, { id: job.IdStr })).Data as MovebankImportJob;
      slowest = Math.max(slowest, performance.now() - asked);
      if (performance.now() - lastLine > 5000) {
        lastLine = performance.now();
        console.log(`  ${job.Status}: ${job.Rows.toLocaleString('en-US')} rows, ${job.Percent}% of the file, ${job.RowsPerSecond.toLocaleString('en-US')} rows/s, server RSS ${rssMiB().toFixed(0)} MiB`);
      }
    }
    clearInterval(timer);
    peak = Math.max(peak, rssMiB());
    const r = job.Report;
    console.log(
      `import: ${job.Status}, ${job.Rows.toLocaleString('en-US')} rows in ${r?.Seconds ?? '?'} s (${job.RowsPerSecond.toLocaleString('en-US')} rows/s), ${r?.Stored.toLocaleString('en-US') ?? '?'} fixes stored; ` +
        `server RSS at its start ${importStart.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB, growth over idle ${(peak - idle).toFixed(0)} MiB`,
    );
    console.log(`progress calls during the import: slowest answer ${slowest.toFixed(0)} ms`);
  }
} finally {
  child.kill('SIGTERM');
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
