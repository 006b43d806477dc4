import { imeiCheckDigit, type IngestBatch, type InstructionFailureReason } from '@wildtrack/contract';
import { type Advance, createDevice, type DeviceInstruction } from './device.js';
import { HOUR, MINUTE } from './geo.js';
import { getProfile, type Profile, type ProfileId } from './profiles.js';
import { seedFrom } from './rng.js';

/** Records in a batch: fixes, sensor records, bursts and a phone's field records (media travel separately). */
export function countRecords(batch: IngestBatch): number {
  return (
    (batch.fixes?.t.length ?? 0) +
    (batch.sensors ?? []).reduce((n, s) => n + s.t.length, 0) +
    (batch.bursts?.length ?? 0) +
    (batch.pois?.length ?? 0) +
    (batch.behaviors?.length ?? 0)
  );
}

/** Splits a batch into batches of at most `max` records, keeping each column's order. */
export function splitBatch(batch: IngestBatch, max: number): IngestBatch[] {
  const { pois, behaviors, ...rest } = batch;
  const parts = splitRecords(rest, max);
  // Field records (a phone's few a day) ride with the first part that has room for them, or alone.
  if (pois || behaviors) {
    const field = { ...(pois ? { pois } : {}), ...(behaviors ? { behaviors } : {}) };
    const n = countRecords(field);
    const i = parts.findIndex((part) => countRecords(part) + n <= max);
    if (i < 0) parts.push(field);
    else parts[i] = { ...parts[i], ...field };
  }
  return parts;
}

function splitRecords(batch: IngestBatch, max: number): IngestBatch[] {
  if (countRecords(batch) <= max) return countRecords(batch) > 0 ? [batch] : [];
  const out: IngestBatch[] = [];
  let cur: IngestBatch = {};
  let room = max;
  const next = () => {
    out.push(cur);
    cur = {};
    room = max;
  };
  const f = batch.fixes;
  if (f) {
    for (let i = 0; i < f.t.length; ) {
      const n = Math.min(room, f.t.length - i);
      const part = Object.fromEntries(Object.entries(f).map(([k, col]) => [k, (col as unknown[] | undefined)?.slice(i, i + n)]));
      cur.fixes = part as IngestBatch['fixes'];
      i += n;
      room -= n;
      if (room === 0) next();
    }
  }
  for (const s of batch.sensors ?? []) {
    for (let i = 0; i < s.t.length; ) {
      const n = Math.min(room, s.t.length - i);
      (cur.sensors ??= []).push({ kind: s.kind, t: s.t.slice(i, i + n), v: s.v.slice(i, i + n) });
      i += n;
      room -= n;
      if (room === 0) next();
    }
  }
  const b = batch.bursts ?? [];
  for (let i = 0; i < b.length; ) {
    const n = Math.min(room, b.length - i);
    cur.bursts = b.slice(i, i + n);
    i += n;
    room -= n;
    if (room === 0) next();
  }
  if (room < max) out.push(cur);
  return out;
}

export interface BackfillOptions {
  seed: number;
  start: number;
  end: number;
  /** Records per batch, at most (default 5,000). */
  maxRecords?: number;
  /** Include the deliberate bad and invalid fixes (default true). */
  badFixes?: boolean;
  /**
   * Added to every time the batches carry (fix, transmission, sensor, burst and media times), epoch ms:
   * the device is simulated over [start, end) on that calendar and its records land shifted by this
   * much (default 0). Sample data made at a fixed clock and shifted by whole days to end now keeps its
   * shape (seasons, day and night) whatever the date it is made on.
   */
  shift?: number;
  /**
   * Instructions sent to the device during the span (times on the simulated calendar, before `shift`):
   * each is fetched at the device's first contact in coverage (every 10 minutes) at or after it was sent,
   * and applied or refused there, so the records that follow obey it; one the device doesn't fetch within
   * `commWindowMs` (default 6 h) is COMM_ERROR, one not fetched by `end` stays SENT. `onInstruction`
   * hears each outcome, its times shifted like the records.
   */
  instructions?: readonly { sentAt: number; instruction: DeviceInstruction }[];
  commWindowMs?: number;
  onInstruction?: (outcome: InstructionOutcome) => void;
}

/** What became of a backfill's instruction (its index in `instructions`). */
export interface InstructionOutcome {
  index: number;
  status: 'SENT' | 'SUCCESSFUL' | 'FAILED' | 'COMM_ERROR';
  /** When the device fetched and answered it (SUCCESSFUL, FAILED), epoch ms shifted; null otherwise. */
  executeTime: number | null;
  /** The device's reason (FAILED) or note. */
  message: string | null;
  /** Its reason of the contract's list (FAILED). */
  reason?: InstructionFailureReason;
}

