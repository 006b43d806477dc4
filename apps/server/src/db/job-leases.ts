import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Takes or renews the lease on a piece of background work that one server process at a time may do (two
 * servers on one PostgreSQL, or on one SQLite file): granted when nobody holds it, when its holder let it
 * run out, or when `holder` already holds it; held until `now + ms`. One conditional upsert, so two
 * processes asking at once never both get it.
 */
export async function claimLease(db: Kysely<Database>, name: string, holder: string, time: number, ms: number): Promise<boolean> {
  // whole milliseconds: a bigint column on PostgreSQL takes no fraction (a catch-up's renewal adds one)
  const now = Math.round(time);
  const until = now + Math.round(ms);
  const r = await db
    .insertInto('job_leases')
    .values({ name, holder, until })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, until })
        .where((eb) => eb.or([eb('job_leases.until', '<', now), eb('job_leases.holder', '=', holder)])),
    )
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Gives the lease up (a process that stops), so that another takes the work over at once. */
export async function releaseLease(db: Kysely<Database>, name: string, holder: string): Promise<void> {
  await db.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', holder).execute();
}
