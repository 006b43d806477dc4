import type { Kysely } from 'kysely';
import { markTrackDaysStale } from '../../db/shared-writes.js';
import { fixDays } from '../../domain/track-days.js';
import { type Database, INVALID_BY_SOURCE } from '../../db/schema.js';

/** One fix of the file as the source marks it: `reason` null when the source does not mark it. */
export interface SourceMark {
  t: number;
  reason: string | null;
  /** Its validity without the source's mark (from its position). */
  valid: 0 | 1;
}

const IN_LIST = 500;

function groupBy<K, V>(items: readonly V[], key: (v: V) => K): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const v of items) {
    const list = out.get(key(v));
    if (list) list.push(v);
    else out.set(key(v), [v]);
  }
  return out;
}

/**
 * The source's marks on a device's stored fixes: what the file marks is marked (unless a user marked it
 * first), what it no longer marks is unmarked when the source had marked it; a user's mark is never
 * touched. Answers how many fixes each way changed.
 */
export class SourceMarkRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async apply(deviceId: number, marks: readonly SourceMark[], now: number): Promise<{ marked: number; unmarked: number }> {
    return this.db.transaction().execute(async (trx) => {
      let marked = 0;
      let unmarked = 0;
      const changed: number[] = [];
      const on = (times: number[]) => trx.updateTable('fixes').where('device_id', '=', deviceId).where('pick_time', 'in', times);
      for (const [reason, group] of groupBy(marks.filter((m) => m.reason !== null), (m) => m.reason!)) {
        for (let i = 0; i < group.length; i += IN_LIST) {
          const times = group.slice(i, i + IN_LIST).map((m) => m.t);
          const r = await on(times).set({ valid: 0, invalid_by: INVALID_BY_SOURCE, invalid_at: now, invalid_reason: reason }).where('invalid_by', 'is', null).executeTakeFirst();
          if (Number(r.numUpdatedRows) > 0) changed.push(...times);
          marked += Number(r.numUpdatedRows);
          // the source marks it for another reason now: say so, it stays marked
          await on(times).set({ invalid_reason: reason }).where('invalid_by', '=', INVALID_BY_SOURCE).where('invalid_reason', '<>', reason).execute();
        }
      }
      for (const [valid, group] of groupBy(marks.filter((m) => m.reason === null), (m) => m.valid)) {
        for (let i = 0; i < group.length; i += IN_LIST) {
          const times = group.slice(i, i + IN_LIST).map((m) => m.t);
          const r = await on(times).set({ valid, invalid_by: null, invalid_at: null, invalid_reason: null }).where('invalid_by', '=', INVALID_BY_SOURCE).executeTakeFirst();
          if (Number(r.numUpdatedRows) > 0) changed.push(...times);
          unmarked += Number(r.numUpdatedRows);
        }
      }
      if (changed.length > 0) await markTrackDaysStale(trx, deviceId, fixDays(changed));
      return { marked, unmarked };
    });
  }
}
