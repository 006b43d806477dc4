import type { FenceSettings, FenceShape, LngLat } from '@wildtrack/contract';
import type { FenceRepository } from './repository.js';
import { fenceValues } from './service.js';
import { now as clockNow } from '../../lib/clock.js';

/** The sample fences' settings: server-side, both directions, no instructions (sample devices take none). */
const SAMPLE_SETTINGS: FenceSettings = {
  enabled: 1,
  inOrOut: 'BOTH',
  ruleType: 1,
  allowSendInstr: 0,
  imeis: [],
  collection: { Mode: 'INTERVAL', IntervalMinutes: 10 },
  postback: { Mode: 'DATA_CNT', PacketCount: 20, PacketSize: 1024, Realtime: false },
  timeZone: '+08:00',
};

/**
 * Fences for the experience devices (issue 15 item 7), so that a fresh start shows some: around the part of
 * the first sample device's route it flew in the middle third of its history (a polygon: the route's box
 * there, a little wider), and a circle of 2 km around the second one's latest position. Made once, when the
 * sample organisation has no fence yet; the live sample fleet's fixes then cross them. Answers how many
 * were made.
 */
export async function ensureSampleFences(repo: FenceRepository, now = clockNow()): Promise<number> {
  const db = repo.db;
  const org = await db.selectFrom('organisations').select('id').where('is_samples', '=', 1).executeTakeFirst();
  if (!org) return 0;
  const orgId = Number(org.id);
  if (await db.selectFrom('fences').select('id').where('org_id', '=', orgId).limit(1).executeTakeFirst()) return 0;
  const devices = await db.selectFrom('devices').select('id').where('org_id', '=', orgId).orderBy('id').limit(2).execute();
  const items: { values: ReturnType<typeof fenceValues>; deviceIds: number[] }[] = [];
  const fixesOf = (deviceId: number) =>
    db.selectFrom('fixes').select(['pick_time', 'lon', 'lat']).where('device_id', '=', deviceId).where('valid', '=', 1).where('lon', 'is not', null).orderBy('pick_time').execute();
  if (devices[0]) {
    const fixes = await fixesOf(Number(devices[0].id));
    const middle = fixes.slice(Math.floor(fixes.length / 3), Math.floor((2 * fixes.length) / 3)).filter((f) => f.lon !== null && f.lat !== null);
    if (middle.length >= 3) {
      const xs = middle.map((f) => f.lon!);
      const ys = middle.map((f) => f.lat!);
      const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      const mx = Math.max((x1 - x0) * 0.1, 0.005);
      const my = Math.max((y1 - y0) * 0.1, 0.005);
      const ring: LngLat[] = [[x0 - mx, y0 - my], [x1 + mx, y0 - my], [x1 + mx, y1 + my], [x0 - mx, y1 + my]];
      const shape: FenceShape = { Type: 'Polygon', Coordinates: ring.map(([x, y]) => [Math.max(-180, Math.min(180, x)), Math.max(-90, Math.min(90, y))] as LngLat) };
      items.push({ values: fenceValues('Stopover reserve · 停歇地保护区', shape, SAMPLE_SETTINGS, '+08:00'), deviceIds: [Number(devices[0].id)] });
    }
  }
  if (devices[1]) {
    const fixes = await fixesOf(Number(devices[1].id));
    const last = fixes[fixes.length - 1];
    if (last && last.lon !== null && last.lat !== null) {
      items.push({ values: fenceValues('Home range · 活动区', { Type: 'Circle', Center: [last.lon, last.lat], Radius: 2000 }, SAMPLE_SETTINGS, '+08:00'), deviceIds: [Number(devices[1].id)] });
    }
  }
  if (items.length === 0) return 0;
  await repo.save(orgId, null, items, now);
  return items.length;
}
