import { commWindowMs, DeviceStatus, type InstructionFailureReason, type InstructionParams, type Lang } from '@wildtrack/contract';
import { backfill, createDevice, defaultSettings, type FleetDevice, type InstructionOutcome, mediaQuery, type Profile, sampleFleet } from '@wildtrack/sample-fleet';
import type { IngestService } from '../../ingest/service.js';
import { mountDoc } from './mount.js';
import type { DeviceRepository } from './repository.js';
import type { DeviceRegistry } from './registry.js';
import type { WorkStatusDoc } from './work-status.js';
import { now as clockNow } from '../../lib/clock.js';

export const SAMPLES_ORG = 'Wildtrack samples';
export const SAMPLE_DAYS = 30;
const DAY_MS = 24 * 3600_000;
/** The custom field that carries the Chinese name of a sample animal. */
const SPECIES_ZH = '中文名';

/** The sample devices' Chinese names by IMEI (the database keeps the English caption, the fleet both). */
const CAPTIONS_ZH: ReadonlyMap<string, string> = new Map(sampleFleet().map((d) => [d.imei, d.captionZh]));

/**
 * The name of a device in the caller's language: a sample device is named in Chinese for a Chinese
 * caller; every other device has the one name its owner gave it.
 */
export function captionFor(imei: string, caption: string, example: boolean, lang: Lang): string {
  return example && lang === 'zh' ? (CAPTIONS_ZH.get(imei) ?? caption) : caption;
}

export interface SampleReport {
  devices: number;
  fixes: number;
  sensors: number;
  bursts: number;
  media: number;
  ms: number;
}

/**
 * The experience devices (§1, folder IdStr '0'): on the first start, the sample-fleet generator's devices with
 * 30 days of history across every sensor kind, owned by an organisation of their own. Later starts
 * find the organisation and do nothing. The data goes through the same write path as device batches.
 */
export async function ensureSampleDevices(
  repo: DeviceRepository,
  devices: DeviceRegistry,
  ingest: IngestService,
  {
    now = clockNow(),
    days = SAMPLE_DAYS,
    asOf,
    history,
  }: { now?: number; days?: number; asOf?: number | undefined; history?: (entries: SampleInstruction[]) => Promise<void> } = {},
): Promise<SampleReport | null> {
  if ((await repo.samplesOrg()) !== undefined) return null;
  const started = performance.now();
  const orgId = await repo.createOrg(SAMPLES_ORG, true, now);
  const report: SampleReport = { devices: 0, fixes: 0, sensors: 0, bursts: 0, media: 0, ms: 0 };
  // Simulated as of `asOf` (a UTC day; the same time of day as now) and shifted by whole days to end now.
  const shift = asOf === undefined ? 0 : Math.floor((now - asOf) / DAY_MS) * DAY_MS;
  const end = now - shift;
  const start = end - days * DAY_MS;
  const made: { id: number; profile: Profile }[] = [];
  const entries: SampleInstruction[] = [];
  for (const d of sampleFleet()) {
    const p = d.profile;
    const { id } = await devices.register({
      orgId,
      imei: d.imei,
      type: p.type,
      model: p.model,
      caption: d.caption,
      sensors: p.sensors,
      instrSupport: p.instrSupport,
      speciesType: p.speciesType,
      batteryType: p.batteryType,
      status: DeviceStatus.Working,
      example: true,
      secondLevelFix: p.secondLevelFix,
      attributes: { captionZh: d.captionZh, species: p.species, speciesZh: p.speciesZh, scientificName: p.scientificName },
    });
    await repo.setMountInfo(id, JSON.stringify(mountDoc({ species: p.species, scientificName: p.scientificName, mountTime: start + shift, additional: { [SPECIES_ZH]: p.speciesZh } })), now);
    // the schedule the simulated tag runs (its profile's fix interval, real-time upload), as reported when mounted
    await repo.setWorkStatus(id, JSON.stringify(sampleWorkStatus(p)), start + shift);
    report.devices += 1;
    made.push({ id, profile: p });
    const plan = sampleInstructionPlan(d, made.length - 1, start, end);
    const outcomes: InstructionOutcome[] = [];
    const instructions = plan.map((x) => ({ sentAt: x.sentAt, instruction: { type: x.params.Type, params: x.params } }));
    const fill = backfill(p, { seed: d.seed, start, end, shift, instructions, commWindowMs: commWindowMs(defaultSettings(p)), onInstruction: (o) => outcomes.push(o) });
    for (const { batch, media } of fill) {
      const c = await ingest.writeBatch(id, batch, null, now);
      report.fixes += c.fixes;
      report.sensors += c.sensors;
      report.bursts += c.bursts;
      for (const m of media) {
        if (await ingest.storeMedia(id, mediaQuery(m), Buffer.from(m.body), m.contentType, null, now)) report.media += 1;
      }
    }
    for (const o of outcomes) {
      const x = plan[o.index]!;
      entries.push({ deviceId: id, params: x.params, status: o.status, sendTime: x.sentAt + shift, executeTime: o.executeTime, error: o.status === 'FAILED' ? (o.message ?? '') : null, ...(o.status === 'FAILED' && o.reason ? { reason: o.reason } : {}) });
    }
  }
  if (history) await history(entries);
  report.ms = Math.round(performance.now() - started);
  return report;
}

