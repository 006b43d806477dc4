import { DeviceStatus, type Lang } from '@wildtrack/contract';
import { backfill, mediaQuery, sampleFleet } from '@wildtrack/sample-fleet';
import type { IngestService } from '../../ingest/service.js';
import { mountDoc } from './mount.js';
import type { DeviceRepository } from './repository.js';
import type { DeviceRegistry } from './registry.js';

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
  { now = Date.now(), days = SAMPLE_DAYS, asOf }: { now?: number; days?: number; asOf?: number | undefined } = {},
): Promise<SampleReport | null> {
  if ((await repo.samplesOrg()) !== undefined) return null;
  const started = performance.now();
  const orgId = await repo.createOrg(SAMPLES_ORG, true, now);
  const report: SampleReport = { devices: 0, fixes: 0, sensors: 0, bursts: 0, media: 0, ms: 0 };
  // Simulated as of `asOf` (a UTC day; the same time of day as now) and shifted by whole days to end now.
  const shift = asOf === undefined ? 0 : Math.floor((now - asOf) / DAY_MS) * DAY_MS;
  const end = now - shift;
  const start = end - days * DAY_MS;
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
    report.devices += 1;
    for (const { batch, media } of backfill(p, { seed: d.seed, start, end, shift })) {
      const c = await ingest.writeBatch(id, batch, null, now);
      report.fixes += c.fixes;
      report.sensors += c.sensors;
      report.bursts += c.bursts;
      for (const m of media) {
        if (await ingest.storeMedia(id, mediaQuery(m), Buffer.from(m.body), m.contentType, null, now)) report.media += 1;
      }
    }
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}
