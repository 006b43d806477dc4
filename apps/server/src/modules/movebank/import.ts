import type { DeviceRegistry } from '../device/registry.js';
import { readReference } from './reference.js';
import { MovebankReader, type RowExample, Skips } from './reader.js';
import { RecordMapper } from './records.js';
import { DeviceResolver, type MovebankDeviceStore } from './resolver.js';
import { ChunkWriter, type MarkSink, type RecordSink } from './writer.js';
import { now as clockNow } from '../../lib/clock.js';

export interface MovebankServices {
  devices: Pick<DeviceRegistry, 'register'>;
  ingest: RecordSink;
  /** The source's marks on stored fixes (set and lifted by a re-import). */
  marks: MarkSink;
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
  /**
   * Called every PROGRESS_ROWS rows (and once at the end of reading) with what was read and stored so
   * far; awaited, so a caller may write it down. The console's import job feeds its progress bar from it.
   */
  onRead?: ((p: ImportProgress) => Promise<void> | void) | undefined;
  /** Aborting stops the import after the row being read: what was read is stored, the report says `cancelled`. */
  signal?: AbortSignal | undefined;
  /** Import time: the time of the invalid marks the source made. */
  now?: number;
}

/** Rows between two onRead calls. */
export const PROGRESS_ROWS = 500;

export interface ImportProgress {
  rows: number;
  /** Bytes of the file read so far, and the file's size. */
  bytes: number;
  size: number;
  /** Fixes and bursts stored so far. */
  stored: number;
  seconds: number;
}

/**
 * What an import did. `stored` and `duplicates` are what the database did (a re-import stores nothing
 * and counts everything as a duplicate); the other counts describe the file.
 */
export interface MovebankImportReport {
  file: string;
  /** The file's delimiter when it isn't Movebank's comma (a spreadsheet re-saved it). */
  delimiter?: ';' | '\t';
  rows: number;
  devices: { created: number; reused: number };
  /**
   * `markedInvalid` and `outOfRange` count the file's fixes the source marked and those with a position
   * out of range; `marks` what the import changed: fixes it marked and fixes whose source mark it lifted
   * (the file no longer marks them). A user's mark is never changed.
   */
  fixes: {
    stored: number;
    withoutPosition: number;
    markedInvalid: number;
    outOfRange: number;
    duplicates: number;
    marks: { marked: number; unmarked: number };
  };
  bursts: { stored: number; samples: number; duplicates: number };
  /** Rows left out, by reason, each with its first few rows (line, event-id, the value at fault). */
  skipped: ReportLine[];
  /** Rows stored with something to know (position out of range, a field too many), likewise. */
  notices: ReportLine[];
  seconds: number;
  /** Stopped by its signal: the rows read before are stored, the rest of the file (and staged samples) is not. */
  cancelled?: true;
}

export interface ReportLine {
  reason: string;
  count: number;
  examples: RowExample[];
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
  const now = opts.now ?? clockNow();
  const skipped = new Skips();
  const reader = new MovebankReader(opts.file, skipped, opts.onProgress, started);
  const reference = opts.referenceFile ? await readReference(opts.referenceFile) : undefined;
  const resolver = new DeviceResolver(services.devices, services.tags, { orgId: opts.orgId, folderId: opts.folderId, reference, now, columns: () => reader.layout?.sourceColumns });
  const writer = new ChunkWriter(services.ingest, now, undefined, undefined, services.marks);
  let mapper: RecordMapper | undefined;
  let cancelled = false;
  const progress = async () => {
    const { fixes, bursts } = writer.counts;
    await opts.onRead?.({ rows: reader.rows, bytes: reader.bytesRead, size: reader.size, stored: fixes.stored + bursts.stored, seconds: (performance.now() - started) / 1000 });
  };
  try {
    let nextProgress = PROGRESS_ROWS;
    for await (const row of reader.read()) {
      if (reader.rows >= nextProgress) {
        nextProgress = reader.rows + PROGRESS_ROWS;
        await progress();
      }
      if (opts.signal?.aborted) {
        cancelled = true;
        break;
      }
      const d = await resolver.resolve(row.tag, row.individual, row.study, row.taxon, row.kind === 'acceleration' ? 'Acceleration' : 'GNSS');
      if ('refused' in d) {
        skipped.add(d.refused, { line: row.line, ...(row.eventId ? { eventId: row.eventId } : {}) });
        continue;
      }
      mapper ??= new RecordMapper(reader.layout!, writer, skipped, reader.notices, (id) => resolver.isNew(id));
      await mapper.row(row, d);
    }
    await writer.flush();
    if (mapper && !cancelled) {
      await mapper.stagedBursts(resolver.resolved);
      await writer.flush();
    }
    await progress();
    for (const [id, mask] of writer.sensors()) await services.tags.addSensors(id, mask);
    // A device whose history ends longer ago than its schedule allows is archived, not "working, silent for
    // years": the silence job and remote instructions then leave it alone (issue 28 item 1).
    for (const d of resolver.resolved) await services.tags.archiveIfPast(d.id, now);
  } finally {
    mapper?.close();
    reader.close();
  }
  reader.progress(true);
  const { fixes, bursts, marks } = writer.counts;
  const counts = mapper?.counts ?? { withoutPosition: 0, markedInvalid: 0, outOfRange: 0 };
  return {
    file: opts.file,
    ...(reader.delimiter === ',' ? {} : { delimiter: reader.delimiter }),
    rows: reader.rows,
    devices: resolver.counts,
    fixes: { stored: fixes.stored, ...counts, duplicates: fixes.duplicates, marks },
    bursts,
    skipped: skipped.list(),
    notices: reader.notices.list(),
    seconds: (performance.now() - started) / 1000,
    ...(cancelled ? { cancelled: true as const } : {}),
  };
}

/**
 * How the CLI ends an import: 0 when every row was stored (or was there before); 1 when nothing of the
 * file is in the database, or when rows were skipped and the operator did not accept that
 * (`allowSkips`). The message says why, for stderr.
 */
export function importOutcome(r: MovebankImportReport, allowSkips: boolean): { code: 0 | 1; message: string | null } {
  const skipped = r.skipped.reduce((n, s) => n + s.count, 0);
  const held = r.fixes.stored + r.fixes.duplicates + r.bursts.stored + r.bursts.duplicates;
  if (held === 0) return { code: 1, message: `nothing was imported from ${r.file}: ${skipped > 0 ? `all ${skipped.toLocaleString('en-US')} rows were skipped (see "skipped")` : 'it has no data rows'}` };
  if (skipped > 0 && !allowSkips) {
    return { code: 1, message: `${skipped.toLocaleString('en-US')} rows of ${r.file} were skipped (see "skipped"); the rest is stored. Run again with --allow-skips to accept them.` };
  }
  return { code: 0, message: null };
}