/** The advance with every time it carries moved by `ms`. */
export function shiftAdvance({ batch, media }: Advance, ms: number): Advance {
  if (ms === 0) return { batch, media };
  const by = (t: number) => t + ms;
  const f = batch.fixes;
  return {
    batch: {
      ...(f ? { fixes: { ...f, t: f.t.map(by), ...(f.tx ? { tx: f.tx.map((t) => (t === null ? null : t + ms)) } : {}) } } : {}),
      ...(batch.sensors ? { sensors: batch.sensors.map((c) => ({ ...c, t: c.t.map(by) })) } : {}),
      ...(batch.bursts ? { bursts: batch.bursts.map((b) => ({ ...b, t: b.t + ms })) } : {}),
      ...(batch.pois ? { pois: batch.pois.map((p) => ({ ...p, t: p.t + ms })) } : {}),
      ...(batch.behaviors ? { behaviors: batch.behaviors.map((b) => ({ ...b, start: b.start + ms, end: b.end + ms })) } : {}),
    },
    media: media.map((m) => ({ ...m, t: m.t + ms })),
  };
}

/**
 * History of one device from start to end, as upload-ready batches of at most maxRecords records; each
 * media file comes once, with the batch of its period. In-process and fast: the server calls it on first
 * start to fill the sample devices.
 */
export function* backfill(profile: Profile | ProfileId, opts: BackfillOptions): Generator<Advance> {
  const p = typeof profile === 'string' ? getProfile(profile) : profile;
  const max = opts.maxRecords ?? 5000;
  const device = createDevice(p, { seed: opts.seed, start: opts.start, badFixes: opts.badFixes ?? true });
  const shift = opts.shift ?? 0;
  const window = opts.commWindowMs ?? 6 * HOUR;
  const report = (o: InstructionOutcome) => opts.onInstruction?.(o);
  // When each instruction is fetched: the first 10-minute contact in coverage from its sending on.
  const fetches: { index: number; at: number; instruction: DeviceInstruction }[] = [];
  (opts.instructions ?? []).forEach(({ sentAt, instruction }, index) => {
    let at = Math.max(opts.start, Math.ceil(sentAt / (10 * MINUTE)) * 10 * MINUTE);
    while (at < sentAt + window && at < opts.end && !device.covered(at)) at += 10 * MINUTE;
    if (at >= opts.end) report({ index, status: 'SENT', executeTime: null, message: null });
    else if (at >= sentAt + window) report({ index, status: 'COMM_ERROR', executeTime: null, message: null });
    else fetches.push({ index, at, instruction });
  });
  fetches.sort((a, b) => a.at - b.at);
  let next = 0;
  for (let t = opts.start; t < opts.end; ) {
    t = Math.min(opts.end, t + 6 * HOUR, fetches[next]?.at ?? Infinity);
    const { batch, media } = shiftAdvance(device.advance(t), shift);
    const parts = splitBatch(batch, max);
    if (parts.length === 0 && media.length > 0) yield { batch: {}, media };
    for (let i = 0; i < parts.length; i++) yield { batch: parts[i]!, media: i === 0 ? media : [] };
    for (; next < fetches.length && fetches[next]!.at <= t; next++) {
      const f = fetches[next]!;
      const r = device.applyInstruction(f.instruction);
      report({ index: f.index, status: r.ok ? 'SUCCESSFUL' : 'FAILED', executeTime: f.at + shift, message: r.message ?? null, ...(r.reason ? { reason: r.reason } : {}) });
    }
  }
}

export interface FleetDevice {
  imei: string;
  profile: Profile;
  seed: number;
  caption: string;
  captionZh: string;
}

/** A 15-digit IMEI with its Luhn check digit, from a 14-digit body. */
export function imeiWithCheck(body14: string): string {
  if (!/^\d{14}$/.test(body14)) throw new Error('an IMEI body has 14 digits');
  return body14 + String(imeiCheckDigit(body14));
}

const FLEET: [ProfileId, string, string][] = [
  ['stork', '86451204000117', 'F07'],
  ['deer', '86451204000225', 'M03'],
  ['seal', '86451204000333', 'PL-12'],
  ['fisher', '86451204000441', 'F1'],
  ['vhf', '86451204000559', 'Wucheng'],
  ['phone', '86451204000667', 'Ranger 2'],
];

/** The six sample devices a fresh server shows: one per profile, every sensor kind and media type. */
export function sampleFleet(): FleetDevice[] {
  return FLEET.map(([id, body, tag], i) => {
    const profile = getProfile(id);
    return {
      imei: imeiWithCheck(body),
      profile,
      seed: 20_240_601 + i * 7919,
      caption: `${profile.caption} ${tag}`,
      captionZh: `${profile.captionZh} ${tag}`,
    };
  });
}

/**
 * A fleet of one device per profile for an organisation's own use (the CLI's --register), with IMEIs
 * derived from the organisation's name in a serial range apart from the sample fleet's.
 */
export function ownFleet(org: string, profiles: readonly string[]): FleetDevice[] {
  const base = seedFrom(org) % 90_000;
  return profiles.map((id, i) => {
    const profile = getProfile(id);
    const imei = imeiWithCheck(`864512041${String((base + i) % 100_000).padStart(5, '0')}`);
    return { imei, profile, seed: seedFrom(imei), caption: `${profile.caption} ${imei.slice(-4)}`, captionZh: `${profile.captionZh} ${imei.slice(-4)}` };
  });
}
