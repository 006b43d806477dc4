/** What the process keeps of encoded bursts at most (a device's month of 20 Hz XYZ bursts is ~6 MB). */
export const SERIES_CACHE_BYTES = 96 * 1024 * 1024;

/** One hour of a device's bursts encoded (acceleration-codec.ts), with the print of the bursts it holds. */
export interface CachedHour {
  count: number;
  sum: number;
  bytes: Uint8Array;
  samples: number;
}

/**
 * The acceleration binary's hours kept encoded, by device and hour, least recently used dropped first
 * beyond `limit` bytes. An entry is used only while its print (count and sum of start times) is the
 * table's: bursts that arrive later for that hour make it stale, in this process or any other.
 */
export class SeriesCache {
  private readonly hours = new Map<string, CachedHour>();
  private bytes = 0;

  constructor(private readonly limit = SERIES_CACHE_BYTES) {}

  get(deviceId: number, hour: number, count: number, sum: number): CachedHour | undefined {
    const key = `${deviceId}:${hour}`;
    const hit = this.hours.get(key);
    if (!hit) return undefined;
    this.hours.delete(key);
    if (hit.count !== count || hit.sum !== sum) {
      this.bytes -= hit.bytes.byteLength;
      return undefined;
    }
    this.hours.set(key, hit);
    return hit;
  }

  /** Whether an hour is held (whatever its print). */
  has(deviceId: number, hour: number): boolean {
    return this.hours.has(`${deviceId}:${hour}`);
  }

  set(deviceId: number, hour: number, entry: CachedHour): void {
    const key = `${deviceId}:${hour}`;
    const old = this.hours.get(key);
    if (old) {
      this.hours.delete(key);
      this.bytes -= old.bytes.byteLength;
    }
    if (entry.bytes.byteLength > this.limit) return;
    this.hours.set(key, entry);
    this.bytes += entry.bytes.byteLength;
    for (const [k, v] of this.hours) {
      if (this.bytes <= this.limit) break;
      this.hours.delete(k);
      this.bytes -= v.bytes.byteLength;
    }
  }

  /** Bytes held (for tests and benchmarks). */
  get size(): number {
    return this.bytes;
  }
}
