import { describe, expect, it } from 'vitest';
import { calls, Code, DIRECT_READ_PATH, parseTime } from '@wildtrack/contract';
import { movebankTime } from '../../modules/export/movebank.js';
import { DIALECTS } from '../helper.js';
import { bodyFor } from './bodies.js';
import { send, useWorld, type World, ZONE } from './world.js';
import { useFixedClock } from '../clock.js';
import { NOW } from '../fixed-time.js';

/**
 * The read API (GET /movebank/service/direct-read, modules/export/direct-read.ts) walked with every kind of
 * caller of the access harness's world: each signed-in subject makes a personal access token and reads,
 * with it, the studies, their individuals and their GPS events. A device is in the caller's studies exactly
 * when the console shows it (own, a share in its window, a sample device with the switch on), and its events
 * are the fixes the console counts for the same range when the caller may download them, none otherwise.
 */
describe.each(DIALECTS)('the direct-read walk on %s', (dialect) => {
  let w: World;
  useFixedClock(NOW);
  useWorld(dialect, (built) => (w = built));

  const csv = (text: string) => {
    const [head, ...rows] = text.trimEnd().split('\r\n');
    const names = head!.split(',');
    return rows.filter((r) => r !== '').map((r) => Object.fromEntries(r.split(',').map((v, i) => [names[i], v])));
  };

  it('each caller reads what the console shows them, and nothing else', async () => {
    const problems: string[] = [];
    /** Events read over the walk: the owner's and the download share's fixes at least, so the comparison is not of empty answers. */
    let read = 0;
    const userNames = new Map<string, { user: string; secret: string }>();
    for (const s of w.subjects.filter((x) => x.signedIn)) {
      let auth = userNames.get(s.token!);
      if (!auth) {
        const made = await send(w.t, calls.CreatePersonalToken, { purpose: 'walk' }, s.token, 'en');
        expect(made.code, made.msg).toBe(Code.Success);
        const publicId = s.token!.slice(0, s.token!.indexOf('.'));
        const user = await w.t.database.db.selectFrom('sessions').innerJoin('users', 'users.id', 'sessions.user_id').select('users.user_name').where('sessions.public_id', '=', publicId).executeTakeFirstOrThrow();
        auth = { user: user.user_name, secret: (made.data as { Secret: string }).Secret };
        userNames.set(s.token!, auth);
      }
      const header = `Basic ${Buffer.from(`${auth.user}:${auth.secret}`).toString('base64')}`;
      const get = async (query: string) => {
        const r = await w.t.app.inject({ method: 'GET', url: `${DIRECT_READ_PATH}?${query}`, headers: { authorization: header } });
        if (r.statusCode !== 200) throw new Error(`${s.name}: ${query} → ${r.statusCode} ${r.body}`);
        return csv(r.body);
      };
      const device = await w.t.database.db.selectFrom('devices').select('id').where('imei', '=', s.imei).executeTakeFirstOrThrow();
      const id = String(device.id);
      const studies = await get('entity_type=study');
      let seen = false;
      let events = 0;
      const from = parseTime(w.range.startTime, ZONE)!;
      const to = parseTime(w.range.endTime, ZONE)!;
      const ts = (ms: number) => movebankTime(ms).replace(/[-: .]/g, '');
      for (const study of studies) {
        if ((await get(`entity_type=individual&study_id=${study.id}`)).some((i) => i.id === id)) {
          seen = true;
          events = Math.max(events, (await get(`entity_type=event&study_id=${study.id}&sensor_type_id=653&individual_id=${id}&timestamp_start=${ts(from)}&timestamp_end=${ts(to)}`)).length);
        }
      }
      const visible = s.relation === 'own' || s.relation === 'share' || s.relation === 'example';
      if (seen !== visible) problems.push(`${s.name}: the device is ${seen ? '' : 'not '}in their studies, but the console ${visible ? 'shows' : 'does not show'} it`);
      const count = await send(w.t, calls.GetFixCount, bodyFor(calls.GetFixCount, s, w.range), s.token, 'en');
      const consoleCount = count.code === Code.Success ? (count.data as { Count: number }).Count : 0;
      const expected = visible && s.rights.DownloadData ? consoleCount : 0;
      read += events;
      if (events !== expected) problems.push(`${s.name}: ${events} events read, the console counts ${consoleCount} (download right: ${s.rights.DownloadData})`);
    }
    expect(problems).toEqual([]);
    expect(read).toBeGreaterThan(0);
  });
});
