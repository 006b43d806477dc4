import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createDevice, type DeviceSimulator, mediaQuery, sampleFleet, splitBatch } from '@wildtrack/sample-fleet';
import type { IngestService } from '../../ingest/service.js';
import type { LiveSamplesRepository } from './samples-live-repository.js';
import { SAMPLE_DAYS } from './samples.js';

const DAY_MS = 24 * 3600_000;
/** How far one step of a catch-up simulates (a month's gap is filled in 6-hour steps, as the first start's history). */
const CATCH_UP_STEP_MS = 6 * 3600_000;
/** Records per batch written at most (the first start's history uses the same). */
const MAX_RECORDS = 5000;
export const LIVE_SAMPLES_LEASE = 'live sample fleet';

export interface LiveTick {
  /** False when another server process holds the fleet (it appends; this one does nothing). */
  held: boolean;
  fixes: number;
  sensors: number;
  bursts: number;
  media: number;
}

/**
 * The live sample fleet (issue 15 item 6): while the server runs, the experience devices keep living. Each
 * sample device is the sample-fleet generator's simulated tag again (its profile and seed), started where
 * the device's records end (at most SAMPLE_DAYS back), and every tick it takes its records up to now at
 * the profile's own schedule (the stork a fix every 10 minutes, a collar every hour) and uploads them
 * through the ingest write path, as a real device's batches: fences, events and live messages see them.
 * The first tick fills the gap since the last sample record (a server stopped for a month catches up a
 * month, no more). Only the process holding the lease appends when several share one database; a process
 * that takes the lease over starts its tags again from the stored records.
 */
export class LiveSampleFleet {
  private readonly holder = `${hostname()}:${process.pid}:${randomUUID()}`;
  private sims: Map<number, DeviceSimulator> | null = null;

  constructor(
    private readonly repo: LiveSamplesRepository,
    private readonly ingest: IngestService,
    private readonly leaseMs: number,
  ) {}

  async tick(now: number): Promise<LiveTick> {
    const out: LiveTick = { held: false, fixes: 0, sensors: 0, bursts: 0, media: 0 };
    if (!(await this.repo.claim(LIVE_SAMPLES_LEASE, this.holder, now, this.leaseMs))) {
      this.sims = null;
      return out;
    }
    out.held = true;
    this.sims ??= await this.start(now);
    // The tags' clocks move in whole minutes: up to the minute `now` is in.
    const until = Math.floor(now / 60_000) * 60_000;
    const started = performance.now();
    let first = true;
    for (const [id, sim] of this.sims) {
      // A long catch-up (a month for each tag) renews the lease before each tag, by the time it has taken,
      // so that no other process takes the fleet over meanwhile; one that did (this one stalled) keeps it.
      if (!first && !(await this.repo.claim(LIVE_SAMPLES_LEASE, this.holder, now + (performance.now() - started), this.leaseMs))) {
        this.sims = null;
        return out;
      }
      first = false;
      while (sim.clock < until) {
        const before = sim.clock;
        const { batch, media } = sim.advance(Math.min(until, sim.clock + CATCH_UP_STEP_MS));
        if (sim.clock <= before) break;
        for (const part of splitBatch(batch, MAX_RECORDS)) {
          const c = await this.ingest.writeBatch(id, part, null, now);
          out.fixes += c.fixes;
          out.sensors += c.sensors;
          out.bursts += c.bursts;
        }
        for (const m of media) if (await this.ingest.storeMedia(id, mediaQuery(m), Buffer.from(m.body), m.contentType, null, now)) out.media += 1;
      }
    }
    return out;
  }

  /** Lets another process take the fleet over at once (the server stops). */
  async stop(): Promise<void> {
    if (this.sims !== null) await this.repo.release(LIVE_SAMPLES_LEASE, this.holder);
    this.sims = null;
  }

  /** Each sample device's simulated tag, from where its records end (at most SAMPLE_DAYS before now). */
  private async start(now: number): Promise<Map<number, DeviceSimulator>> {
    const fleet = new Map(sampleFleet().map((d) => [d.imei, d]));
    const sims = new Map<number, DeviceSimulator>();
    for (const d of await this.repo.sampleDevices()) {
      const f = fleet.get(d.imei);
      if (!f) continue;
      const from = Math.max(now - SAMPLE_DAYS * DAY_MS, d.lastWork ?? 0);
      // The records of the minute it starts in are the stored ones' (a duplicate is skipped): start after it.
      sims.set(d.id, createDevice(f.profile, { seed: f.seed, start: from + 60_000 }));
    }
    return sims;
  }
}
