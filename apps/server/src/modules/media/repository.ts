import type { Kysely } from 'kysely';
import { MediaKind } from '@wildtrack/contract';
import type { Database, MediaRecordTable } from '../../db/schema.js';

export interface RecordingRow {
  pick_time: number;
  file: string;
  mime: string;
  rate: number | null;
}

/** A media record as the console reads it: everything but the device and the arrival time. */
export type MediaRow = Omit<MediaRecordTable, 'device_id' | 'received_at'>;

/** An image record whose thumbnail is not made yet: where its file is, and when it arrived. */
export interface ThumbWanted {
  device_id: number;
  pick_time: number;
  file: string;
  received_at: number;
}

/** What became of a claimed thumbnail: made, or the file is no image (not tried again). */
export const ThumbStatus = { Claimed: 0, Made: 1, NotAnImage: 2 } as const;

/** One device's records of a kind taken in [from, to] (epoch ms, both ends included). */
export interface MediaQuery {
  deviceId: number;
  kind: number;
  from: number;
  to: number;
}

export interface MediaOrder {
  column: 'pick_time' | 'size';
  descending: boolean;
  limit: number;
  offset: number;
}

const COLUMNS = ['kind', 'pick_time', 'file', 'mime', 'size', 'lon', 'lat', 'alt', 'width', 'height', 'duration', 'rate', 'bit_depth', 'track'] as const;

const num = (v: number | null) => (v === null ? null : Number(v));
function rowOf(r: MediaRow): MediaRow {
  return {
    ...r,
    kind: Number(r.kind),
    pick_time: Number(r.pick_time),
    size: Number(r.size),
    lon: num(r.lon),
    lat: num(r.lat),
    alt: num(r.alt),
    width: num(r.width),
    height: num(r.height),
    duration: num(r.duration),
    rate: num(r.rate),
    bit_depth: num(r.bit_depth),
    track: num(r.track),
  };
}

/**
 * The media records devices uploaded (media_records, keyed by device, kind and time: a device's range of
 * one kind is one key range on both dialects; the files are on disk, see IngestService.storeMedia).
 */
export class MediaRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The device's first audio recording picked within [from, to] (ms), if any. */
  async recording(deviceId: number, from: number, to: number): Promise<RecordingRow | undefined> {
    const row = await this.db
      .selectFrom('media_records')
      .select(['pick_time', 'file', 'mime', 'rate'])
      .where('device_id', '=', deviceId)
      .where('kind', '=', MediaKind.audio)
      .where('pick_time', '>=', from)
      .where('pick_time', '<=', to)
      .orderBy('pick_time')
      .limit(1)
      .executeTakeFirst();
    return row && { ...row, pick_time: Number(row.pick_time), rate: row.rate === null ? null : Number(row.rate) };
  }

  /** The device's record of a kind taken at exactly `at` (ms). */
  async one(deviceId: number, kind: number, at: number): Promise<MediaRow | undefined> {
    const r = await this.db
      .selectFrom('media_records')
      .select(COLUMNS)
      .where('device_id', '=', deviceId)
      .where('kind', '=', kind)
      .where('pick_time', '=', at)
      .executeTakeFirst();
    return r && rowOf(r);
  }

  async count(q: MediaQuery): Promise<number> {
    const r = await this.db
      .selectFrom('media_records')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('device_id', '=', q.deviceId)
      .where('kind', '=', q.kind)
      .where('pick_time', '>=', q.from)
      .where('pick_time', '<=', q.to)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async page(q: MediaQuery, order: MediaOrder): Promise<MediaRow[]> {
    const direction = order.descending ? 'desc' : 'asc';
    let query = this.db
      .selectFrom('media_records')
      .select(COLUMNS)
      .where('device_id', '=', q.deviceId)
      .where('kind', '=', q.kind)
      .where('pick_time', '>=', q.from)
      .where('pick_time', '<=', q.to)
      .orderBy(order.column, direction);
    if (order.column !== 'pick_time') query = query.orderBy('pick_time', direction);
    const rows = await query.limit(order.limit).offset(order.offset).execute();
    return rows.map(rowOf);
  }

  /**
   * Image records that arrived at or after `since` (ms) with no thumbnail row (none made, none claimed),
   * the latest arrivals first: the photos a researcher is about to open. Uses media_records' (kind,
   * received_at) index, so a pass looks at what arrived since the last one, not at every record.
   */
  async thumbsWanted(since: number, limit: number): Promise<ThumbWanted[]> {
    const rows = await this.db
      .selectFrom('media_records as m')
      .leftJoin('media_thumbs as t', (join) => join.onRef('t.device_id', '=', 'm.device_id').onRef('t.pick_time', '=', 'm.pick_time'))
      .select(['m.device_id', 'm.pick_time', 'm.file', 'm.received_at'])
      .where('m.kind', '=', MediaKind.image)
      .where('m.received_at', '>=', since)
      .where('t.device_id', 'is', null)
      .orderBy('m.received_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ device_id: Number(r.device_id), pick_time: Number(r.pick_time), file: r.file, received_at: Number(r.received_at) }));
  }

  /** When the latest image record arrived (ms; 0 with none): one step down the (kind, received_at) index. */
  async latestImageArrival(): Promise<number> {
    const r = await this.db
      .selectFrom('media_records')
      .select('received_at')
      .where('kind', '=', MediaKind.image)
      .orderBy('received_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r ? Number(r.received_at) : 0;
  }

  /** Claims an image's thumbnail for this process: false when another process claimed (or made) it first. */
  async claimThumb(deviceId: number, pickTime: number, now: number): Promise<boolean> {
    const r = await this.db
      .insertInto('media_thumbs')
      .values({ device_id: deviceId, pick_time: pickTime, status: ThumbStatus.Claimed, claimed_at: now })
      .onConflict((oc) => oc.columns(['device_id', 'pick_time']).doNothing())
      .returning('device_id')
      .executeTakeFirst();
    return r !== undefined;
  }

  async thumbDone(deviceId: number, pickTime: number, status: number): Promise<void> {
    await this.db.updateTable('media_thumbs').set({ status }).where('device_id', '=', deviceId).where('pick_time', '=', pickTime).execute();
  }

  /** Claims that never finished (their process stopped) before `before`: deleted, so that they are made again. Answers how many. */
  async expireThumbClaims(before: number): Promise<number> {
    const gone = await this.db.deleteFrom('media_thumbs').where('status', '=', ThumbStatus.Claimed).where('claimed_at', '<', before).executeTakeFirst();
    return Number(gone.numDeletedRows);
  }
}
