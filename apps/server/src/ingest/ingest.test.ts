import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceType, INGEST_BASE, INGEST_MAX_FUTURE_MS, ingestHeaders, IngestHeader, packSamples, type IngestBatch, unpackBurstCounts } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';
import { now as clockNow, useFixedClock } from '../test/clock.js';
import { BASE } from '../test/fixed-time.js';

interface Dev {
  id: number;
  imei: string;
  secret: string;
}

describe.each(DIALECTS)('device ingest on %s', (dialect) => {
  let t: TestApp;
  let dev: Dev;
  let other: Dev;
  // The server's clock held at `now` (test/clock.ts): the devices sign and their records are dated from it.
  const now = BASE;
  useFixedClock(now);
  const T0 = now - 3600_000;

  const send = async (d: Dev, p: string, body: string | Buffer, opts: { contentType?: string; headers?: Record<string, string>; replayOf?: Record<string, string> } = {}) => {
    const headers = opts.replayOf ?? ingestHeaders({ imei: d.imei, secret: d.secret, path: INGEST_BASE + p, body: typeof body === 'string' ? body : new Uint8Array(body), now: clockNow() });
    const res = await t.app.inject({
      method: 'POST',
      url: INGEST_BASE + p,
      headers: { 'content-type': opts.contentType ?? 'application/json', ...headers, ...opts.headers },
      payload: body,
    });
    return { res, body: res.json(), headers };
  };
  const batch = (d: Dev, b: IngestBatch | string) => send(d, '/batch', typeof b === 'string' ? b : JSON.stringify(b));
  const count = async (table: 'fixes' | 'sensor_records' | 'acc_bursts' | 'media_records', deviceId: number) =>
    Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('device_id', '=', deviceId).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const org = await t.services.users.createUser({ orgName: 'Stork Lab', userName: 'storklab', password: 'Ciconia-boyc1' }).then(() => t.services.devices.orgIdByName('Stork Lab'));
    dev = await t.services.devices.register({ orgId: org, imei: '860000000000001', type: DeviceType.Tracker, sensors: ['GNSS', 'Acceleration', 'Temperature'] });
    other = await t.services.devices.register({ orgId: org, imei: '860000000000002', type: DeviceType.Tracker });
  });
  afterAll(async () => t.close());

  it('stores fixes, sensor records and bursts, marking out-of-range positions invalid rather than dropping them', async () => {
    const raw = Array.from({ length: 20 * 3 }, (_, i) => 2048 + Math.round(300 * Math.sin(i / 3)));
    const { res, body } = await batch(dev, {
      fixes: {
        t: [T0, T0 + 60_000, T0 + 120_000],
        lon: [121.5, 121.6, 200],
        lat: [31.2, 31.3, 31.3],
        alt: [10, 12, 11],
        speed: [3.5, -1, 2],
        voltage: [4.01, 4.02, 4.05],
        grade: [1, 2, 6],
      },
      sensors: [
        { kind: 'temperature', t: [T0, T0 + 600_000], v: [[21.5], [22.25]] },
        { kind: 'redInfrared', t: [T0], v: [[120, 340]] },
      ],
      bursts: [{ t: T0, hz: 20, axes: 'XYZ', samples: packSamples(raw) }],
    });
    expect(res.statusCode).toBe(200);
    expect(body).toMatchObject({ ok: true, accepted: { fixes: 3, sensors: 3, bursts: 1, media: 0 }, duplicates: 0, instructions: [] });
    const fixes = await t.database.db.selectFrom('fixes').selectAll().where('device_id', '=', dev.id).orderBy('pick_time').execute();
    expect(fixes.map((f) => f.valid)).toEqual([1, 1, 0]);
    expect(fixes[2]!.lon).toBe(200);
    expect(fixes[1]!.speed).toBeNull();
    const burst = await t.database.db.selectFrom('acc_bursts').selectAll().where('device_id', '=', dev.id).executeTakeFirstOrThrow();
    expect(burst.sample_count).toBe(20);
    // Packed (encoding 1): varint differences per axis, fewer bytes than int16 counts, and no stored ODBA.
    expect(burst.encoding).toBe(1);
    expect(Buffer.from(burst.samples).length).toBeLessThan(20 * 3 * 2);
    expect(Array.from(unpackBurstCounts(burst.samples, 'XYZ', 20))).toEqual(raw);
    expect(Buffer.from(burst.odba).length).toBe(0);
    expect(burst.mean_odba).toBeGreaterThan(0);
    const device = await t.database.db.selectFrom('devices').select(['last_work_time', 'last_voltage']).where('id', '=', dev.id).executeTakeFirstOrThrow();
    expect(device.last_work_time).toBe(T0 + 600_000);
    expect(device.last_voltage).toBe(4.05);
  });

  it('stores a record sent twice once, and says how many were duplicates', async () => {
    const b: IngestBatch = { fixes: { t: [T0, T0 + 180_000], lon: [121.5, 121.7], lat: [31.2, 31.4] } };
    const { body } = await batch(dev, b);
    expect(body).toMatchObject({ accepted: { fixes: 1 }, duplicates: 1 });
    expect(await count('fixes', dev.id)).toBe(4);
  });

  it('refuses an unknown IMEI, a bad signature and a stale timestamp, storing nothing', async () => {
    const b = JSON.stringify({ fixes: { t: [T0 + 240_000], lon: [1], lat: [1] } });
    const unknown = await send({ ...dev, imei: '999' }, '/batch', b);
    const wrongSecret = await send({ ...dev, secret: 'not-the-secret' }, '/batch', b);
    // The same answer for both, so that answers do not tell which IMEIs exist.
    expect(unknown.res.statusCode).toBe(401);
    expect(wrongSecret.res.statusCode).toBe(401);
    expect(unknown.body).toEqual(wrongSecret.body);
    expect(wrongSecret.body.error).toBe('bad_signature');
    const staleUnknown = ingestHeaders({ imei: '999', secret: 'x', path: `${INGEST_BASE}/batch`, body: b, now: clockNow() - 16 * 60_000 });
    expect((await send(dev, '/batch', b, { replayOf: staleUnknown })).body.error).toBe('stale_timestamp');
    // A body changed after signing: against its declared hash (refused as it ends), or, without one, by the signature.
    const signed = ingestHeaders({ imei: dev.imei, secret: dev.secret, path: `${INGEST_BASE}/batch`, body: b, now: clockNow() });
    const tampered = await send(dev, '/batch', b.replace('[1]', '[2]'), { replayOf: signed });
    expect(tampered.res.statusCode).toBe(400);
    expect(tampered.body.error).toBe('bad_body_hash');
    const signedFirstProtocol = ingestHeaders({ imei: dev.imei, secret: dev.secret, path: `${INGEST_BASE}/batch`, body: b, bodyHash: false, now: clockNow() });
    const tamperedFirstProtocol = await send(dev, '/batch', b.replace('[1]', '[2]'), { replayOf: signedFirstProtocol });
    expect(tamperedFirstProtocol.body.error).toBe('bad_signature');
    const stale = ingestHeaders({ imei: dev.imei, secret: dev.secret, path: `${INGEST_BASE}/batch`, body: b, now: clockNow() - 16 * 60_000 });
    expect((await send(dev, '/batch', b, { replayOf: stale })).body.error).toBe('stale_timestamp');
    const unsigned = await send(dev, '/batch', b, { replayOf: { [IngestHeader.imei]: dev.imei } });
    expect(unsigned.body.error).toBe('unsigned');
    expect(await count('fixes', dev.id)).toBe(4);
  });

  it('refuses a replayed batch', async () => {
    const b = JSON.stringify({ fixes: { t: [T0 + 300_000], lon: [121], lat: [31] } });
    const first = await send(dev, '/batch', b);
    expect(first.body.accepted.fixes).toBe(1);
    const again = await send(dev, '/batch', b, { replayOf: first.headers });
    expect(again.res.statusCode).toBe(409);
    expect(again.body).toEqual({ ok: false, error: 'replayed', reason: 'this nonce was used before' });
  });

  it('refuses NaN and Infinity, a time more than a day ahead, and ragged columns, storing none of the batch', async () => {
    const before = await count('fixes', dev.id);
    const inf = await batch(dev, '{"fixes":{"t":[1700000000000,1700000060000],"lon":[1,1e999],"lat":[1,1]}}');
    expect(inf.body).toEqual({ ok: false, error: 'bad_batch', reason: 'fixes.lon.1: NaN or Infinity' });
    const nan = await batch(dev, '{"fixes":{"t":[1700000000000],"lon":[NaN],"lat":[1]}}');
    expect(nan.body.error).toBe('bad_json');
    // a day ahead of the server's clock is the last time taken; a millisecond more is refused
    const future = await batch(dev, { fixes: { t: [now + INGEST_MAX_FUTURE_MS, now + INGEST_MAX_FUTURE_MS + 1], lon: [1, 2], lat: [1, 2] } });
    expect(future.res.statusCode).toBe(400);
    expect(future.body).toEqual({ ok: false, error: 'future_time', reason: `fixes[1]: ${new Date(now + INGEST_MAX_FUTURE_MS + 1).toISOString()} is more than a day in the future` });
    const ragged = await batch(dev, { fixes: { t: [T0 + 420_000, T0 + 480_000], lon: [1, 2], lat: [1, 2], alt: [5] } });
    expect(ragged.body).toEqual({ ok: false, error: 'bad_columns', reason: 'fixes.alt: 1 values for 2 fixes' });
    const badKind = await batch(dev, { sensors: [{ kind: 'redInfrared', t: [T0], v: [[1]] }] });
    expect(badKind.body.reason).toBe('sensors[0][0]: redInfrared records hold 2 value(s) (RedLight, InfraredLight)');
    const badShape = await batch(dev, '{"fixes":{"t":["yesterday"],"lon":[1],"lat":[1]}}');
    expect(badShape.body.error).toBe('bad_batch');
    expect(badShape.body.reason).toMatch(/^fixes\.t\.0: /);
    expect(await count('fixes', dev.id)).toBe(before);
  });

  it('refuses a batch over the size limit with 413', async () => {
    const big = JSON.stringify({ fixes: { t: [T0], lon: [1], lat: [1] }, pad: 'x'.repeat(9 * 1024 * 1024) });
    const { res, body } = await batch(dev, big);
    expect(res.statusCode).toBe(413);
    expect(body.error).toBe('too_large');
  });

  it('stores a media file under the data directory, once', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
    const p = `/media?kind=image&t=${T0}&lon=121.5&lat=31.2&width=64&height=48`;
    const first = await send(dev, p, jpeg, { contentType: 'image/jpeg' });
    expect(first.body).toMatchObject({ ok: true, accepted: { media: 1 }, duplicates: 0 });
    const row = await t.database.db.selectFrom('media_records').selectAll().where('device_id', '=', dev.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 1, size: 9, width: 64, height: 48, mime: 'image/jpeg' });
    expect(fs.readFileSync(path.join(t.dataDir, row.file))).toEqual(jpeg);
    const again = await send(dev, p, jpeg, { contentType: 'image/jpeg' });
    expect(again.body).toMatchObject({ accepted: { media: 0 }, duplicates: 1 });
    const bad = await send(dev, `/media?kind=smell&t=${T0}`, jpeg, { contentType: 'image/jpeg' });
    expect(bad.body.error).toBe('bad_media');
  });

  /** A body made as it is read, counting what the server pulled; `stall` stops after the first chunk. */
  const lazyBody = (size: number, opts: { stall?: boolean } = {}) => {
    const chunk = Buffer.alloc(64 * 1024, 0xab);
    let sent = 0;
    const stream = new Readable({
      read() {
        if (opts.stall && sent > 0) return;
        if (sent >= size) return void this.push(null);
        sent += chunk.length;
        this.push(chunk);
      },
    });
    return { stream, read: () => sent };
  };
  const mediaPath = (d: Dev, p: string) => ingestHeaders({ imei: d.imei, secret: d.secret, path: INGEST_BASE + p, body: '', now: clockNow() });

  it('refuses an unknown IMEI before reading the body, answering as for a bad signature', async () => {
    const p = `/media?kind=image&t=${T0}`;
    const body = lazyBody(32 * 1024 * 1024);
    const res = await t.app.inject({
      method: 'POST',
      url: INGEST_BASE + p,
      headers: { 'content-type': 'image/jpeg', 'content-length': String(32 * 1024 * 1024), ...mediaPath({ ...dev, imei: '869999999999999' }, p) },
      payload: body.stream,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ ok: false, error: 'bad_signature' });
    expect(body.read()).toBeLessThan(1024 * 1024);
    body.stream.destroy();
  });

  it('answers 503 busy when the bodies in flight would pass the bound, and takes uploads again once they end', async () => {
    const p = `/media?kind=image&t=${T0 + 1}`;
    const size = 32 * 1024 * 1024;
    const start = (d: Dev) => {
      const body = lazyBody(size, { stall: true });
      const done = t.app.inject({
        method: 'POST',
        url: INGEST_BASE + p,
        headers: { 'content-type': 'image/jpeg', 'content-length': String(size), ...mediaPath(d, p) },
        payload: body.stream,
      });
      return { body, done };
    };
    // two devices' files fill the allowance (one device alone holds at most a file and a batch: ingest-slow.test.ts)
    const a = start(dev);
    const b = start(other);
    await expect.poll(() => a.body.read() > 0 && b.body.read() > 0).toBe(true);
    const c = start(dev);
    const refused = await c.done;
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.json()).toMatchObject({ ok: false, error: 'busy' });
    expect(c.body.read()).toBeLessThan(1024 * 1024);
    c.body.stream.destroy();
    // the two uploads end short of their declared length: refused, and their room given back
    a.body.stream.push(null);
    b.body.stream.push(null);
    expect((await a.done).statusCode).toBe(400);
    expect((await b.done).statusCode).toBe(400);
    const small = await batch(dev, { fixes: { t: [T0 + 590_000], lon: [121], lat: [31] } });
    expect(small.res.statusCode).toBe(200);
  });

  it('refuses a media file dated more than a day ahead, keeping the device last-work time and voltage', async () => {
    const before = await t.database.db.selectFrom('devices').select(['last_work_time', 'last_voltage']).where('id', '=', dev.id).executeTakeFirstOrThrow();
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
    const future = Date.UTC(2286, 0, 1);
    const res = await send(dev, `/media?kind=image&t=${future}`, jpeg, { contentType: 'image/jpeg' });
    expect(res.res.statusCode).toBe(400);
    expect(res.body.error).toBe('future_time');
    expect(res.body.reason).toMatch(/^media\.t: 2286-01-01T00:00:00\.000Z/);
    const after = await t.database.db.selectFrom('devices').select(['last_work_time', 'last_voltage']).where('id', '=', dev.id).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
    expect(await t.database.db.selectFrom('media_records').select('file').where('device_id', '=', dev.id).where('pick_time', '=', future).execute()).toEqual([]);
  });

  it('hands out pending instructions with every answer and takes the device acknowledgement', async () => {
    const repo = (t.services.ingest as unknown as { instructions: { create: (d: number, ty: string, p: unknown, u: null, n: number) => Promise<number> } }).instructions;
    const params = { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 30 } };
    const id = await repo.create(dev.id, 'ACQUISITION_FREQUENCY', params, null, clockNow());
    const { body } = await batch(dev, { fixes: { t: [T0 + 540_000], lon: [121], lat: [31] } });
    expect(body.instructions).toEqual([{ id, type: 'ACQUISITION_FREQUENCY', params, timeZone: '+00:00', sentAt: expect.any(Number) }]);
    const foreign = await send(other, '/ack', JSON.stringify({ id, outcome: 'SUCCESSFUL', executedAt: clockNow() }));
    expect(foreign.res.statusCode).toBe(404);
    const ack = await send(dev, '/ack', JSON.stringify({ id, outcome: 'SUCCESSFUL', executedAt: clockNow() }));
    expect(ack.body).toMatchObject({ ok: true, instructions: [] });
    const row = await t.database.db.selectFrom('instructions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('SUCCESSFUL');
    expect(row.delivered_at).not.toBeNull();
    expect((await send(dev, '/ack', JSON.stringify({ id, outcome: 'FAILED', executedAt: clockNow() }))).res.statusCode).toBe(404);
  });
});
