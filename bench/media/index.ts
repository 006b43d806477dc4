// bench/media: a camera collar's year of photos (issue 13 item 4). Prints the server time of the media
// calls over the whole year (a page of 20, the grid's Get<Kind>All of the newest 1000, a count) and of the
// file route: a thumbnail made by sharp the first time (cold: decode, EXIF rotate, resize to 320 px,
// mozjpeg), then served from the disk cache (warm), with the bytes saved; and the original served whole.
// Then the thumbnail job (jobs/thumbnails.ts) as it runs after photos arrive: its pass over the photos
// without a thumbnail, and the first grid page after it (what a researcher opening /media now waits for).
// `npm run bench -- media` (SQLite in a temp folder; BENCH_IMAGES photos, default 5,000, 1600x1200).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calls, DeviceType, formatTime, TOKEN_COOKIE } from '@wildtrack/contract';
import sharp from 'sharp';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { imageCookie } from '../../apps/server/src/test/helper.js';
import { benchCalls, percentile } from '../calls.js';
import { benchSignIn } from '../sign-in.js';

const IMAGES = Number(process.env.BENCH_IMAGES ?? 5_000);
const THUMBS = 60;
const DAY = 86_400_000;
const ZONE = '+08:00';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-media-'));
const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
const database = connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
await migrateToLatest(database);
// The background jobs off: the thumbnail job would make the year's thumbnails while the cold figures are
// timed; its passes are run and timed below instead.
const { app, services } = await buildApp(config, database, { jobs: false });
await services.users.createUser({ orgName: 'Forest Lab', userName: 'forestlab', password: 'Forest-Lab-26', email: 'forest@example.org' });
const token = await benchSignIn(services.auth, { account: 'forestlab', password: 'Forest-Lab-26', timeZone: ZONE });
const orgId = await services.devices.orgIdByName('Forest Lab');
const imei = '864512049991001';
const { id: deviceId } = await services.devices.register({ orgId, imei, type: DeviceType.Tracker, sensors: ['GNSS', 'Image'], caption: 'Camera collar' });

// ---- a year of 1600x1200 photos (a camera collar's size), through the ingest's media path ----
const noise = Buffer.alloc(400 * 300 * 3);
for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
const photo = await sharp(noise, { raw: { width: 400, height: 300, channels: 3 } }).resize(1600, 1200).blur(1.2).jpeg({ quality: 85 }).toBuffer();
const end = Date.UTC(2026, 10, 1);
const start = end - 365 * DAY;
const t0 = performance.now();
for (let i = 0; i < IMAGES; i++) {
  const t = start + Math.floor(((i + 0.5) / IMAGES) * 365 * DAY);
  await services.ingest.storeMedia(deviceId, { kind: 'image', t, lon: 127.5 + (i % 100) / 1000, lat: 43.1, alt: 400, width: 1600, height: 1200 }, photo, 'image/jpeg', null, end + DAY);
}
const ingestMs = performance.now() - t0;

const { measure, send } = benchCalls(app, token);
const range = { imei, startTime: formatTime(start, ZONE), endTime: formatTime(end, ZONE), timeZone: ZONE };
console.log(`bench/media: ${IMAGES.toLocaleString('en')} photos of one collar over 365 days, ${(photo.length / 1024).toFixed(0)} kB each (SQLite)`);
console.log(`ingest: ${IMAGES} files in ${ingestMs.toFixed(0)} ms = ${Math.round(IMAGES / (ingestMs / 1000)).toLocaleString('en')} files/s`);
await measure('Sensor/GetImageList, a year, 20 newest', calls.GetImageList, { ...range, pageSize: 20 });
await measure('Sensor/GetImageList, a year, page 100 by size', calls.GetImageList, { ...range, pageSize: 20, currentPage: 100, sortField: 'Size' });
await measure('Sensor/GetImageCount, a year', calls.GetImageCount, range);
await measure('Sensor/GetImageAll, a year (the grid: newest 1000)', calls.GetImageAll, { imeis: [imei], startTime: range.startTime, endTime: range.endTime, timeZone: ZONE });

