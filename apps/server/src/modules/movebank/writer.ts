import { SensorFlag } from '@wildtrack/contract';
import type { BurstRow, DecodedBatch, FixRow } from '../../ingest/decode.js';
import type { IngestService } from '../../ingest/service.js';
import type { SourceMark, SourceMarkRepository } from './repository.js';

/** Records per write (one transaction each): bounds memory whatever the file's size. */
export const CHUNK = 5000;
/** Axis-samples buffered before a write, so that long bursts bound memory too. */
export const MAX_BUFFERED_SAMPLES = 1_000_000;

/** Where the chunks go: the device write path (one transaction per batch, duplicates skipped and counted). */
export type RecordSink = Pick<IngestService, 'writeDecoded'>;
/** Where the source's marks go once their fixes are stored (new or there before). */
export type MarkSink = Pick<SourceMarkRepository, 'apply'>;

export interface WrittenCounts {
  fixes: { stored: number; duplicates: number };
  /** Fixes whose source mark this import set or lifted (a user's mark is never changed). */
  marks: { marked: number; unmarked: number };
  bursts: { stored: number; samples: number; duplicates: number };
}

interface Pending {
  fixes: FixRow[];
  marks: SourceMark[];
  bursts: BurstRow[];
  /** Sensor flags the device's records showed. */
  sensors: number;
}

/** A batch of the import's records, with the device's last time and voltage taken from them. */
export function importBatch(fixes: FixRow[], bursts: BurstRow[]): DecodedBatch {
  let lastTime: number | null = null;
  let lastVoltage: number | null = null;
  for (const f of fixes) {
    if (lastTime === null || f.pick_time >= lastTime) {
      lastTime = f.pick_time;
      if (f.voltage !== null) lastVoltage = f.voltage;
    }
  }
  for (const b of bursts) if (lastTime === null || b.start_time > lastTime) lastTime = b.start_time;
  return { fixes, sensors: [], bursts, lastTime, lastVoltage, history: true };
}

/**
 * Buffers the import's records per device and writes them in chunks of at most CHUNK records (or
 * MAX_BUFFERED_SAMPLES axis-samples), fixes and bursts in separate writes so that their duplicates are
 * counted apart.
 */
export class ChunkWriter {
  readonly counts: WrittenCounts = { fixes: { stored: 0, duplicates: 0 }, marks: { marked: 0, unmarked: 0 }, bursts: { stored: 0, samples: 0, duplicates: 0 } };
  private readonly pending = new Map<number, Pending>();
  private buffered = 0;
  private bufferedSamples = 0;

  constructor(
    private readonly sink: RecordSink,
    private readonly now: number,
    private readonly chunk = CHUNK,
    private readonly maxSamples = MAX_BUFFERED_SAMPLES,
    private readonly marks?: MarkSink,
  ) {}

  private of(deviceId: number): Pending {
    let p = this.pending.get(deviceId);
    if (!p) this.pending.set(deviceId, (p = { fixes: [], marks: [], bursts: [], sensors: 0 }));
    return p;
  }

  /** A fix with the source's mark on it (`mark` null when the source doesn't mark it). */
  async fix(deviceId: number, f: FixRow, mark: { reason: string | null; valid: 0 | 1 } | null = null): Promise<void> {
    const p = this.of(deviceId);
    p.fixes.push(f);
    if (mark) p.marks.push({ t: f.pick_time, ...mark });
    p.sensors |= SensorFlag.GNSS;
    if (++this.buffered >= this.chunk) await this.flush();
  }

  async burst(deviceId: number, b: BurstRow): Promise<void> {
    const p = this.of(deviceId);
    p.bursts.push(b);
    p.sensors |= SensorFlag.Acceleration;
    this.counts.bursts.samples += b.sample_count;
    this.bufferedSamples += b.sample_count * b.axes.length;
    if (++this.buffered >= this.chunk || this.bufferedSamples >= this.maxSamples) await this.flush();
  }

  async flush(): Promise<void> {
    for (const [deviceId, p] of this.pending) {
      if (p.fixes.length > 0) {
        const c = await this.sink.writeDecoded(deviceId, importBatch(p.fixes, []), null, this.now);
        this.counts.fixes.stored += c.fixes;
        this.counts.fixes.duplicates += c.duplicates;
        p.fixes = [];
      }
      if (p.marks.length > 0 && this.marks) {
        const m = await this.marks.apply(deviceId, p.marks, this.now);
        this.counts.marks.marked += m.marked;
        this.counts.marks.unmarked += m.unmarked;
      }
      p.marks = [];
      if (p.bursts.length > 0) {
        const c = await this.sink.writeDecoded(deviceId, importBatch([], p.bursts), null, this.now);
        this.counts.bursts.stored += c.bursts;
        this.counts.bursts.duplicates += c.duplicates;
        p.bursts = [];
      }
    }
    this.buffered = 0;
    this.bufferedSamples = 0;
  }

  /** Sensor flags each device's records showed, by device id. */
  sensors(): Map<number, number> {
    return new Map([...this.pending].filter(([, p]) => p.sensors !== 0).map(([id, p]) => [id, p.sensors]));
  }
}
