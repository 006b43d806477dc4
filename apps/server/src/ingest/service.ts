import fs from 'node:fs';
import path from 'node:path';
import {
  type Ack,
  type FenceAck,
  type PendingFenceRule,
  type IngestAnswer,
  type IngestBatch,
  InstructionParamsSchema,
  MediaKind,
  type MediaQuery,
  type PendingInstruction,
} from '@wildtrack/contract';
import type { Db } from '../db/connect.js';
import { Listeners } from '../lib/listeners.js';
import { BatchRepository, type InBatch, type WriteCounts } from './batch-repository.js';
import { BatchRefused, checkTime, decodeBatch, type DecodedBatch } from './decode.js';
import { Replayed } from './errors.js';
import { InstructionRepository } from './instruction-repository.js';
import { MediaRepository } from './media-repository.js';
import { RequestRepository } from './request-repository.js';
import { now as clockNow } from '../lib/clock.js';

export const MEDIA_DIR = 'media';
/** POI photos: $WILDTRACK_DATA/field/<device id>/<sha256>.<jpg|png> (modules/field serves them). */
export const FIELD_DIR = 'field';

const EXT: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'video/webm': 'webm',
  'video/mp4': 'mp4',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'application/octet-stream': 'bin',
};

/** The ingest service on a database, its repositories built beside it (the app, the CLI, the bench). */
export function createIngestService(database: Db, dataDir: string): IngestService {
  return new IngestService(
    new BatchRepository(database),
    new InstructionRepository(database.db),
    new MediaRepository(database.db),
    new RequestRepository(database.db),
    dataDir,
  );
}

/**
 * The fence evaluation's part in a batch (modules/fence/evaluator.ts): null when the batch has nothing to
 * evaluate; else the writes done in its transaction, then `committed` (the rules fire) or `failed`.
 */
export type FencePlanner = (deviceId: number, fixes: DecodedBatch['fixes'], now: number) => FencePart | null | Promise<FencePart | null>;
type FencePart = InBatch & { committed(): Promise<void>; failed(): void };

/** A stored batch's newest fix (the newest valid one when it has one), as `onFixesStored` tells it. */
export interface NewestFix {
  time: number;
  lon: number | null;
  lat: number | null;
}

export class IngestService {
  private readonly fixesStored = new Listeners<[deviceId: number, newest: NewestFix]>('fixes stored');

  constructor(
    private readonly batches: BatchRepository,
    private readonly instructions: InstructionRepository,
    private readonly media: MediaRepository,
    private readonly requests: RequestRepository,
    private readonly dataDir: string,
  ) {}

  /** The device a request names by its IMEI, with what authenticating it needs. */
  findDevice(imei: string) {
    return this.requests.findDevice(imei);
  }

  /** Forgets request nonces received before `before` (a background sweep). */
  sweepNonces(before: number): Promise<void> {
    return this.requests.sweepNonces(before);
  }

  /**
   * Decodes and stores a batch (one transaction); throws BatchRefused or Replayed, storing nothing. The
   * device's own work-status report, when the batch carries one, is kept after the records.
   */
  async writeBatch(deviceId: number, batch: IngestBatch, nonce: string | null, now = clockNow()): Promise<WriteCounts> {
    if (batch.workStatus) checkTime(batch.workStatus.at, 'workStatus.at', now);
    const decoded = decodeBatch(batch, now);
    // Fences: the batch's fixes tested against the device's remote fences, the states and Fence events
    // written in the batch's own transaction (modules/fence/evaluator.ts); rules fire once it committed.
    const planned = this.fencePlanner && decoded.fixes.length > 0 ? this.fencePlanner(deviceId, decoded.fixes, now) : null;
    const plan = planned instanceof Promise ? await planned : planned;
    let counts: WriteCounts;
    try {
      counts = await this.writeDecoded(deviceId, decoded, nonce, now, plan ?? undefined);
    } catch (err) {
      plan?.failed();
      throw err;
    }
    if (plan) await plan.committed();
    if (batch.workStatus) await this.instructions.reportWorkStatus(deviceId, batch.workStatus);
    return counts;
  }

