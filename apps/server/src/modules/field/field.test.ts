import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Behavior,
  calls,
  Code,
  DeviceType,
  formatTime,
  INGEST_BASE,
  type IngestBatch,
  IngestBatchSchema,
  ingestHeaders,
  type Poi,
  SpeciesType,
  TOKEN_COOKIE,
} from '@wildtrack/contract';
import { fieldPhoto, Rng } from '@wildtrack/sample-fleet';
import { createTestApp, DIALECTS, imageCookie, type TestApp } from '../../test/helper.js';
import { contractCalls } from '../../test/contract-calls.js';
import { ZONE, MIN, HOUR, DAY, BASE, NOW, local, type Page } from '../../test/fixed-time.js';
import { useFixedClock } from '../../test/clock.js';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe.each(DIALECTS)('field records on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let phone: { imei: string; secret: string };
  // The shares' windows are read against the server's clock: fixed at NOW, the records made around it.
  const now = NOW;
  useFixedClock(NOW);
  const range = { startTime: local(BASE), endTime: local(BASE + DAY), timeZone: ZONE };
  const photo = fieldPhoto(new Rng(7, 5), 30, 'stork');

  const { call, data } = contractCalls(() => t, () => alice);
  /** A batch as a phone sends it: signed with the device secret, through the ingest route. */
  const send = async (batch: IngestBatch) => {
    const body = JSON.stringify(batch);
    const headers = ingestHeaders({ imei: phone.imei, secret: phone.secret, path: `${INGEST_BASE}/batch`, body, now: NOW });
    const res = await t.app.inject({ method: 'POST', url: `${INGEST_BASE}/batch`, headers: { ...headers, 'content-type': 'application/json' }, payload: body });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  };
  const getPhoto = (url: string, token?: string) =>
    t.app.inject({ method: 'GET', url, headers: token ? { cookie: `${TOKEN_COOKIE}=${encodeURIComponent(imageCookie(token))}` } : {} });

  const batch: IngestBatch = {
    pois: [
      { t: BASE + HOUR, recorder: 17, recorderName: 'Li Wei', name: 'Stork nest N3', target: 'Oriental stork', lon: 118.95, lat: 37.76, alt: 4, address: 'Dawenliu, Yellow River delta', description: 'Two adults, three chicks', photos: [b64(photo)] },
      { t: BASE + 3 * HOUR, recorder: 17, recorderName: 'Li Wei', name: 'Camera trap 12', target: '', lon: 118.97, lat: 37.74, address: '', description: '', photos: [] },
    ],
    behaviors: [
      { start: BASE + 2 * HOUR, end: BASE + 2 * HOUR + 20 * MIN, recorder: 17, recorderName: 'Li Wei', lon: 118.951, lat: 37.761, motion: 'foraging' },
      { start: BASE + 4 * HOUR, end: BASE + 4 * HOUR + 5 * MIN, recorder: 17, recorderName: 'Li Wei', lon: 118.952, lat: 37.762, motion: 'Resting' },
      { start: BASE + 5 * HOUR, end: BASE + 5 * HOUR + 9 * MIN, recorder: 23, recorderName: 'Zhao Min', lon: 118.953, lat: 37.763, motion: 'Dust bathing' },
    ],
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Ibis Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Crane Lab' }));
    const aliceOrg = await t.services.devices.orgIdByName('Ibis Lab');
    const bobOrg = await t.services.devices.orgIdByName('Crane Lab');
    const userOf = async (org: number) => Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', org).executeTakeFirstOrThrow()).id);
    const aliceId = await userOf(aliceOrg);
    const bobId = await userOf(bobOrg);
    const reg = (orgId: number, imei: string) =>
      t.services.devices.register({ orgId, imei, type: DeviceType.Phone, speciesType: SpeciesType.OtherSpecies, sensors: ['GNSS', 'Image'], caption: imei });
    phone = { imei: 'P-RANGER', secret: (await reg(aliceOrg, 'P-RANGER')).secret };
    const shared = (await reg(bobOrg, 'B-SHARED')).id;
    const expired = (await reg(bobOrg, 'B-EXPIRED')).id;
    // B-SHARED: one POI and one observation before the share window opened, one of each inside it.
    const times = [now - 3 * DAY, now - HOUR];
    const some = (at: number[]) =>
      IngestBatchSchema.parse({
        pois: at.map((time, i) => ({ t: time, recorder: 5, recorderName: 'Bob', name: `Point ${i}`, lon: 120, lat: 30 })),
        behaviors: at.map((time) => ({ start: time, end: time + MIN, recorder: 5, recorderName: 'Bob', lon: 120, lat: 30, motion: 'vigilance' })),
      });
    await t.services.ingest.writeBatch(shared, some(times), null, now);
    await t.services.ingest.writeBatch(expired, some([now - DAY]), null, now);
    await t.database.db
      .insertInto('device_shares')
      .values([
        { device_id: shared, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 0, remote_instr: 0, download_data: 0, effective_time: now - 2 * DAY, failure_time: now + HOUR, created_at: now },
        { device_id: expired, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 1, remote_instr: 1, download_data: 1, effective_time: now - 3 * DAY, failure_time: now - HOUR, created_at: now },
      ])
      .execute();
  });
  afterAll(async () => t.close());

  it('takes POIs with photos and observations from a phone, each once', async () => {
    const first = await send(batch);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ok: true, accepted: { pois: 2, behaviors: 3 }, duplicates: 0 });
    const again = await send(batch);
    expect(again.body).toMatchObject({ ok: true, accepted: { pois: 0, behaviors: 0 }, duplicates: 5 });
    // A photo that is not a JPEG or PNG refuses the whole batch, naming the record.
    const bad = await send({ pois: [{ ...batch.pois![0]!, t: BASE + 6 * HOUR, photos: [b64(new TextEncoder().encode('<svg onload=alert(1)>'))] }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, error: 'bad_photo' });
    expect(String(bad.body.reason)).toContain('pois[0].photos[0]');
    // Free texts keep the contract's text rule: a right-to-left override or a NUL refuses the batch, naming the field;
    // a description may hold line breaks.
    for (const [field, value] of [['name', 'Nest \u202Egnp.exe'], ['recorderName', 'Li\u0000Wei'], ['description', 'two\u2066 chicks']] as const) {
      const hidden = await send({ pois: [{ ...batch.pois![1]!, t: BASE + 8 * HOUR, [field]: value }] });
      expect([hidden.status, hidden.body.ok, hidden.body.error], field).toEqual([400, false, 'bad_batch']);
      expect(String(hidden.body.reason), field).toBe(`pois.0.${field}: The pois.0.${field} must not hold control, invisible or text-direction characters.`);
    }
    const lines = await send({ pois: [{ ...batch.pois![1]!, t: BASE - DAY, description: 'Two adults\nthree chicks' }] });
    expect(lines.body).toMatchObject({ ok: true, accepted: { pois: 1 } });
    const unknown = await send({ behaviors: [{ ...batch.behaviors![0]!, start: BASE + 7 * HOUR, end: BASE + 6 * HOUR }] });
    expect(unknown.status).toBe(400);
    expect(await data(calls.GetPoiList, { imei: phone.imei, ...range })).toMatchObject({ Total: 2 });
  });

  it('lists POIs newest first with their fields, and serves their photos to those who may read the phone', async () => {
    const page = await data<Page<Poi>>(calls.GetPoiList, { imei: phone.imei, ...range });
    expect(page.Total).toBe(2);
    expect(page.List.map((p) => p.Name)).toEqual(['Camera trap 12', 'Stork nest N3']);
    const nest = page.List[1]!;
    expect(nest).toMatchObject({
      UserId: 17,
      UserIdStr: '17',
      UserName: 'Li Wei',
      Target: 'Oriental stork',
      Longitude: 118.95,
      Latitude: 37.76,
      Altitude: 4,
      Address: 'Dawenliu, Yellow River delta',
      Description: 'Two adults, three chicks',
      RecordTime: '2026-11-01 09:00:00',
    });
    expect(page.List[0]).toMatchObject({ Target: '', Address: '', Description: '', Altitude: null, Photos: [] });
    expect(nest.Photos).toHaveLength(1);
    const res = await getPhoto(nest.Photos[0]!, alice);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(res.rawPayload, Buffer.from(photo))).toBe(0);
    // A stranger: not found; no cookie: the session envelope (1004), never the picture.
    expect((await getPhoto(nest.Photos[0]!, bob)).statusCode).toBe(404);
    const anonymous = await getPhoto(nest.Photos[0]!);
    expect(String(anonymous.headers['content-type'])).not.toMatch(/^image/);
    expect(anonymous.json()).toMatchObject({ Code: Code.SessionExpired });
    // A name that is no photo of this phone's, or a path out of the folder: not found.
    expect((await getPhoto(nest.Photos[0]!.replace(/[0-9a-f]{64}/, '0'.repeat(64)), alice)).statusCode).toBe(404);
    expect((await getPhoto(`${nest.Photos[0]!.replace(/[^/]+$/, '')}..%2F..%2Fwildtrack.db`, alice)).statusCode).toBe(404);
    // Sorted by name, ascending; one-item pages.
    const byName = await data<Page<Poi>>(calls.GetPoiList, { imei: phone.imei, ...range, sortField: 'Name', sortOrder: 'ascend', pageSize: 10 });
    expect(byName.List.map((p) => p.Name)).toEqual(['Camera trap 12', 'Stork nest N3']);
  });

  it('lists observations with their motion in the caller language, filtered by motion and recorder', async () => {
    const filters = await data<{ Motions: Behavior['Motion'][]; Recorders: { Recorder: string; RecorderName: string }[] }>(calls.GetBehaviorFilters, { imei: phone.imei }, { lang: 'zh' });
    expect(filters.Motions.slice(0, 2)).toMatchObject([{ Name: '觅食', IsDefault: true }, { Name: '休息', IsDefault: true }]);
    const dust = filters.Motions.find((m) => m.Name === 'Dust bathing');
    expect(dust).toMatchObject({ IsDefault: false });
    expect(filters.Recorders).toEqual([{ Recorder: '17', RecorderName: 'Li Wei' }, { Recorder: '23', RecorderName: 'Zhao Min' }]);
    // Bob's organisation has the defaults, not Ibis Lab's own motion.
    const bobFilters = await data<{ Motions: Behavior['Motion'][] }>(calls.GetBehaviorFilters, { imei: 'B-SHARED' }, { token: bob });
    expect(bobFilters.Motions.some((m) => m.Name === 'Dust bathing')).toBe(false);

    const all = await data<Page<Behavior>>(calls.GetBehaviorList, { imei: phone.imei, ...range });
    expect(all.Total).toBe(3);
    expect(all.List.map((b) => b.Motion.Name)).toEqual(['Dust bathing', 'Resting', 'Foraging']);
    expect(all.List[2]).toMatchObject({ Recorder: '17', RecorderName: 'Li Wei', StartTime: '2026-11-01 10:00:00', EndTime: '2026-11-01 10:20:00', Longitude: 118.951 });
    const foraging = filters.Motions[0]!;
    const onlyForaging = await data<Page<Behavior>>(calls.GetBehaviorList, { imei: phone.imei, ...range, motionId: foraging.Id });
    expect(onlyForaging.List.map((b) => b.StartTime)).toEqual(['2026-11-01 10:00:00']);
    expect(await data(calls.GetBehaviorCount, { imei: phone.imei, ...range, motionId: foraging.Id })).toEqual({ Count: 1 });
    expect(await data(calls.GetBehaviorCount, { imei: phone.imei, ...range, recorder: '23' })).toEqual({ Count: 1 });
    expect(await data(calls.GetBehaviorCount, { imei: phone.imei, ...range, recorder: '17', motionId: dust!.Id })).toEqual({ Count: 0 });
    const ascending = await data<Page<Behavior>>(calls.GetBehaviorList, { imei: phone.imei, ...range, sortField: 'EndTime', sortOrder: 'ascend', pageSize: 10 });
    expect(ascending.List.map((b) => b.Motion.Name)).toEqual(['Foraging', 'Resting', 'Dust bathing']);
  });

  it("shows a share's recipient only the records inside the window, and nothing of an ended share or a stranger's phone", async () => {
    const wide = { startTime: formatTime(now - 5 * DAY, ZONE), endTime: formatTime(now + HOUR, ZONE), timeZone: ZONE };
    const pois = await data<Page<Poi>>(calls.GetPoiList, { imei: 'B-SHARED', ...wide });
    expect(pois.List.map((p) => p.Name)).toEqual(['Point 1']);
    expect(await data(calls.GetBehaviorCount, { imei: 'B-SHARED', ...wide })).toEqual({ Count: 1 });
    expect(await data(calls.GetBehaviorCount, { imei: 'B-SHARED', ...wide }, { token: bob })).toEqual({ Count: 2 });
    for (const def of [calls.GetPoiList, calls.GetBehaviorList, calls.GetBehaviorCount]) {
      expect((await call(def, { imei: 'B-EXPIRED', ...wide })).Code).toBe(Code.NotFound);
      expect((await call(def, { imei: phone.imei, ...range }, { token: bob })).Code).toBe(Code.NotFound);
    }
  });

  it('answers bad input with 601 naming the field, in the caller language', async () => {
    const r1 = await call(calls.GetBehaviorList, { imei: phone.imei, ...range, recorder: 'Li Wei' });
    expect(r1.Code).toBe(Code.Invalid);
    expect(r1.Msg).toContain('recorder');
    const r2 = await call(calls.GetBehaviorCount, { imei: phone.imei, ...range, motionId: 0 }, { lang: 'zh' });
    expect(r2.Code).toBe(Code.Invalid);
    expect(r2.Msg).toContain('行为');
    const r3 = await call(calls.GetPoiList, { imei: phone.imei, startTime: range.endTime, endTime: range.startTime });
    expect(r3.Code).toBe(Code.Invalid);
    const r4 = await call(calls.GetPoiList, { imei: phone.imei, ...range, pageSize: 33 });
    expect(r4.Code).toBe(Code.Invalid);
    expect(r4.Msg).toMatch(/page size/i);
  });
});
