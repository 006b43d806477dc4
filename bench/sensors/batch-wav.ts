// bench/sensors batchwav: BatchDownloadWAV's memory stays flat. An owl tag's PDM recordings (the sample
// fleet's 512 kHz bird calls between stretches of background, 10-30 s each, written through the ingest's
// media path) downloaded as a zip of 10 and of 100 recordings over real HTTP on loopback, read to the end
// without keeping it; first with the PDM -> WAV conversions, then from the kept WAVs. A worker thread
// samples the process RSS (the server is in this process) every 20 ms; printed for each: recordings, zip
// bytes, time, and the peak RSS growth over the baseline just before the call (split at the answer's first
// byte: before it the lookups and checks, after it the streaming, which converts a PDM recording when the
// zip reaches its entry); then the ratio of the growth for 100 to that
// for 10 ("flat": about 1, not 10) and the extra growth against the extra zip bytes (an archive held whole
// would be >= 100 %). Median of BENCH_ROUNDS (5) rounds, each after a full collection (its baseline the live heap). Each zip is checked complete from its central
// directory (entry count, offsets, stored sizes summing to the WAVs on disk). BENCH_BATCH_SECONDS sets
// the longest recording (default 30; the shortest is a third of it).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';
import { API_BASE, calls, DeviceType, formatTime, LanguageId, prepareCall, SpeciesType } from '@wildtrack/contract';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { PDM_CONTENT_TYPE, PDM_RATE, pdmEncode, pooledCall } from '../../packages/sample-fleet/src/media/pdm.js';
import { Rng } from '../../packages/sample-fleet/src/rng.js';
import { httpCaller } from '../calls.js';
import { benchSignIn } from '../sign-in.js';

const ZONE = '+08:00';
const IMEI = 'OWL-AUDIO-BENCH';
const LONGEST_S = Number(process.env.BENCH_BATCH_SECONDS ?? 30);
const SHORTEST_S = Math.max(1, Math.round(LONGEST_S / 3));
/** 100 recordings for the batch of 100, 10 others for the batch of 10 (each first run converts all it holds), 10 to warm up. */
const RECORDINGS = 120;
const WARMUP_FROM = 110;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const PASSES = ['first (converting)', 'again (kept WAVs)'] as const;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const EVERY_MS = 10 * 60_000;
const BYTES_PER_S = PDM_RATE / 8;
const MB = 1024 * 1024;

/** A full collection before each download, so its baseline is the live heap and not the garbage the previous one left. */
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

/** Background between calls: low wind and insect noise, modulated as the microphone would (0.5 s pieces). */
function backgroundPieces(count: number): Uint8Array[] {
  const rng = new Rng(77, 3);
  return Array.from({ length: count }, () => {
    const n = PDM_RATE / 2;
    const signal = new Float64Array(n);
    let low = 0;
    for (let i = 0; i < n; i++) {
      low += ((rng.float() - 0.5) * 0.02 - low) * 0.002;
      signal[i] = low * 8 + (rng.float() - 0.5) * 0.01;
    }
    return pdmEncode(signal);
  });
}

/** Recording `i`: `seconds` of calls (0.8 s each, 8 variants) with 0.5-2 s of background between them. */
function recording(i: number, seconds: number, background: Uint8Array[]): Buffer {
  const out = Buffer.alloc(seconds * BYTES_PER_S);
  const rng = new Rng(500 + i, 9);
  let at = 0;
  let k = 0;
  while (at < out.length) {
    const piece = k % 2 === 0 ? background[rng.int(0, background.length - 1)]! : pooledCall((i + k) % 8).bits;
    const pieces = k % 2 === 0 ? rng.int(1, 4) : 1;
    for (let p = 0; p < pieces && at < out.length; p++) at += Buffer.from(piece.buffer, piece.byteOffset, Math.min(piece.length, out.length - at)).copy(out, at);
    k += 1;
  }
  return out;
}

