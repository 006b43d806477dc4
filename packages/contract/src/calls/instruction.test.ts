import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { applyInstruction, hoursFromUtc, hoursToUtc, InstructionParamsSchema, SendInstruction } from './instruction.js';
import type { WorkSettings } from './mount.js';

const BASE: WorkSettings = {
  GNSSCollectionMode: 0, NormalType: 'INTERVAL', CustomHours: [], IntervalMinutes: 60,
  HighFrequencyIntervals: { High: 10, Medium: 30, Low: 60 }, LowFrequencyHours: { High: [0], Medium: [0], Low: [0] },
  DataPostbackMode: 'HOUR', PostbackHours: [0, 12], Realtime: false, PacketCount: null, PacketSize: null,
  AccEnabled: true, AccFollowGNSS: false, AccFrequencyHz: 20, AccIntervalMinutes: 10,
};

describe('instruction params', () => {
  it('takes each form and refuses what the rules refuse', () => {
    expect(InstructionParamsSchema.safeParse({ Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 10 }, ACC: { Mode: 'INTERVAL', FrequencyHz: 25, IntervalMinutes: 10 } }).success).toBe(true);
    expect(InstructionParamsSchema.safeParse({ Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'HOUR', Hours: [0, 12], Realtime: true } }).success).toBe(true);
    const issue = (v: unknown) => InstructionParamsSchema.safeParse(v).error?.issues[0]?.message;
    expect(issue({ Type: 'ACQUISITION_FREQUENCY' })).toBe('validation.nothingToSend');
    expect(issue({ Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL' } })).toBe('validation.intervalRequired');
    const hours = (n: number) => Array.from({ length: n }, (_, i) => i);
    expect(issue({ Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'ADAPTIVE_LOW', High: hours(12), Medium: hours(8), Low: hours(7) } })).toBe('validation.tooManyTimePoints');
    expect(issue({ Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'ADAPTIVE_LOW', High: hours(12), Medium: hours(8), Low: hours(6) } })).toBeUndefined();
    expect(issue({ Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'HOURS', Hours: [3, 3] } })).toBe('validation.hourTwice');
  });

  it('has a JSON schema the generated harnesses can read, and a body of its smallest form', () => {
    expect(() => z.toJSONSchema(SendInstruction.body, { io: 'input', unrepresentable: 'any' })).not.toThrow();
  });

  it('applies to a work status, hours turned to UTC', () => {
    expect(hoursToUtc([0, 8, 23], '+08:00')).toEqual([0, 15, 16]);
    expect(hoursFromUtc([0, 15, 16], '+08:00')).toEqual([0, 8, 23]);
    const p = InstructionParamsSchema.parse({ Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'HOURS', Hours: [8, 20] }, ACC: { Mode: 'OFF' } });
    const after = applyInstruction(BASE, p, '+08:00');
    expect(after).toMatchObject({ GNSSCollectionMode: 0, NormalType: 'HOURS', CustomHours: [0, 12], AccEnabled: false, PostbackHours: [0, 12] });
    const q = InstructionParamsSchema.parse({ Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'DATA_CNT', PacketCount: 5, PacketSize: 512 } });
    expect(applyInstruction(BASE, q, '+00:00')).toMatchObject({ DataPostbackMode: 'DATA_CNT', PacketCount: 5, PacketSize: 512, Realtime: false, IntervalMinutes: 60 });
  });
});
