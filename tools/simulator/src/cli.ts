/**
 * Devices that talk to a Wildtrack server over the ingest protocol.
 *
 *   npm run simulate -w @wildtrack/simulator -- --register "<org>" --devices devices.json
 *   npm run simulate -w @wildtrack/simulator -- --server http://localhost:8080 --devices devices.json --backfill 30
 *   npm run simulate -w @wildtrack/simulator -- --server http://localhost:8080 --devices devices.json --live
 *
 * devices.json: [{ "imei": "...", "secret": "...", "profile": "stork", "seed": 123 }] (seed optional:
 * derived from the IMEI). Relative paths are taken from the directory npm was started in.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DeviceType, type IngestAnswer } from '@wildtrack/contract';
import { IngestClient, IngestRefused } from './client.js';
import { type DeviceEntry, LiveDevice, type Relay } from './live.js';

/** How far a receiver station, and a ranger's phone, hear a tag. */
const RELAY_RANGE_KM = { station: 15, phone: 2 };
import { backfill, countRecords, DAY, defaultSettings, getProfile, ownFleet, PROFILE_IDS, registerArgs, seedFrom } from '@wildtrack/sample-fleet';

const USAGE = `wildtrack simulator
  --server URL          ingest server (default http://localhost:8080)
  --devices FILE        JSON list of {imei, secret, profile, seed?}; profiles: ${PROFILE_IDS.join(', ')}
  --backfill DAYS       send DAYS of history up to now, then exit
  --live                send as the devices take records, until stopped (Ctrl-C); obeys instructions
                        (applies or refuses each, acks it, reports the device's work status)
  --no-outages          live: never out of coverage (by default each device has outages drawn from
                        its seed, during which it sends nothing and fetches no instruction)
  --every SECONDS       live: how often devices wake up (default 5)
  --for SECONDS         live: stop after this long
  --batch N             records per request, at most 1000 (default 1000)
  --no-media            skip photos, audio and video
  --register ORG        create ORG if needed, register one device per profile in it with the server's
                        "register-device" (run with the server's WILDTRACK_DATA) and write --devices;
                        IMEIs are derived from ORG, apart from the server's own sample devices
  --profiles LIST       with --register: which profiles (default all: ${PROFILE_IDS.join(',')})`;