  /**
   * The device that carried a batch or an acknowledgement for `deviceId` (a receiver station or a phone of
   * the same organisation), by its IMEI; BatchRefused when it is not one.
   */
  async relayOf(deviceId: number, imei: string | undefined): Promise<number | null> {
    if (imei === undefined) return null;
    const relay = await this.requests.findDevice(imei);
    const device = await this.requests.deviceById(deviceId);
    if (!relay || !device || Number(relay.org_id) !== Number(device.org_id) || Number(relay.id) === deviceId) {
      throw new BatchRefused('bad_relay', `relay ${imei} is not another device of this device's organisation`);
    }
    return Number(relay.id);
  }

  async writeDecoded(deviceId: number, decoded: DecodedBatch, nonce: string | null, now = clockNow(), inBatch?: InBatch): Promise<WriteCounts> {
    // POI photos first, each named by its content: a batch refused afterwards leaves at most a file no record
    // names, and a batch sent again finds its files already there.
    for (const poi of decoded.pois ?? []) {
      for (const photo of poi.photos) {
        const abs = path.join(this.dataDir, FIELD_DIR, String(deviceId), photo.name);
        if (fs.existsSync(abs)) continue;
        fs.mkdirSync(path.dirname(abs), { recursive: true });
        const tmp = `${abs}.${process.pid}.${now}.tmp`;
        await fs.promises.writeFile(tmp, photo.bytes);
        await fs.promises.rename(tmp, abs);
      }
    }
    const counts = await this.batches.write(deviceId, decoded, nonce, now, inBatch);
    if (counts.fixes > 0 && this.fixesStored.size > 0) this.fixesStored.emit(deviceId, newestFix(decoded.fixes));
    return counts;
  }

  /**
   * Adds a listener told after each stored batch with new fixes, with its newest fix (the newest valid one
   * when it has one): live delivery (live/hub.ts) is one. Computed from the batch in memory: no query. Not
   * awaited; a listener's failure is logged and never fails the stored batch. Returns its removal.
   */
  onFixesStored(listener: (deviceId: number, newest: NewestFix) => void): () => void {
    return this.fixesStored.add(listener);
  }

  private fencePlanner: FencePlanner | undefined;

  /**
   * The one planner asked before each device batch with fixes (writeBatch; not imports) what it writes in its
   * transaction: the fence evaluation. One slot, set, not a subscriber: its answer is part of the batch's
   * transaction. Who wants to hear of crossings subscribes to FenceEvaluator.onCrossing.
   */
  setFencePlanner(planner: FencePlanner): void {
    this.fencePlanner = planner;
  }

  private fenceChannel: { pending(deviceId: number): Promise<PendingFenceRule[]>; acknowledge(deviceId: number, ack: FenceAck): Promise<boolean> } | undefined;

  /**
   * The device side of fence rules (modules/fence/evaluation.ts): handed over with each answer, acknowledged
   * by /fence-ack. One slot, set, not a subscriber: it answers (the rules pending, whether an ack matched).
   */
  setFenceChannel(channel: { pending(deviceId: number): Promise<PendingFenceRule[]>; acknowledge(deviceId: number, ack: FenceAck): Promise<boolean> }): void {
    this.fenceChannel = channel;
  }

  /** The device rules waiting for the device, as the answer's `fenceRules` (absent when none). */
  async pendingFences(deviceId: number): Promise<{ fenceRules?: PendingFenceRule[] }> {
    const list = this.fenceChannel ? await this.fenceChannel.pending(deviceId) : [];
    return list.length > 0 ? { fenceRules: list } : {};
  }

  /** The device applied (or dropped) a fence rule's version; false when none awaits it. */
  async acknowledgeFence(deviceId: number, ack: FenceAck, nonce: string, now = clockNow()): Promise<boolean> {
    await this.requests.claimNonce(deviceId, nonce, now);
    return this.fenceChannel ? this.fenceChannel.acknowledge(deviceId, ack) : false;
  }

