import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, DeviceType, DIRECT_READ_PATH, message, type PersonalToken, SpeciesType } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { contractCalls } from '../../test/contract-calls.js';
import { DAY, HOUR, local, NOW, ZONE } from '../../test/fixed-time.js';
import { advanceClock, useFixedClock } from '../../test/clock.js';
import { packSamples } from '@wildtrack/contract';
import { movebankTime } from './movebank.js';

/**
 * The read API for scripts (issue 29, "Deliver as well" 3) through HTTP: personal access tokens made,
 * listed and revoked by their user, and Movebank's direct-read protocol answered with one, for each
 * entity type and parameter, as the console's read rule allows (own folders, a share's data period, a
 * stranger, a revoked or expired token, an expired share).
 */

/** RFC 4180 CSV as Python's csv module reads it: quoted cells with doubled quotes, CRLF lines. */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  const [head, ...body] = rows;
  return body.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ''])));
}

const headerOf = (text: string) => text.split('\r\n')[0]!.split(',');

describe.each(DIALECTS)('the direct-read API on %s', (dialect) => {
  useFixedClock(NOW);
  let t: TestApp;
  let alice: string;
  let aliceName: string;
  let bob: string;
  let bobName: string;
  let carol: string;
  let carolName: string;
  let folderId: string;
  let aliceId: number;
  const ids: Record<string, number> = {};
  const { call, data } = contractCalls(() => t, () => alice);

  const basic = (user: string, secret: string) => `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;
  const read = async (query: string, auth: string | undefined, lang: 'en' | 'zh' = 'en') => {
    const res = await t.app.inject({ method: 'GET', url: `${DIRECT_READ_PATH}?${query}`, headers: { ...(auth ? { authorization: auth } : {}), 'accept-language': lang === 'zh' ? 'zh-CN' : 'en-US' } });
    return { status: res.statusCode, text: res.body, type: String(res.headers['content-type'] ?? ''), res };
  };
  const makeToken = async (token: string, body: Record<string, unknown> = {}) => data<PersonalToken & { Secret: string }>(calls.CreatePersonalToken, { purpose: 'R script', ...body }, { token });

  /** Ten fixes an hour apart before now; the first device has them with Movebank's extras and two bursts. */
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice, userName: aliceName } = await t.userWithToken({ org: 'Stork Lab' }));
    ({ token: bob, userName: bobName } = await t.userWithToken({ org: 'Ibis Lab' }));
    ({ token: carol, userName: carolName } = await t.userWithToken({ org: 'Crane Lab' }));
    aliceId = Number((await t.database.db.selectFrom('users').select('id').where('user_name', '=', aliceName).executeTakeFirstOrThrow()).id);
    const org = await t.services.devices.orgIdByName('Stork Lab');
    folderId = (await data<{ IdStr: string }>(calls.CreateFolder, { name: 'Storks 2026', parentId: '-1' })).IdStr;
    const fixes = [];
    for (const imei of ['S-1', 'S-2']) {
      const d = await t.services.devices.register({ orgId: org, imei, caption: `${imei} stork`, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'], folderId: imei === 'S-1' ? Number(folderId) : null });
      ids[imei] = d.id;
      for (let i = 1; i <= 10; i++) {
        const time = NOW - i * HOUR + 123;
        fixes.push({ device_id: d.id, pick_time: time, lon: 10 + i / 100, lat: 50 + i / 100, alt: 40, speed: 36, course: 90, temperature: 20, activity: 0, voltage: 3.9, channel: null, satellites: 8, hdop: 1.5, vdop: 1, grade: 1, valid: 1, tx_time: time, received_at: time, invalid_by: null, invalid_at: null, extra: imei === 'S-1' ? JSON.stringify({ 'eobs:status': 'A' }) : null });
      }
    }
    await t.database.db.insertInto('fixes').values(fixes).execute();
    await t.database.db
      .updateTable('devices')
      .set({ attributes: JSON.stringify({ 'tag-local-identifier': '131', 'individual-local-identifier': 'Stork Anna', 'individual-taxon-canonical-name': 'Ciconia ciconia', 'animal-sex': 'f', 'tag-manufacturer-name': 'e-obs GmbH', 'deployment-comments': 'found, healthy' }) })
      .where('id', '=', ids['S-1']!)
      .execute();
    const raw = Array.from({ length: 30 }, (_, i) => (i % 3) * 100 + i);
    for (const at of [NOW - 2 * HOUR, NOW - 5 * HOUR]) await t.services.ingest.writeBatch(ids['S-1']!, { bursts: [{ t: at, hz: 10, axes: 'XYZ', samples: packSamples(raw), scale: [0.01, 0.01, 0.01], offset: [0, 0, 0] }] }, null, NOW);
    // Carol: S-1 shared from 3.5 hours ago on (3 of its fixes, one burst), with the download right; S-2 until tomorrow, its window only, without it.
    const share = (imei: string, body: Record<string, unknown>) => call(calls.CreateShare, { imeis: [imei], account: carolName, timeZone: ZONE, ...body });
    expect((await share('S-1', { effectiveTime: local(NOW - DAY), failureTime: local(NOW + 30 * DAY), dataPeriod: 'FROM', dataFrom: local(NOW - 3.5 * HOUR), canDownloadData: true })).Code).toBe(Code.Success);
    expect((await share('S-2', { effectiveTime: local(NOW - DAY), failureTime: local(NOW + DAY), dataPeriod: 'ALL' })).Code).toBe(Code.Success);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('a user makes a token (shown once), lists it without its secret, and revokes it; another user\'s token does not exist', async () => {
    const made = await makeToken(alice, { purpose: 'laptop', expiresInDays: 30 });
    expect(made.Secret).toMatch(/^wt_[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({ Name: 'laptop', Hint: made.Secret.slice(-4), State: 'active', CreateTime: local(NOW), ExpireTime: local(NOW + 30 * DAY) });
    const stored = await t.database.db.selectFrom('personal_tokens').selectAll().where('id', '=', Number(made.IdStr)).executeTakeFirstOrThrow();
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(made.Secret);
    const list = await data<{ List: PersonalToken[] }>(calls.GetPersonalTokenList, {});
    expect(list.List.find((x) => x.IdStr === made.IdStr)).toEqual({ IdStr: made.IdStr, Name: 'laptop', Hint: made.Hint, CreateTime: local(NOW), ExpireTime: local(NOW + 30 * DAY), LastUsedTime: '', RevokeTime: '', State: 'active' });
    expect(JSON.stringify(list)).not.toContain(made.Secret);
    // Bob can neither see nor revoke it
    expect((await data<{ List: PersonalToken[] }>(calls.GetPersonalTokenList, {}, { token: bob })).List).toEqual([]);
    const stranger = await call(calls.RevokePersonalToken, { id: made.IdStr }, { token: bob, lang: 'zh' });
    expect([stranger.Code, stranger.Msg]).toEqual([Code.NotFound, message('zh', 'token.notFound')]);
    expect((await call(calls.RevokePersonalToken, { id: made.IdStr })).Code).toBe(Code.Success);
    expect((await data<{ List: PersonalToken[] }>(calls.GetPersonalTokenList, {})).List.find((x) => x.IdStr === made.IdStr)).toMatchObject({ State: 'revoked', RevokeTime: local(NOW) });
    // a bad name is refused naming the field
    const bad = await call(calls.CreatePersonalToken, { purpose: '', expiresInDays: 5 }, { lang: 'zh' });
    expect(bad.Code).toBe(Code.Invalid);
    expect(bad.Msg).toContain('令牌名称');
    const days = await call(calls.CreatePersonalToken, { purpose: 'x', expiresInDays: 4000 });
    expect([days.Code, days.Msg]).toEqual([Code.Invalid, expect.stringContaining('days valid')]);
    expect((await data<{ List: PersonalToken[] }>(calls.GetPersonalTokenList, {})).List).toHaveLength(1);
  });

  it('401 without credentials, with a wrong user name or token, and with a revoked token; each use is in the user log', async () => {
    const { Secret: Token, IdStr } = await makeToken(alice);
    expect((await read('entity_type=study', undefined)).status).toBe(401);
    const none = await read('entity_type=study', undefined, 'zh');
    expect(none.text).toBe(message('zh', 'directRead.unauthorized'));
    expect(none.res.headers['www-authenticate']).toMatch(/^Basic /);
    expect((await read('entity_type=study', basic(bobName, Token))).status).toBe(401);
    expect((await read('entity_type=study', basic(aliceName, `${Token}x`))).status).toBe(401);
    expect((await read('entity_type=study', `Bearer ${Token}`)).status).toBe(401);
    const ok = await read('entity_type=study', basic(aliceName.toUpperCase(), Token));
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/csv/);
    const log = await t.database.db.selectFrom('user_log').select(['type', 'target', 'time']).where('user_id', '=', aliceId).where('target', 'like', 'directRead/%').execute();
    expect(log).toContainEqual({ type: 'action', target: `directRead/study/token-${IdStr}`, time: NOW });
    expect((await data<{ List: PersonalToken[] }>(calls.GetPersonalTokenList, {})).List.find((x) => x.IdStr === IdStr)!.LastUsedTime).toBe(local(NOW));
    await call(calls.RevokePersonalToken, { id: IdStr });
    expect((await read('entity_type=study', basic(aliceName, Token))).status).toBe(401);
  });

  it('study: the root, each folder and the shares are studies; study_id picks one; another is 403', async () => {
    const { Secret: Token } = await makeToken(alice);
    const studies = parseCsv((await read('entity_type=study', basic(aliceName, Token))).text);
    // the sample devices are study 0 while the experience switch is on (none are written in this test)
    expect(studies.map((s) => [s.id, s.name, s.number_of_individuals, s.number_of_deployed_locations, s.i_am_owner, s.i_have_download_access])).toEqual([
      ['-1', 'Stork Lab', '2', '20', 'true', 'true'],
      [folderId, 'Storks 2026', '1', '10', 'true', 'true'],
      ['0', message('en', 'tree.experience'), '0', '0', 'false', 'false'],
    ]);
    expect(studies[1]).toMatchObject({ taxon_ids: 'Ciconia ciconia', sensor_type_ids: 'GPS,Acceleration', timestamp_first_deployed_location: movebankTime(NOW - 10 * HOUR + 123), study_permission: 'data_manager' });
    const one = parseCsv((await read(`entity_type=study&study_id=${folderId}`, basic(aliceName, Token))).text);
    expect(one.map((s) => s.id)).toEqual([folderId]);
    // Carol sees S-1 and S-2 as one study, the sharer's; Alice's own folder is not hers
    const c = await makeToken(carol);
    const hers = parseCsv((await read('entity_type=study', basic(carolName, c.Secret))).text);
    const shared = String(-(1 + aliceId));
    expect(hers.filter((s) => s.id !== '0').map((s) => [s.id, s.number_of_individuals, s.number_of_deployed_locations, s.i_am_owner, s.i_am_collaborator, s.there_are_data_which_i_cannot_see])).toEqual([
      ['-1', '0', '0', 'true', 'false', 'false'],
      [shared, '2', String(3 + 10), 'false', 'true', 'true'],
    ]);
    const refused = await read(`entity_type=study&study_id=${folderId}`, basic(carolName, c.Secret), 'zh');
    expect([refused.status, refused.text]).toEqual([403, message('zh', 'directRead.forbidden', { study: folderId })]);
    const b = await makeToken(bob);
    expect((await read(`entity_type=event&study_id=-1`, basic(bobName, b.Secret))).text).toBe('timestamp,location_lat,location_long,individual_id,tag_id\r\n');
    expect((await read(`entity_type=event&study_id=${folderId}`, basic(bobName, b.Secret))).status).toBe(403);
    expect((await read(`entity_type=individual&study_id=${shared}`, basic(bobName, b.Secret))).status).toBe(403);
  });

  it('tag_type, sensor, individual, tag, deployment and study_attribute', async () => {
    const { Secret: Token } = await makeToken(alice);
    const auth = basic(aliceName, Token);
    expect(parseCsv((await read('entity_type=tag_type', auth)).text).map((r) => [r.id, r.external_id, r.is_location_sensor])).toEqual([
      ['653', 'gps', 'true'],
      ['2365683', 'acceleration', 'false'],
    ]);
    const s1 = ids['S-1']!;
    expect(parseCsv((await read(`entity_type=sensor&tag_study_id=${folderId}`, auth)).text)).toEqual([
      { id: String(s1 * 10), sensor_type_id: '653', tag_id: String(s1) },
      { id: String(s1 * 10 + 1), sensor_type_id: '2365683', tag_id: String(s1) },
    ]);
    expect(parseCsv((await read(`entity_type=sensor&study_id=-1&sensor_type_id=653`, auth)).text).map((r) => r.tag_id)).toEqual([String(ids['S-2']), String(s1)]);
    const [anna] = parseCsv((await read(`entity_type=individual&study_id=${folderId}`, auth)).text);
    expect(anna).toMatchObject({ id: String(s1), local_identifier: 'Stork Anna', taxon_canonical_name: 'Ciconia ciconia', sex: 'f', number_of_events: '10', sensor_type_ids: 'GPS,Acceleration' });
    const [tag] = parseCsv((await read(`entity_type=tag&study_id=${folderId}`, auth)).text);
    expect(tag).toMatchObject({ id: String(s1), local_identifier: '131', manufacturer_name: 'e-obs GmbH' });
    const deployments = parseCsv((await read(`entity_type=deployment&study_id=-1`, auth)).text);
    // the root's own devices first, then its folders' (the tree's order)
    expect(deployments.map((d) => [d.individual_id, d.tag_id, d.comments])).toEqual([
      [String(ids['S-2']), String(ids['S-2']), ''],
      [String(s1), String(s1), 'found, healthy'],
    ]);
    const attrs = parseCsv((await read(`entity_type=study_attribute&study_id=${folderId}&sensor_type_id=653`, auth)).text);
    expect(attrs.map((a) => a.short_name)).toEqual(expect.arrayContaining(['timestamp', 'location_long', 'location_lat', 'visible', 'eobs_status', 'gps_hdop']));
    expect(attrs.find((a) => a.short_name === 'location_long')).toEqual({ study_id: folderId, sensor_type_id: '653', short_name: 'location_long', data_type: 'decimal' });
    expect((await read('entity_type=individual', auth)).status).toBe(400);
  });

  it('event: the default attributes, all, a list; sensor_type_id, individual_id, timestamp_start/end; bad values are 400 naming the parameter', async () => {
    const { Secret: Token } = await makeToken(alice);
    const auth = basic(aliceName, Token);
    const s1 = String(ids['S-1']);
    const plain = await read(`entity_type=event&study_id=${folderId}&sensor_type_id=653`, auth);
    expect(headerOf(plain.text)).toEqual(['timestamp', 'location_lat', 'location_long', 'individual_id', 'tag_id']);
    const rows = parseCsv(plain.text);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toEqual({ timestamp: movebankTime(NOW - 10 * HOUR + 123), location_lat: '50.1', location_long: '10.1', individual_id: s1, tag_id: s1 });
    const all = parseCsv((await read(`entity_type=event&study_id=${folderId}&sensor_type_id=653&attributes=all`, auth)).text);
    expect(all[0]).toMatchObject({ individual_id: s1, deployment_id: s1, study_id: folderId, sensor_type_id: '653', individual_local_identifier: 'Stork Anna', tag_local_identifier: '131', visible: 'true', ground_speed: '10', gps_hdop: '1.5', eobs_status: 'A' });
    const chosen = await read(`entity_type=event&study_id=${folderId}&attributes=tag_local_identifier,timestamp,location-long`, auth);
    expect(headerOf(chosen.text)).toEqual(['tag_local_identifier', 'timestamp', 'location_long']);
    // both sensors without sensor_type_id: 10 fixes and 2 bursts of 10 samples (XYZ)
    const both = parseCsv((await read(`entity_type=event&study_id=${folderId}&attributes=sensor_type_id,timestamp,acceleration_raw_x`, auth)).text);
    expect([both.filter((r) => r.sensor_type_id === '653').length, both.filter((r) => r.sensor_type_id === '2365683').length]).toEqual([10, 20]);
    const acc = parseCsv((await read(`entity_type=event&study_id=${folderId}&sensor_type_id=2365683&attributes=all`, auth)).text);
    expect(acc[0]).toMatchObject({ sensor_type_id: '2365683', acceleration_raw_x: '0', acceleration_raw_y: '101' });
    // the sensor by its external id, as Movebank's sensor_type; an animal by its local identifier
    expect(parseCsv((await read(`entity_type=event&study_id=${folderId}&sensor_type=acceleration`, auth)).text)).toHaveLength(20);
    expect(parseCsv((await read(`entity_type=event&study_id=-1&sensor_type_id=gps&individual_local_identifier=Stork%20Anna`, auth)).text)).toHaveLength(10);
    // the root's two devices; one by individual_id
    expect(parseCsv((await read('entity_type=event&study_id=-1&sensor_type_id=653', auth)).text)).toHaveLength(20);
    expect(new Set(parseCsv((await read(`entity_type=event&study_id=-1&sensor_type_id=653&individual_id=${ids['S-2']}`, auth)).text).map((r) => r.individual_id))).toEqual(new Set([String(ids['S-2'])]));
    // a time range, both ends included, yyyyMMddHHmmssSSS in UTC
    const stamp = (ms: number) => movebankTime(ms).replace(/[-: .]/g, '');
    const ranged = parseCsv((await read(`entity_type=event&study_id=${folderId}&sensor_type_id=653&timestamp_start=${stamp(NOW - 4 * HOUR + 123)}&timestamp_end=${stamp(NOW - 2 * HOUR + 123)}`, auth)).text);
    expect(ranged).toHaveLength(3);
    for (const [q, p] of [
      ['timestamp_start=2026-01-01', 'timestamp_start'],
      ['timestamp_end=20261301000000000', 'timestamp_end'],
      ['sensor_type_id=magnetometer', 'sensor_type_id'],
      ['individual_id=x', 'individual_id'],
    ] as const) {
      const r = await read(`entity_type=event&study_id=${folderId}&${q}`, auth, 'zh');
      expect(r.status, q).toBe(400);
      expect(r.text).toContain(p);
    }
    expect((await read('entity_type=animal', auth)).status).toBe(400);
  });

  it("a share's recipient reads its data period only, and events only with the download right", async () => {
    const { Secret: Token } = await makeToken(carol);
    const auth = basic(carolName, Token);
    const shared = String(-(1 + aliceId));
    const events = parseCsv((await read(`entity_type=event&study_id=${shared}&sensor_type_id=653&attributes=individual_id,timestamp`, auth)).text);
    // S-1 from 3.5 hours ago: 3 fixes; S-2 has no download right
    expect(events.map((e) => e.individual_id)).toEqual([String(ids['S-1']), String(ids['S-1']), String(ids['S-1'])]);
    expect(parseCsv((await read(`entity_type=event&study_id=${shared}&sensor_type_id=2365683`, auth)).text)).toHaveLength(10);
    expect((await read(`entity_type=event&study_id=${shared}&individual_id=${ids['S-2']}`, auth)).text.split('\r\n')).toHaveLength(2);
    const individuals = parseCsv((await read(`entity_type=individual&study_id=${shared}`, auth)).text);
    expect(individuals.map((i) => [i.id, i.number_of_events])).toEqual([
      [String(ids['S-1']), '3'],
      [String(ids['S-2']), '10'],
    ]);
  });

  it('an expired token is 401; an expired share takes its devices out of the study (403 for it once none is left)', async () => {
    const week = await makeToken(carol, { expiresInDays: 7 });
    const forever = await makeToken(carol);
    const shared = String(-(1 + aliceId));
    expect((await read(`entity_type=individual&study_id=${shared}`, basic(carolName, week.Secret))).status).toBe(200);
    advanceClock(2 * DAY);
    // S-2's share ended: only S-1 is left
    expect(parseCsv((await read(`entity_type=individual&study_id=${shared}`, basic(carolName, forever.Secret))).text).map((i) => i.id)).toEqual([String(ids['S-1'])]);
    expect((await call(calls.GetPersonalTokenList, {}, { token: carol })).Code).toBe(Code.Success);
    advanceClock(6 * DAY);
    const expired = await read('entity_type=study', basic(carolName, week.Secret));
    expect(expired.status).toBe(401);
    expect((await data<{ List: PersonalToken[] }>(calls.GetPersonalTokenList, {}, { token: carol })).List.find((x) => x.IdStr === week.IdStr)!.State).toBe('expired');
    // S-1's share ends 30 days after NOW: the study is gone
    advanceClock(23 * DAY);
    expect((await read(`entity_type=individual&study_id=${shared}`, basic(carolName, forever.Secret))).status).toBe(403);
  });
});

describe.each(DIALECTS)('the direct-read rate limit on %s', (dialect) => {
  useFixedClock(NOW);
  let t: TestApp;
  afterAll(async () => {
    await t?.close();
  });

  it('past the token\'s requests a minute: 429 with Retry-After; another token is not counted with it; the next minute reads again', async () => {
    t = await createTestApp(dialect, { TOKEN_RATE_LIMIT: '3' });
    const { token, userName } = await t.userWithToken();
    const { data } = contractCalls(() => t, () => token);
    const one = await data<{ Secret: string }>(calls.CreatePersonalToken, { purpose: 'a' });
    const two = await data<{ Secret: string }>(calls.CreatePersonalToken, { purpose: 'b' });
    const get = async (secret: string) => t.app.inject({ method: 'GET', url: `${DIRECT_READ_PATH}?entity_type=tag_type`, headers: { authorization: `Basic ${Buffer.from(`${userName}:${secret}`).toString('base64')}` } });
    for (let i = 0; i < 3; i++) expect((await get(one.Secret)).statusCode).toBe(200);
    const refused = await get(one.Secret);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(two.Secret)).statusCode).toBe(200);
    advanceClock(61_000);
    expect((await get(one.Secret)).statusCode).toBe(200);
  });
});
