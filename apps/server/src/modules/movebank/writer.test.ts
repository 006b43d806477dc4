import { SensorFlag } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import type { BurstRow, DecodedBatch, FixRow } from '../../ingest/decode.js';
import { ChunkWriter, importBatch, type RecordSink } from './writer.js';

const fix = (t: number, voltage: number | null = null): FixRow => ({
  pick_time: t, lon: 1, lat: 2, alt: null, speed: null, course: null, temperature: null, activity: null, voltage, channel: null,
  satellites: null, hdop: null, vdop: null, grade: null, valid: 1, tx_time: null, invalid_at: null, extra: null,
});
const burst = (t: number, samples: number): BurstRow =>
  ({ start_time: t, hz: 10, axes: 'XYZ', sample_count: samples, samples: new Uint8Array(), odba: new Uint8Array(), mean_odba: null, calibration: null, extra: null }) as unknown as BurstRow;

/** Records each write; every record is stored except those at times listed as stored before. */
function sink(storedBefore: Set<number> = new Set()) {
  const writes: { deviceId: number; batch: DecodedBatch }[] = [];
  const s: RecordSink = {
    async writeDecoded(deviceId, batch) {
      writes.push({ deviceId, batch });
      const fixes = batch.fixes.filter((f) => !storedBefore.has(f.pick_time)).length;
      const bursts = batch.bursts.filter((b) => !storedBefore.has(b.start_time)).length;
      return { fixes, sensors: 0, bursts, duplicates: batch.fixes.length + batch.bursts.length - fixes - bursts };
    },
  };
  return { s, writes };
}

describe('importBatch', () => {
  it("takes the device's last time from the latest record and the last voltage from the latest fix that has one", () => {
    const b = importBatch([fix(30, 3.6), fix(10, 3.9), fix(40)], []);
    expect([b.lastTime, b.lastVoltage]).toEqual([40, 3.6]);
    expect(importBatch([], [burst(50, 1), burst(20, 1)]).lastTime).toBe(50);
    expect(importBatch([], [])).toEqual({ fixes: [], sensors: [], bursts: [], lastTime: null, lastVoltage: null, history: true });
  });
});

describe('ChunkWriter', () => {
  it('writes once the chunk is full, fixes and bursts apart, and counts what was stored and what was there', async () => {
    const { s, writes } = sink(new Set([2]));
    const w = new ChunkWriter(s, 0, 3);
    await w.fix(1, fix(1));
    await w.burst(2, burst(5, 4));
    expect(writes).toHaveLength(0);
    await w.fix(1, fix(2));
    expect(writes.map((x) => [x.deviceId, x.batch.fixes.length, x.batch.bursts.length])).toEqual([[1, 2, 0], [2, 0, 1]]);
    await w.fix(2, fix(3));
    await w.flush();
    await w.flush();
    expect(writes).toHaveLength(3);
    expect(w.counts).toEqual({ fixes: { stored: 2, duplicates: 1 }, marks: { marked: 0, unmarked: 0 }, bursts: { stored: 1, samples: 4, duplicates: 0 } });
    expect(w.sensors()).toEqual(new Map([[1, SensorFlag.GNSS], [2, SensorFlag.Acceleration | SensorFlag.GNSS]]));
  });

  it("hands each device's marks to the mark store once its fixes are written, and adds up what changed", async () => {
    const { s, writes } = sink();
    const applied: { deviceId: number; marks: unknown[]; at: number }[] = [];
    const w = new ChunkWriter(s, 77, 10, 100, {
      async apply(deviceId, marks, now) {
        applied.push({ deviceId, marks: [...marks], at: writes.length });
        expect(now).toBe(77);
        return { marked: marks.filter((m) => m.reason !== null).length, unmarked: 1 };
      },
    });
    await w.fix(1, fix(1), { reason: 'visible=false', valid: 1 });
    await w.fix(1, fix(2), { reason: null, valid: 1 });
    await w.fix(2, fix(3));
    await w.flush();
    expect(applied).toEqual([{ deviceId: 1, marks: [{ t: 1, reason: 'visible=false', valid: 1 }, { t: 2, reason: null, valid: 1 }], at: 1 }]);
    expect(w.counts.marks).toEqual({ marked: 1, unmarked: 1 });
    await w.flush();
    expect(applied).toHaveLength(1);
  });

  it('writes early when the buffered bursts hold too many samples', async () => {
    const { s, writes } = sink();
    const w = new ChunkWriter(s, 0, 100, 50);
    await w.burst(1, burst(1, 10));
    expect(writes).toHaveLength(0);
    await w.burst(1, burst(2, 10));
    expect(writes).toHaveLength(1);
    expect(writes[0]!.batch.bursts).toHaveLength(2);
  });
});