  /** The instructions waiting for the device (delivered now: see InstructionRepository.pending). */
  async pendingInstructions(deviceId: number, now = clockNow(), relayId: number | null = null): Promise<PendingInstruction[]> {
    const rows = await this.instructions.pending(deviceId, now, relayId);
    return rows.flatMap((r) => {
      const params = InstructionParamsSchema.safeParse(JSON.parse(r.params));
      // Every console path stores typed params; a row that is not (written by hand) is not handed out.
      if (!params.success) return [];
      return [{ id: Number(r.id), type: params.data.Type, params: params.data, timeZone: r.time_zone, sentAt: Number(r.send_time) }];
    });
  }

  async answer(deviceId: number, counts: Omit<WriteCounts, 'duplicates'> & { media?: number; duplicates: number }, relayId: number | null = null): Promise<IngestAnswer> {
    return {
      ok: true,
      accepted: {
        fixes: counts.fixes,
        sensors: counts.sensors,
        bursts: counts.bursts,
        media: counts.media ?? 0,
        ...(counts.pois === undefined ? {} : { pois: counts.pois }),
        ...(counts.behaviors === undefined ? {} : { behaviors: counts.behaviors }),
      },
      duplicates: counts.duplicates,
      instructions: await this.pendingInstructions(deviceId, clockNow(), relayId),
      ...(await this.pendingFences(deviceId)),
      serverTime: clockNow(),
    };
  }

  /**
   * Writes the file under $WILDTRACK_DATA/media/<device>/ (to a temporary name, renamed once complete),
   * then the record; a duplicate record keeps the file it already has.
   */
  async storeMedia(deviceId: number, q: MediaQuery, body: Buffer, mime: string, nonce: string | null, now = clockNow()): Promise<boolean> {
    // The same time rule as a batch's records: a file dated far ahead would hold the device's last-work time.
    checkTime(q.t, 'media.t', now);
    if (body.length === 0) throw new BatchRefused('empty_media', 'the body holds no file');
    const ext = EXT[mime] ?? (q.kind === 'audio' ? 'pdm' : 'bin');
    const rel = path.join(MEDIA_DIR, String(deviceId), `${q.kind}-${q.t}.${ext}`);
    const abs = path.join(this.dataDir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    const exists = fs.existsSync(abs);
    const tmp = `${abs}.${process.pid}.${now}.tmp`;
    if (!exists) {
      fs.writeFileSync(tmp, body);
      fs.renameSync(tmp, abs);
    }
    const row = {
      kind: MediaKind[q.kind],
      pick_time: q.t,
      file: rel.split(path.sep).join('/'),
      mime,
      size: body.length,
      lon: q.lon ?? null,
      lat: q.lat ?? null,
      alt: q.alt ?? null,
      width: q.width ?? null,
      height: q.height ?? null,
      duration: q.duration ?? null,
      rate: q.rate ?? null,
      bit_depth: q.bitDepth ?? null,
      track: q.track ?? null,
    };
    try {
      if (nonce === null) return await this.media.insert(deviceId, row, `local-${deviceId}-${q.kind}-${q.t}-${now}`, now);
      return await this.media.insert(deviceId, row, nonce, now);
    } catch (err) {
      if (!exists && err instanceof Replayed) fs.rmSync(abs, { force: true });
      throw err;
    }
  }

  /** The device's answer to an instruction (see InstructionRepository.acknowledge); false when none awaits it. */
  async acknowledge(deviceId: number, ack: Ack, nonce: string, now = clockNow()): Promise<boolean> {
    const relayId = await this.relayOf(deviceId, ack.relay);
    await this.requests.claimNonce(deviceId, nonce, now);
    return this.instructions.acknowledge(deviceId, ack.id, ack.outcome, ack.executedAt, ack.message ?? null, relayId, now, ack.reason);
  }
}

/** The batch's newest valid fix, or its newest fix when none is valid (the device was still heard from). */
function newestFix(fixes: DecodedBatch['fixes']): NewestFix {
  let best: DecodedBatch['fixes'][number] | undefined;
  for (const f of fixes) {
    if (!best || (f.valid === 1 && best.valid !== 1) || (f.valid === best.valid && f.pick_time > best.pick_time)) best = f;
  }
  return best && best.valid === 1 ? { time: best.pick_time, lon: best.lon, lat: best.lat } : { time: best?.pick_time ?? 0, lon: null, lat: null };
}