// ---- the file route: thumbnails cold (made by sharp) and warm (from the disk cache) ----
const list = ((await send(calls.GetImageList, { ...range, pageSize: 100 })).data as { List: { ThumbUrl: string; Url: string }[] }).List;
const cookie = `${TOKEN_COOKIE}=${encodeURIComponent(imageCookie(token))}`;
const get = async (url: string) => {
  const s = performance.now();
  const res = await app.inject({ method: 'GET', url, headers: { cookie } });
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
  return { ms: performance.now() - s, bytes: res.rawPayload.length };
};
const timed = async (name: string, urls: string[]) => {
  const runs = [];
  for (const url of urls) runs.push(await get(url));
  const times = runs.map((r) => r.ms).sort((a, b) => a - b);
  const bytes = runs[0]!.bytes;
  console.log(`${name.padEnd(52)} p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(6)} ms  ${(bytes / 1024).toFixed(1).padStart(6)} kB`);
  return bytes;
};
const urls = list.slice(0, THUMBS).map((f) => f.ThumbUrl);
const thumbBytes = await timed(`thumbnail, cold (sharp makes it), ${THUMBS} photos`, urls);
await timed(`thumbnail, warm (kept on disk), ${THUMBS} photos`, urls);
// The grid's first page at once, as a browser asks for it: 20 cold thumbnails in parallel.
const parallel = list.slice(THUMBS, THUMBS + 20).map((f) => f.ThumbUrl);
const p0 = performance.now();
await Promise.all(parallel.map((u) => get(u)));
console.log(`${'a grid page: 20 cold thumbnails at once'.padEnd(52)} all ${(performance.now() - p0).toFixed(0).padStart(6)} ms`);
await timed('original photo, served whole', list.slice(0, 20).map((f) => f.Url));
console.log(`thumbnail ${(thumbBytes / 1024).toFixed(1)} kB for a ${(photo.length / 1024).toFixed(0)} kB photo: ${(photo.length / thumbBytes).toFixed(0)}x fewer bytes for the grid`);

// ---- the thumbnail job: photos that arrive are given their thumbnail before anyone asks ----
// Its passes take the latest arrivals first: the new photos' thumbnails are made by the first passes (the
// year's older photos, still without one here, would follow).
const BATCH_NEW = 200;
const fresh = end + 2 * DAY;
for (let i = 0; i < BATCH_NEW; i++) {
  await services.ingest.storeMedia(deviceId, { kind: 'image', t: fresh + i * 60_000, lon: 127.6, lat: 43.1, alt: 400, width: 1600, height: 1200 }, photo, 'image/jpeg', null, fresh + DAY);
}
const j0 = performance.now();
let jobMade = 0;
while (jobMade < BATCH_NEW) {
  const pass = await services.media.makeThumbnails(20);
  jobMade += pass.made;
  if (pass.made === 0) break;
}
const jobMs = performance.now() - j0;
console.log(`thumbnail job: ${BATCH_NEW} photos arrived, ${jobMade} thumbnails made in ${jobMs.toFixed(0)} ms (${(jobMs / Math.max(1, jobMade)).toFixed(1)} ms each, in the background)`);
const freshRange = { imei, startTime: formatTime(fresh, ZONE), endTime: formatTime(fresh + DAY, ZONE), timeZone: ZONE };
const freshList = ((await send(calls.GetImageList, { ...freshRange, pageSize: 100 })).data as { List: { ThumbUrl: string }[] }).List;
const g0 = performance.now();
await Promise.all(freshList.slice(0, 20).map((f) => get(f.ThumbUrl)));
const afterJob = performance.now() - g0;
console.log(`${'a grid page of new photos after the job: 20 at once'.padEnd(52)} all ${afterJob.toFixed(0).padStart(6)} ms`);
await timed('thumbnail of a new photo after the job', freshList.slice(20, 80).map((f) => f.ThumbUrl));
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
