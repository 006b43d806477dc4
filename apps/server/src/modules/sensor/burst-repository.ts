import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { BurstRow, SensorQuery } from './repository.js';

/** An hour in ms: the blocks whose bursts are summarised by hourPrints. */
export const HOUR_MS = 3_600_000;

/** Bursts read per query when a range's bursts are walked (a 20 Hz minute is ~8 KB: a batch is a few MB). */
const BATCH = 256;

/**
 * A device's acceleration bursts over a range in start order, for the downloads, the charts' binary and
 * the archives: walked in batches by key (device, start) so a long range never sits in memory at once.
 */
export class BurstRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The bursts of [from, to] in start order, a batch at a time; without their stored ODBA unless asked (the binary computes it). */
  async *walk(q: SensorQuery, batch = BATCH, withOdba = true): AsyncGenerator<BurstRow[]> {
    const none = new Uint8Array(0);
    let after = q.from - 1;
    for (;;) {
      const rows = await this.db
        .selectFrom('acc_bursts')
        .select(['start_time', 'hz', 'axes', 'sample_count', 'samples', 'mean_odba', 'calibration', 'encoding'])
        .$if(withOdba, (qb) => qb.select('odba'))
        .where('device_id', '=', q.deviceId)
        .where('start_time', '>', after)
        .where('start_time', '<=', q.to)
        .orderBy('start_time', 'asc')
        .limit(batch)
        .execute();
      if (rows.length === 0) return;
      yield rows.map((r) => ({ ...r, odba: 'odba' in r && r.odba ? r.odba : none, start_time: Number(r.start_time), sample_count: Number(r.sample_count), encoding: Number(r.encoding) }));
      if (rows.length < batch) return;
      after = Number(rows[rows.length - 1]!.start_time);
    }
  }

  /**
   * Per hour (epoch ms / HOUR_MS) of [from, to] that holds bursts: how many and the sum of their start
   * times. A stored burst is never changed (the ingest inserts or ignores), so equal prints mean the same
   * bursts; read from the key alone, without the samples.
   */
  async hourPrints(q: SensorQuery): Promise<{ hour: number; count: number; sum: number }[]> {
    const hour = sql<number>`start_time / ${sql.lit(HOUR_MS)}`;
    const rows = await this.db
      .selectFrom('acc_bursts')
      .select([hour.as('hour'), (eb) => eb.fn.countAll<number>().as('count'), (eb) => eb.fn.sum<number>('start_time').as('sum')])
      .where('device_id', '=', q.deviceId)
      .where('start_time', '>=', q.from)
      .where('start_time', '<=', q.to)
      .groupBy(hour)
      .orderBy(hour)
      .execute();
    return rows.map((r) => ({ hour: Number(r.hour), count: Number(r.count), sum: Number(r.sum) }));
  }

  /** How many samples the device's bursts starting in [from, to] hold (an archive day cut to a share's window). */
  async sampleCount(deviceId: number, from: number, to: number): Promise<number> {
    const r = await this.db
      .selectFrom('acc_bursts')
      .select((eb) => eb.fn.sum<number>('sample_count').as('n'))
      .where('device_id', '=', deviceId)
      .where('start_time', '>=', from)
      .where('start_time', '<=', to)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Devices with at least one burst in [from, to] among these (the archive job's day). */
  async devicesWithBursts(deviceIds: readonly number[], from: number, to: number): Promise<number[]> {
    const out: number[] = [];
    for (const id of deviceIds) {
      const r = await this.db
        .selectFrom('acc_bursts')
        .select('start_time')
        .where('device_id', '=', id)
        .where('start_time', '>=', from)
        .where('start_time', '<=', to)
        .limit(1)
        .executeTakeFirst();
      if (r) out.push(id);
    }
    return out;
  }
}