/** A sample device's work status as the simulated tag reports it when mounted (sample-fleet's defaults). */
export function sampleWorkStatus(p: Profile): WorkStatusDoc {
  return defaultSettings(p);
}

/** A finished instruction of the sample devices' history (stored by the instruction module). */
export interface SampleInstruction {
  deviceId: number;
  params: InstructionParams;
  status: 'SENT' | 'SUCCESSFUL' | 'FAILED' | 'COMM_ERROR';
  sendTime: number;
  /** When the tag answered (null when it never fetched it). */
  executeTime: number | null;
  error: string | null;
  /** Why the tag refused it (FAILED), of the contract's INSTRUCTION_FAILURE_REASONS. */
  reason?: InstructionFailureReason;
}

/**
 * The instructions sent to the sample devices over their simulated month, so that /instr and the details
 * show a history on a fresh start; what becomes of each is the simulated tag's own answer in the backfill
 * (sample-fleet backfill `instructions`), not made up here. Planned on a probe of the tag (same seed):
 * on the stork a fix interval under its shortest (the tag refuses it: FAILED with its message) and its own
 * postback schedule sent again (SUCCESSFUL), on the deer the same, on the seal a postback change sent while
 * it is out of coverage for longer than the server waits (COMM_ERROR) and later its own schedule again.
 * The backfill's COMM_ERROR window is the server's rule for the device (commWindowMs).
 */
export function sampleInstructionPlan(d: FleetDevice, index: number, start: number, end: number): { sentAt: number; params: InstructionParams }[] {
  if (index > 2) return [];
  const p = d.profile;
  const probe = createDevice(p, { seed: d.seed, start });
  const window = commWindowMs(defaultSettings(p));
  const STEP = 10 * 60_000;
  /**
   * The first 10-minute mark from `from` on where the tag's coverage is `covered` for the whole window, less
   * 3 minutes: sent then, the tag's next contact (a 10-minute mark) is that mark.
   */
  const find = (from: number, covered: boolean): number | null => {
    for (let t = Math.ceil(from / STEP) * STEP; t + window < end; t += STEP) {
      let ok = true;
      for (let u = t; u <= t + window && ok; u += STEP) ok = probe.covered(u) === covered;
      if (ok) return t - 3 * 60_000;
    }
    return null;
  };
  const ws = defaultSettings(p);
  const own: InstructionParams = { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'DATA_CNT', PacketCount: ws.PacketCount ?? 1, PacketSize: ws.PacketSize ?? 512, Realtime: ws.Realtime } };
  const at = (fraction: number) => start + fraction * (end - start);
  const plan: { sentAt: number | null; params: InstructionParams }[] =
    index === 0
      ? [
          { sentAt: find(at(0.35), true), params: { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 1 } } },
          { sentAt: find(at(0.55), true), params: own },
        ]
      : index === 1
        ? [{ sentAt: find(at(0.45), true), params: own }]
        : [
            // (a span without such an outage: sent at its end, still SENT, and the server's job gives it up)
            { sentAt: find(at(0.2), false) ?? end, params: { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'DATA_CNT', PacketCount: 20, PacketSize: ws.PacketSize ?? 512, Realtime: false } } },
            { sentAt: find(at(0.65), true), params: own },
          ];
  return plan.flatMap((x) => (x.sentAt === null ? [] : [{ sentAt: x.sentAt, params: x.params }]));
}
