import type { Kysely } from 'kysely';
import { claimLease, releaseLease } from '../../db/job-leases.js';
import type { Database } from '../../db/schema.js';

/** What the live sample fleet reads and holds: the samples organisation's devices and its lease. */
export class LiveSamplesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The sample devices (the samples organisation's), with when each was last heard from (its newest record). */
  async sampleDevices(): Promise<{ id: number; imei: string; lastWork: number | null }[]> {
    const rows = await this.db
      .selectFrom('devices as d')
      .innerJoin('organisations as o', 'o.id', 'd.org_id')
      .select(['d.id', 'd.imei', 'd.last_work_time'])
      .where('o.is_samples', '=', 1)
      .orderBy('d.id')
      .execute();
    return rows.map((r) => ({ id: Number(r.id), imei: r.imei, lastWork: r.last_work_time === null ? null : Number(r.last_work_time) }));
  }

  claim(name: string, holder: string, now: number, ms: number): Promise<boolean> {
    return claimLease(this.db, name, holder, now, ms);
  }

  release(name: string, holder: string): Promise<void> {
    return releaseLease(this.db, name, holder);
  }
}
