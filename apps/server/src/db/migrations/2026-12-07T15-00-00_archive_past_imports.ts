import type { Kysely } from 'kysely';
import { DeviceStatus } from '@wildtrack/contract';
import { silentAfterMs } from '../../domain/device-events.js';
import { now as clockNow } from '../../lib/clock.js';

// A device's life told truthfully (issue 28 item 1) in a database made before it: a Movebank import now
// archives a device whose history ends longer ago than its schedule allows (status 5, Retrieved); devices
// imported earlier still say "Working, silent for 5,752 days". The same rule once over them: imported
// devices only (attributes.source 'movebank'), still Working, last heard more than their silent mark ago.
// A device of the organisation's own that fell silent stays Working (silent is what it is); one that never
// reported is left as it is.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const now = clockNow();
  const rows = (await db
    .selectFrom('devices as d')
    .leftJoin('device_work_status as w', 'w.device_id', 'd.id')
    .select(['d.id', 'd.last_work_time', 'd.attributes', 'w.settings'])
    .where('d.status', '=', DeviceStatus.Working)
    .where('d.last_work_time', 'is not', null)
    .where('d.attributes', 'like', '%movebank%')
    .execute()) as { id: number | string; last_work_time: number | string; attributes: string; settings: string | null }[];
  const past = rows
    .filter((r) => importedFromMovebank(r.attributes) && now - Number(r.last_work_time) > silentAfterMs(r.settings))
    .map((r) => Number(r.id));
  for (let i = 0; i < past.length; i += 500) {
    await db.updateTable('devices').set({ status: DeviceStatus.Retrieved }).where('id', 'in', past.slice(i, i + 500)).where('status', '=', DeviceStatus.Working).execute();
  }
}

function importedFromMovebank(attributes: string): boolean {
  try {
    return (JSON.parse(attributes) as { source?: unknown }).source === 'movebank';
  } catch {
    return false;
  }
}

// Which devices were archived by it is not kept: going down leaves them archived (a user may set a status).
export async function down(): Promise<void> {}