const { values: args } = parseArgs({
  options: {
    server: { type: 'string', default: 'http://localhost:8080' },
    devices: { type: 'string' },
    backfill: { type: 'string' },
    live: { type: 'boolean', default: false },
    every: { type: 'string', default: '5' },
    for: { type: 'string' },
    batch: { type: 'string', default: '1000' },
    'no-media': { type: 'boolean', default: false },
    'no-outages': { type: 'boolean', default: false },
    register: { type: 'string' },
    profiles: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const here = process.env.INIT_CWD ?? process.cwd();
const stamp = () => new Date().toISOString().slice(11, 19);
const log = (msg: string) => console.log(`[${stamp()}] ${msg}`);

function fail(msg: string): never {
  console.error(`${msg}\n\n${USAGE}`);
  process.exit(2);
}

function loadDevices(file: string): DeviceEntry[] {
  const list = JSON.parse(readFileSync(resolve(here, file), 'utf8')) as unknown;
  if (!Array.isArray(list) || list.length === 0) fail(`${file}: expected a non-empty JSON list`);
  return list.map((d: DeviceEntry, i) => {
    if (typeof d?.imei !== 'string' || typeof d.secret !== 'string' || typeof d.profile !== 'string') fail(`${file}[${i}]: needs imei, secret and profile`);
    getProfile(d.profile);
    return d;
  });
}

const seedOf = (d: DeviceEntry) => d.seed ?? seedFrom(d.imei);
const label = (d: DeviceEntry) => `${d.profile.padEnd(6)} ${d.imei}`;

function register(org: string, file: string, profiles: string[]): void {
  const root = resolve(import.meta.dirname, '../../..');
  const server = (cliArgs: string[]) => spawnSync('node', ['apps/server/dist/cli.js', ...cliArgs], { cwd: root, encoding: 'utf8' });
  const org0 = server(['create-org', '--name', org]);
  if (org0.status === 0) log(org0.stdout.trim());
  const out: DeviceEntry[] = [];
  for (const d of ownFleet(org, profiles)) {
    const r = server(registerArgs(d.profile, org, d.imei, d.caption));
    const line = r.stdout.trim().split('\n').reverse().find((l) => l.trim().startsWith('{'));
    if (r.status !== 0 || !line) fail(`register-device failed for ${d.imei}: ${(r.stderr || r.stdout).trim()}`);
    const { imei, secret } = JSON.parse(line) as { imei: string; secret: string };
    out.push({ imei, secret, profile: d.profile.id, seed: d.seed });
    log(`registered ${d.profile.id} ${imei} (${d.profile.model})`);
  }
  writeFileSync(resolve(here, file), `${JSON.stringify(out, null, 2)}\n`);
  log(`wrote ${resolve(here, file)}`);
}

function clientFor(d: DeviceEntry): IngestClient {
  return new IngestClient(args.server!, d, { onRetry: (what, n, err) => log(`${label(d)} retry ${n} of ${what}: ${err}`) });
}

async function runBackfill(devices: DeviceEntry[], days: number, max: number): Promise<void> {
  const end = Date.now();
  const start = end - days * DAY;
  const t0 = performance.now();
  let all = 0;
  let allMedia = 0;
  await Promise.all(
    devices.map(async (d) => {
      const client = clientFor(d);
      const c = { fixes: 0, sensors: 0, bursts: 0, media: 0, field: 0, duplicates: 0, requests: 0 };
      const pending = new Set<number>();
      const note = (a: IngestAnswer) => {
        c.fixes += a.accepted.fixes;
        c.sensors += a.accepted.sensors;
        c.bursts += a.accepted.bursts;
        c.media += a.accepted.media;
        c.field += (a.accepted.pois ?? 0) + (a.accepted.behaviors ?? 0);
        c.duplicates += a.duplicates;
        c.requests++;
        a.instructions.forEach((i) => pending.add(i.id));
      };
      for (const { batch, media } of backfill(getProfile(d.profile), { seed: seedOf(d), start, end, maxRecords: max })) {
        try {
          if (countRecords(batch) > 0) note(await client.sendBatch(batch));
          if (!args['no-media']) for (const m of media) note(await client.sendMedia(m));
        } catch (e) {
          if (!(e instanceof IngestRefused)) throw e;
          log(`${label(d)} refused: ${e.message}`);
        }
      }
      // The device's own work status (its defaults: backfill applies no instruction), as a live device reports it.
      try {
        note(await client.sendBatch({ workStatus: { at: start, settings: defaultSettings(getProfile(d.profile)) } }));
      } catch (e) {
        if (!(e instanceof IngestRefused)) throw e;
        log(`${label(d)} work status refused: ${e.message}`);
      }
      const n = c.fixes + c.sensors + c.bursts + c.field;
      all += n + c.duplicates;
      allMedia += c.media;
      log(
        `${label(d)} ${c.fixes} fixes, ${c.sensors} sensor records, ${c.bursts} bursts, ${c.media} media, ${c.field ? `${c.field} field records, ` : ''}${c.duplicates} duplicates in ${c.requests} requests` +
          (pending.size ? `; ${pending.size} instruction(s) pending (run --live to apply)` : ''),
      );
    }),
  );
  const s = (performance.now() - t0) / 1000;
  log(`backfilled ${days} days of ${devices.length} devices: ${all} records and ${allMedia} media in ${s.toFixed(1)} s (${Math.round(all / s)} records/s)`);
}

async function runLive(devices: DeviceEntry[], everyS: number, forS: number | undefined, max: number): Promise<void> {
  const now = Date.now();
  // The receiver stations and phones of the run carry the batches of tags out of coverage within range.
  const relays: Relay[] = [];
  const live = devices.map(
    (entry) =>
      new LiveDevice(entry, args.server!, now, {
        relays,
        maxRecords: max,
        media: !args['no-media'],
        coverage: !args['no-outages'],
        log,
        client: { onRetry: (what, n, err) => log(`${label(entry)} retry ${n} of ${what}: ${err}`) },
      }),
  );
  for (const d of live) {
    const type = d.sim.profile.type;
    if (type === DeviceType.VHFReceiver || type === DeviceType.Phone) relays.push({ imei: d.entry.imei, position: () => d.sim.position, rangeKm: type === DeviceType.VHFReceiver ? RELAY_RANGE_KM.station : RELAY_RANGE_KM.phone });
  }
  let stop = false;
  process.on('SIGINT', () => {
    if (stop) process.exit(130);
    stop = true;
    log('stopping (Ctrl-C again to quit at once)');
  });
  log(`live: ${devices.length} devices, waking every ${everyS} s${forS ? ` for ${forS} s` : ''}; records come as the devices take them (a fix every few minutes)`);
  for (const d of live) log(`${d.label} fixes ${d.sim.schedule.describe.fix}, upload ${d.sim.schedule.describe.postback}, acc ${d.sim.schedule.describe.acc}`);
  const until = forS ? now + forS * 1000 : Infinity;
  while (!stop && Date.now() < until) {
    await Promise.all(
      live.map(async (d) => {
        try {
          await d.wake(Date.now());
        } catch (e) {
          log(`${d.label} error: ${(e as Error).message}`);
        }
      }),
    );
    await new Promise((r) => setTimeout(r, everyS * 1000));
  }
  log('stopped');
}

async function main(): Promise<void> {
  if (args.help) {
    console.log(USAGE);
    return;
  }
  if (args.register !== undefined) {
    if (!args.devices) fail('--register needs --devices FILE to write');
    register(args.register, args.devices, (args.profiles ?? PROFILE_IDS.join(',')).split(',').map((p) => p.trim()).filter(Boolean));
    return;
  }
  if (!args.devices) fail('--devices FILE is required');
  const devices = loadDevices(args.devices);
  const max = Number(args.batch);
  if (!Number.isInteger(max) || max < 1 || max > 1000) fail('--batch must be 1..1000');
  if (args.backfill !== undefined) {
    const days = Number(args.backfill);
    if (!(days > 0 && days <= 3650)) fail('--backfill DAYS must be a number of days, 0 < DAYS <= 3650');
    await runBackfill(devices, days, max);
  } else if (args.live) {
    const every = Number(args.every);
    if (!(every >= 0.5)) fail('--every must be at least 0.5 seconds');
    await runLive(devices, every, args.for ? Number(args.for) : undefined, max);
  } else fail('choose --backfill DAYS or --live');
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
