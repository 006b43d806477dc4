// bench/load's database: organisations, 50 users, 1,000 devices in folders and 10M fixes, written through
// the server's own write path (the ingest service's writeDecoded, as the Movebank import writes), so every
// derived row a real write keeps (days to rebuild, last work, data bounds) is there as in production.
// Built once per dialect and kept: a marker row names the parameters it was built with.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { DeviceType, SpeciesType } from '@wildtrack/contract';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest, type Db } from '../../apps/server/src/db/connect.js';
import { buildApp } from '../../apps/server/src/app.js';
import { DeviceRepository } from '../../apps/server/src/modules/device/repository.js';
import { importBatch } from '../../apps/server/src/modules/movebank/writer.js';
import type { FixRow } from '../../apps/server/src/ingest/decode.js';
import { random } from '../random.js';

export interface LoadParams {
  orgs: number;
  usersPerOrg: number;
  devices: number;
  fixesPerDevice: number;
  /** Minutes between two fixes of a device. */
  stepMin: number;
}

export const PASSWORD = 'Load-Bench-2026';
export const userName = (org: number, user: number) => `load${org}u${user}`;
export const imeiOf = (device: number) => `LOAD${String(device).padStart(6, '0')}`;
/** Device d belongs to organisation d % orgs (users of that organisation see it). */
export const orgOfDevice = (device: number, orgs: number) => device % orgs;
export const orgName = (org: number) => `Load Study ${org}`;

/** Where the bench keeps its database: a data folder (SQLite file) and, on PostgreSQL, a schema. */
export interface Target {
  dataDir: string;
  databaseUrl: string | undefined;
  schema: string | undefined;
}

/** A device's fixes: a wandering animal (random walk with resting spells), one every stepMin, ending an hour ago. */
function fixesOf(device: number, p: LoadParams, end: number): FixRow[] {
  const rnd = random(device + 1);
  const step = p.stepMin * 60_000;
  const start = end - (p.fixesPerDevice - 1) * step;
  let lon = 100 + rnd() * 20;
  let lat = 25 + rnd() * 15;
  const rows: FixRow[] = [];
  for (let i = 0; i < p.fixesPerDevice; i++) {
    const moving = rnd() < 0.4;
    if (moving) {
      lon += (rnd() - 0.5) * 0.01;
      lat += (rnd() - 0.5) * 0.01;
    }
    const t = start + i * step;
    const sats = 4 + Math.floor(rnd() * 9);
    rows.push({
      pick_time: t,
      lon: +(lon + (rnd() - 0.5) * 0.0001).toFixed(7),
      lat: +(lat + (rnd() - 0.5) * 0.0001).toFixed(7),
      alt: +(50 + rnd() * 30).toFixed(1),
      speed: moving ? +(rnd() * 20).toFixed(1) : 0,
      course: Math.floor(rnd() * 360),
      temperature: +(15 + rnd() * 10).toFixed(1),
      activity: Math.floor(rnd() * 100),
      voltage: +(3.6 + rnd() * 0.5).toFixed(2),
      satellites: sats,
      hdop: +(0.7 + rnd() * 2).toFixed(1),
      vdop: +(1 + rnd() * 2).toFixed(1),
      grade: 1 + Math.min(6, Math.floor(rnd() * rnd() * 7)),
      channel: null,
      valid: 1,
      invalid_at: null,
      extra: null,
      tx_time: t + 30 * 60_000,
    });
  }
  return rows;
}

async function marker(database: Db): Promise<string | null> {
  try {
    const r = await sql<{ params: string }>`select params from bench_load_marker`.execute(database.db);
    return r.rows[0]?.params ?? null;
  } catch {
    return null;
  }
}

export async function openTarget(t: Target): Promise<Db> {
  fs.mkdirSync(t.dataDir, { recursive: true, mode: 0o700 });
  if (t.databaseUrl) {
    const admin = connect({ databaseUrl: t.databaseUrl });
    await sql`create schema if not exists ${sql.id(t.schema!)}`.execute(admin.db);
    await admin.close();
  }
  return connect({ databaseUrl: t.databaseUrl, pgSchema: t.schema, sqliteFile: path.join(t.dataDir, 'wildtrack.db') });
}

/** Builds the database unless it was built with the same parameters; answers how long it took (0 when kept). */
export async function seed(t: Target, p: LoadParams, log: (line: string) => void): Promise<number> {
  const wanted = JSON.stringify(p);
  let database = await openTarget(t);
  await migrateToLatest(database);
  if ((await marker(database)) === wanted) {
    await database.close();
    return 0;
  }
  // Start again from nothing: the SQLite file removed, or the PostgreSQL schema dropped.
  await database.close();
  if (t.databaseUrl) {
    const admin = connect({ databaseUrl: t.databaseUrl });
    await sql`drop schema if exists ${sql.id(t.schema!)} cascade`.execute(admin.db);
    await admin.close();
  } else {
    for (const f of fs.readdirSync(t.dataDir)) fs.rmSync(path.join(t.dataDir, f), { recursive: true, force: true });
  }
  database = await openTarget(t);
  await migrateToLatest(database);
  const started = performance.now();
  const config = loadConfig({ WILDTRACK_DATA: t.dataDir, LOG_LEVEL: 'warn', WILDTRACK_SAMPLES: 'false', WEB_DIST: path.join(t.dataDir, 'none') });
  const { app, services } = await buildApp(config, database);
  const folders = new DeviceRepository(database.db);
  const orgIds: number[] = [];
  for (let o = 0; o < p.orgs; o++) {
    for (let u = 0; u < p.usersPerOrg; u++) {
      await services.users.createUser({ orgName: orgName(o), userName: userName(o, u), password: PASSWORD, email: `${userName(o, u)}@example.org`, isPrimary: u === 0 });
    }
    orgIds.push((await services.devices.orgIdByName(orgName(o)))!);
  }
  const end = Math.floor(Date.now() / 60_000) * 60_000 - 3600_000;
  const now = Date.now();
  let written = 0;
  let lastLog = performance.now();
  for (let d = 0; d < p.devices; d++) {
    const org = orgOfDevice(d, p.orgs);
    const folderId = await folders.findOrCreateFolder(orgIds[org]!, `Site ${Math.floor(d / p.orgs) % 10}`, now);
    const { id } = await services.devices.register({
      orgId: orgIds[org]!,
      folderId,
      imei: imeiOf(d),
      type: DeviceType.Tracker,
      speciesType: d % 3 === 0 ? SpeciesType.Beast : SpeciesType.Bird,
      sensors: ['GNSS'],
      caption: `Animal ${d}`,
    });
    const rows = fixesOf(d, p, end);
    for (let i = 0; i < rows.length; i += 5000) {
      await services.ingest.writeDecoded(id, importBatch(rows.slice(i, i + 5000), []), null, now);
    }
    written += rows.length;
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(`  seeding: ${d + 1}/${p.devices} devices, ${written.toLocaleString('en-US')} fixes, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  // The segments the background job would build (stale days) are built now, as a server long in service has them.
  while ((await services.fixes.buildStaleSegments(200)) > 0) {
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(`  building track segments: ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  await sql`create table bench_load_marker (params text not null)`.execute(database.db);
  await sql`insert into bench_load_marker (params) values (${wanted})`.execute(database.db);
  if (!t.databaseUrl) await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
  // As a server long in service has them through autovacuum: statistics, and the visibility map that lets
  // counts and pages read the index alone.
  else await sql`vacuum (analyze)`.execute(database.db);
  await app.close();
  await database.close();
  return performance.now() - started;
}
