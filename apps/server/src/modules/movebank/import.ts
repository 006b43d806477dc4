import type { DeviceRegistry } from '../device/registry.js';
import { readReference } from './reference.js';
import { MovebankReader, Skips } from './reader.js';
import { RecordMapper } from './records.js';
import { DeviceResolver, type MovebankDeviceStore } from './resolver.js';
import { ChunkWriter, type RecordSink } from './writer.js';

export interface MovebankServices {
  devices: Pick<DeviceRegistry, 'register'>;
  ingest: RecordSink;
  /** Device attributes, sensor flags and animal info the import keeps up to date. */
  tags: MovebankDeviceStore;
}

export interface MovebankImportOptions {
  file: string;
  orgId: number;
  /** Folder for the devices the import creates; devices that exist stay where they are. */
  folderId: number | null;
  /** Movebank reference data (tag / individual / deployment) for the same study. */
  referenceFile?: string | undefined;
  onProgress?: ((line: string) => void) | undefined;
  /** Import time: the time of the invalid marks the source made. */
  now?: number;
}

/**
 * What an import did. `stored` and `duplicates` are what the database did (a re-import stores nothing
 * and counts everything as a duplicate); the other counts describe the file.
 */
export interface MovebankImportReport {
  file: string;
  rows: number;
  devices: { created: number; reused: number };
  fixes: { stored: number; withoutPosition: number; markedInvalid: number; duplicates: number };
  bursts: { stored: number; samples: number; duplicates: number };
  skipped: { reason: string; count: number }[];
  seconds: number;
}

/**
 * Imports a Movebank CSV (the study's "download data" export): GPS rows become fixes, e-obs nested and
 * plain long-format acceleration become bursts, each tag on each individual a device in the folder.
 * The reader streams the file's rows, the resolver finds or creates each row's device, the mapper turns
 * rows into records and the writer stores them in chunks of at most CHUNK records, so memory stays
 * flat; records already stored are skipped, so importing a file twice stores it once.
 */
export async function importMovebank(services: MovebankServices, opts: MovebankImportOptions): Promise<MovebankImportReport> {
  const started = performance.now();
  const now = opts.now ?? Date.now();
  const skipped = new Skips();
  const reader = new MovebankReader(opts.file, skipped, opts.onProgress, started);
  const reference = opts.referenceFile ? await readReference(opts.referenceFile) : undefined;
  const resolver = new DeviceResolver(services.devices, services.tags, { orgId: opts.orgId, folderId: opts.folderId, reference, now });
  const writer = new ChunkWriter(services.ingest, now);
  let mapper: RecordMapper | undefined;
  try {
    for await (const row of reader.read()) {
      const d = await resolver.resolve(row.tag, row.individual, row.study, row.taxon, row.kind === 'acceleration' ? 'Acceleration' : 'GNSS');
      if ('refused' in d) {
        skipped.add(d.refused);
        continue;
      }
      mapper ??= new RecordMapper(reader.layout!, writer, skipped, now);
      await mapper.row(row, d);
    }
    await writer.flush();
    if (mapper) {
      await mapper.stagedBursts(resolver.resolved);
      await writer.flush();
    }
    for (const [id, mask] of writer.sensors()) await services.tags.addSensors(id, mask);
  } finally {
    mapper?.close();
    reader.close();
  }
  reader.progress(true);
  const { fixes, bursts } = writer.counts;
  return {
    file: opts.file,
    rows: reader.rows,
    devices: resolver.counts,
    fixes: { stored: fixes.stored, withoutPosition: mapper?.counts.withoutPosition ?? 0, markedInvalid: mapper?.counts.markedInvalid ?? 0, duplicates: fixes.duplicates },
    bursts,
    skipped: skipped.list(),
    seconds: (performance.now() - started) / 1000,
  };
}