/** The process RSS sampled every 20 ms from a worker thread (it runs while the main thread is busy converting). */
function rssSampler(): { reset: () => void; peak: () => { bytes: number; samples: number }; stop: () => Promise<number> } {
  const shared = new Float64Array(new SharedArrayBuffer(16));
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const s = new Float64Array(workerData);
     setInterval(() => { const r = process.memoryUsage.rss(); if (r > s[0]) s[0] = r; s[1] += 1; }, 20);`,
    { eval: true, workerData: shared.buffer },
  );
  return {
    reset: () => {
      shared[0] = 0;
      shared[1] = 0;
    },
    peak: () => ({ bytes: shared[0]!, samples: shared[1]! }),
    stop: () => worker.terminate(),
  };
}

/** A zip's central directory checked against its length: the entries' count, names, offsets and stored sizes. */
function checkZip(tail: Buffer, total: number): { entries: number; names: Set<string>; stored: number } {
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('zip: no end of central directory');
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdOffset = tail.readUInt32LE(eocd + 16);
  const tailStart = total - tail.length;
  if (cdOffset + cdSize !== tailStart + eocd) throw new Error(`zip: the central directory (${cdOffset} + ${cdSize}) does not end at its end record (${tailStart + eocd})`);
  if (tailStart + eocd + 22 + tail.readUInt16LE(eocd + 20) !== total) throw new Error('zip: bytes after the end record');
  let at = cdOffset - tailStart;
  if (at < 0) throw new Error('zip: central directory longer than the kept tail');
  const names = new Set<string>();
  let stored = 0;
  let end = 0;
  for (let k = 0; k < count; k++) {
    if (tail.readUInt32LE(at) !== 0x02014b50) throw new Error(`zip: entry ${k} has no central header`);
    const method = tail.readUInt16LE(at + 10);
    const compressed = tail.readUInt32LE(at + 20);
    const size = tail.readUInt32LE(at + 24);
    const nameLen = tail.readUInt16LE(at + 28);
    const local = tail.readUInt32LE(at + 42);
    const name = tail.toString('utf8', at + 46, at + 46 + nameLen);
    if (method !== 0 || compressed !== size) throw new Error(`zip: ${name} is not stored`);
    if (!/^OWL-AUDIO-BENCH-audio-\d{8}-\d{6}\.wav$/.test(name)) throw new Error(`zip: unexpected entry ${name}`);
    // Entries follow one another: each one's local header after the previous one's data.
    if (local < end) throw new Error(`zip: ${name} overlaps the entry before it`);
    end = local + 30 + nameLen + size;
    names.add(name);
    stored += size;
    at += 46 + nameLen + tail.readUInt16LE(at + 30) + tail.readUInt16LE(at + 32);
  }
  if (end > cdOffset) throw new Error('zip: the last entry runs into the central directory');
  return { entries: count, names, stored };
}

/** Posts BatchDownloadWAV as the console does and reads the zip to its end, keeping only its last 1 MB. */
function download(port: number, token: string, pickTimes: string[], onHeaders: () => void): Promise<{ bytes: number; ms: number; firstByteMs: number; tail: Buffer; encoding: string }> {
  const def = calls.BatchDownloadWAV;
  // The body encrypted as the console sends it; the file itself comes as it is (docs/api.md).
  const { payload: body, headers } = prepareCall({ credential: token, path: def.path, body: { imei: IMEI, pickTimes, timeZone: ZONE }, lcid: LanguageId.en });
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: API_BASE + def.path, method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br', ...headers } },
      (res) => {
        const firstByteMs = performance.now() - started;
        onHeaders();
        const type = res.headers['content-type'] ?? '';
        if (res.statusCode !== 200 || type !== 'application/zip') {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => reject(new Error(`BatchDownloadWAV: ${res.statusCode} ${type} ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`)));
          return;
        }
        let bytes = 0;
        let kept = 0;
        const tail: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          bytes += c.length;
          tail.push(c);
          kept += c.length;
          while (kept - tail[0]!.length >= MB) kept -= tail.shift()!.length;
        });
        res.on('end', () => resolve({ bytes, ms: performance.now() - started, firstByteMs, tail: Buffer.concat(tail), encoding: res.headers['content-encoding'] ?? 'none' }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function benchBatchWav(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-batchwav-'));
  const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
  const database = connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
  const sampler = rssSampler();
  try {
    await migrateToLatest(database);
    const { app, services } = await buildApp(config, database);
    await services.users.createUser({ orgName: 'Owl Study', userName: 'owlstudy', password: 'Owl-Night-2026', email: 'owls@example.org' });
    const token = await benchSignIn(services.auth, { account: 'owlstudy', password: 'Owl-Night-2026', timeZone: ZONE });
    const orgId = await services.devices.orgIdByName('Owl Study');
    const device = await services.devices.register({ orgId, imei: IMEI, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS', 'Audio'], caption: 'owl' });

    // A recording every 10 minutes over the last day, through the ingest's media path as uploads arrive.
    const now = Date.now();
    const first = Math.floor((now - 86_400_000) / 60_000) * 60_000;
    const times = Array.from({ length: RECORDINGS }, (_, i) => first + i * EVERY_MS);
    const background = backgroundPieces(6);
    const t0 = performance.now();
    let pdmBytes = 0;
    let audioSeconds = 0;
    for (const [i, t] of times.entries()) {
      const seconds = SHORTEST_S + ((i * 7) % (LONGEST_S - SHORTEST_S + 1));
      const body = recording(i, seconds, background);
      pdmBytes += body.length;
      audioSeconds += seconds;
      const stored = await services.ingest.storeMedia(device.id, { kind: 'audio', t, rate: PDM_RATE, bitDepth: 1, track: 1, duration: seconds }, body, PDM_CONTENT_TYPE, null, now);
      if (!stored) throw new Error(`recording ${i} not stored`);
    }
    console.log(
      `\nbench/sensors batchwav: ${RECORDINGS} PDM recordings of ${SHORTEST_S}-${LONGEST_S} s at ${PDM_RATE / 1000} kHz (${(audioSeconds / 60).toFixed(0)} min, ${(pdmBytes / 1e6).toFixed(0)} MB) ingested in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const count = await httpCaller(port, token)(
      calls.GetAudioCount,
      JSON.stringify({ imei: IMEI, startTime: formatTime(first, ZONE), endTime: formatTime(times.at(-1)!, ZONE), timeZone: ZONE }),
    );
    const listed = ((await count.open(count.text)) as { Data: { Count: number } }).Data.Count;
    if (listed !== RECORDINGS) throw new Error(`GetAudioCount: ${count.text.slice(0, 200)}`);

    const wavOf = (t: number) => path.join(dataDir, 'media', String(device.id), `audio-${t}.wav`);
    const wavBytes = (set: readonly number[]) => set.reduce((sum, t) => sum + fs.statSync(wavOf(t)).size, 0);
    const secondsOf = (t: number) => SHORTEST_S + ((times.indexOf(t) * 7) % (LONGEST_S - SHORTEST_S + 1));
    /** One download of `set` while the sampler runs: the zip checked, the peak RSS over the level just before. */
    const measure = async (set: readonly number[]) => {
      collect();
      collect();
      await new Promise((r) => setTimeout(r, 100));
      const base = process.memoryUsage.rss();
      sampler.reset();
      const cpu0 = process.cpuUsage();
      // The answer's headers come once every recording is converted: the peak before them is the conversions'.
      let beforeHeaders = 0;
      const got = await download(
        port,
        token,
        set.map((t) => formatTime(t, ZONE)),
        () => {
          beforeHeaders = Math.max(beforeHeaders, sampler.peak().bytes, process.memoryUsage.rss());
          sampler.reset();
        },
      );
      await new Promise((r) => setTimeout(r, 40));
      const cpu = process.cpuUsage(cpu0);
      const peak = sampler.peak().bytes;
      const zip = checkZip(got.tail, got.bytes);
      const wavs = wavBytes(set);
      if (zip.entries !== set.length || zip.names.size !== set.length || zip.stored !== wavs) {
        throw new Error(`zip of ${set.length}: ${zip.entries} entries, ${zip.names.size} names, ${zip.stored} bytes stored of ${wavs}`);
      }
      return { ...got, zip, cpu: (cpu.user + cpu.system) / 1000, base, peak: Math.max(peak, beforeHeaders, base), grew: Math.max(0, Math.max(peak, beforeHeaders) - base), converting: Math.max(0, beforeHeaders - base), streaming: Math.max(0, peak - base) };
    };

    // Warm-up (not counted): 10 other recordings converted and downloaded twice, so the heap has its working size.
    await measure(times.slice(WARMUP_FROM));
    await measure(times.slice(WARMUP_FROM));

    const sets = { 10: times.slice(100, 110), 100: times.slice(0, 100) } as const;
    const growth: Record<string, number> = {};
    const zipBytes: Record<number, number> = {};
    console.log(`  BatchDownloadWAV over real HTTP on loopback, the zip read to its end and dropped; RSS sampled every 20 ms from a worker thread; median of ${ROUNDS} rounds`);
    for (const pass of PASSES) {
      for (const n of [10, 100] as const) {
        const set = sets[n];
        const runs = [];
        for (let round = 0; round < ROUNDS; round++) {
          // The first pass converts every recording: the WAVs kept by a round before are removed.
          if (pass === PASSES[0]) for (const t of set) fs.rmSync(wavOf(t), { force: true });
          runs.push(await measure(set));
        }
        const grew = median(runs.map((r) => r.grew));
        growth[`${pass} ${n}`] = grew;
        const audio = set.reduce((sum, t) => sum + secondsOf(t), 0);
        const zip = runs[0]!;
        zipBytes[n] = zip.bytes;
        console.log(
          `  ${pass.padEnd(19)} ${String(n).padStart(3)} recordings (${(audio / 60).toFixed(1).padStart(4)} min): zip ${(zip.bytes / 1e6).toFixed(1).padStart(5)} MB, ${zip.zip.entries} entries checked (encoding ${zip.encoding})` +
            `  ${(median(runs.map((r) => r.ms)) / 1000).toFixed(2).padStart(5)} s (first byte ${(median(runs.map((r) => r.firstByteMs)) / 1000).toFixed(2)} s)  cpu ${median(runs.map((r) => r.cpu)).toFixed(0).padStart(5)} ms` +
            `  peak RSS +${(grew / MB).toFixed(1).padStart(5)} MB (${((100 * grew) / zip.bytes).toFixed(0)} % of the zip) [rounds ${runs.map((r) => (r.grew / MB).toFixed(1)).join(', ')}] over ${(median(runs.map((r) => r.base)) / MB).toFixed(0)} MB, peak ${(median(runs.map((r) => r.peak)) / MB).toFixed(0)} MB` +
            ` (before the first byte +${(median(runs.map((r) => r.converting)) / MB).toFixed(1)} MB, while streaming +${(median(runs.map((r) => r.streaming)) / MB).toFixed(1)} MB)`,
        );
      }
    }
    for (const pass of PASSES) {
      const ten = growth[`${pass} 10`]!;
      const hundred = growth[`${pass} 100`]!;
      // Below 1 MB the growth is noise (page faults, the sampler's timing): the 10's is floored at 1 MB. The
      // growth that remains is garbage Buffers (read chunks, socket chunks) not yet collected, so it varies by
      // some MB from run to run; the steadier figure is the extra growth against the extra zip bytes.
      const floored = ten < MB ? ' (the growth for 10 taken as 1 MB: under that it is noise)' : '';
      console.log(
        `  ${pass}: peak RSS growth 100 / 10 = ${(hundred / Math.max(ten, MB)).toFixed(2)}${floored}: ${(hundred / MB).toFixed(1)} MB vs ${(ten / MB).toFixed(1)} MB` +
          ` (flat: about 1, not 10); ${((100 * Math.max(0, hundred - ten)) / (zipBytes[100]! - zipBytes[10]!)).toFixed(0)} % of the ${((zipBytes[100]! - zipBytes[10]!) / MB).toFixed(0)} MB more zip` +
          ` (an archive held whole: >= 100 %)`,
      );
    }
    await app.close();
  } finally {
    await sampler.stop();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
