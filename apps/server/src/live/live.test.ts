import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, DeviceType, EventType, INGEST_BASE, ingestHeaders, type LiveMessage } from '@wildtrack/contract';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { recordInstructionEvent } from '../db/shared-writes.js';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';
import { redisAnswers, TEST_REDIS_URL } from '../test/redis.js';
import { NOW } from '../test/fixed-time.js';
import { advanceClock, now as clockNow, useFixedClock } from '../test/clock.js';
import { openLiveReader } from './live-client.js';

/**
 * Live delivery to the console (issue 15 item 5) over a real HTTP stream: who gets which message, the
 * catch-up after a reconnect (and after a restart), a share ending while connected, sign-out.
 */
describe.each(DIALECTS)('the live stream on %s', (dialect) => {
  let t: TestApp;
  let base = '';
  let owner: { token: string };
  let stranger: { token: string };
  let recipient: { token: string };
  let dev: { id: number; imei: string; secret: string };
  let shared: { id: number; imei: string; secret: string };
  let lately: { id: number; imei: string; secret: string };
  let ownerId = 0;
  let recipientId = 0;
  // Shares' windows are read on the server's clock at each delivery: fixed at NOW, moved on where a share ends.
  useFixedClock(NOW);
  const T0 = NOW - 3600_000;
  let step = 0;

  const upload = async (d: { imei: string; secret: string }, lon: number, lat: number, at = T0 + ++step * 60_000) => {
    const body = JSON.stringify({ fixes: { t: [at], lon: [lon], lat: [lat], alt: [10] } });
    const res = await t.app.inject({
      method: 'POST',
      url: `${INGEST_BASE}/batch`,
      headers: { 'content-type': 'application/json', ...ingestHeaders({ imei: d.imei, secret: d.secret, path: `${INGEST_BASE}/batch`, body, now: clockNow() }) },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const userId = async (org: string) =>
    Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', await t.services.devices.orgIdByName(org)).executeTakeFirstOrThrow()).id);
  const isFix = (imei: string, lon: number) => (m: LiveMessage) => m.type === 'fix' && m.imei === imei && m.lon === lon;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    owner = await t.userWithToken({ org: 'Live Owner' });
    stranger = await t.userWithToken({ org: 'Live Stranger' });
    recipient = await t.userWithToken({ org: 'Live Recipient' });
    const org = await t.services.devices.orgIdByName('Live Owner');
    ownerId = await userId('Live Owner');
    recipientId = await userId('Live Recipient');
    dev = await t.services.devices.register({ orgId: org, imei: '861000000000001', type: DeviceType.Tracker });
    shared = await t.services.devices.register({ orgId: org, imei: '861000000000002', type: DeviceType.Tracker });
    lately = await t.services.devices.register({ orgId: org, imei: '861000000000003', type: DeviceType.Tracker });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const addr = t.app.server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    await t.app.close();
    await t.close();
  });

  it('refuses a stream without a session (1004 or a bad signature), with a bad query (601 naming the field)', async () => {
    const none = await openLiveReader(base, undefined);
    expect(none.refusal?.Code).toBe(Code.SessionExpired);
    const forged = await openLiveReader(base, `${owner.token.split('.')[0]}.not-the-token`);
    expect(forged.refusal?.Code).toBe(Code.BadSignature);
    const bad = await openLiveReader(base, owner.token, { event: 'x' });
    expect(bad.refusal?.Code).toBe(Code.Invalid);
    expect(bad.refusal?.Msg).toMatch(/event/);
  });

  it("delivers a new fix and a new event of the owner's device to the owner, and nothing of it to a stranger", async () => {
    const mine = await openLiveReader(base, owner.token);
    const theirs = await openLiveReader(base, stranger.token);
    await mine.waitFor((m) => m.type === 'ready');
    await theirs.waitFor((m) => m.type === 'ready');
    await upload(dev, 116.5, 40.1);
    const fix = await mine.waitFor(isFix(dev.imei, 116.5));
    expect(fix).toMatchObject({ type: 'fix', imei: dev.imei, lon: 116.5, lat: 40.1 });
    await recordInstructionEvent(t.database.db, { deviceId: dev.id, instructionId: 1, type: 'SetWork', status: 'SUCCESSFUL', at: clockNow() });
    const event = await mine.waitFor((m) => m.type === 'event' && m.imei === dev.imei);
    expect(event).toMatchObject({ eventType: EventType.Instr });
    // The stranger's stream was open all along, and heard only its own start.
    await t.services.live.pollEvents();
    expect(theirs.messages.map((m) => m.type)).toEqual(['ready']);
    mine.close();
    theirs.close();
  });

  it('catches up what a console missed while away (fixes from the log, events from the table), and after a restart events from the table', async () => {
    const first = await openLiveReader(base, owner.token);
    const ready = (await first.waitFor((m) => m.type === 'ready')) as Extract<LiveMessage, { type: 'ready' }>;
    first.close();
    await first.ended;
    await upload(dev, 117.25, 40.2);
    await recordInstructionEvent(t.database.db, { deviceId: dev.id, instructionId: 2, type: 'SetWork', status: 'FAILED', at: clockNow() });
    const back = await openLiveReader(base, owner.token, { event: ready.cursor.event, fix: ready.cursor.fix });
    await back.waitFor(isFix(dev.imei, 117.25));
    const missed = await back.waitFor((m) => m.type === 'event');
    expect(missed.type === 'event' && missed.eventId).toBeGreaterThan(ready.cursor.event);
    back.close();

    // A second server on the same database (a restart): events are replayed from the table; the fix log of the
    // first process is not there (no Redis), so the console is told to read its last positions again.
    const config = loadConfig({ LOG_LEVEL: 'silent', WILDTRACK_DATA: t.dataDir, WEB_DIST: `${t.dataDir}/no-web`, SIGN_IN_RATE_LIMIT: '0' });
    const restarted = await buildApp(config, t.database, { jobs: false });
    await restarted.app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const addr = restarted.app.server.address();
      const other = await openLiveReader(`http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`, owner.token, { event: ready.cursor.event, fix: ready.cursor.fix });
      const again = await other.waitFor((m) => m.type === 'event');
      expect(again.type === 'event' && again.eventId).toBe(missed.type === 'event' && missed.eventId);
      await other.waitFor((m) => m.type === 'resync' && m.what === 'fix');
      other.close();
    } finally {
      await restarted.app.close();
    }
  });

  it('stops the messages of a shared device once the share has ended, while the console stays connected', async () => {
    const now = NOW;
    const failure = now + 2_500;
    await t.database.db
      .insertInto('device_shares')
      .values({ device_id: shared.id, owner_user_id: ownerId, recipient_user_id: recipientId, edit_device: 0, remote_instr: 0, download_data: 0, effective_time: T0, failure_time: failure, created_at: now })
      .execute();
    const live = await openLiveReader(base, recipient.token);
    await live.waitFor((m) => m.type === 'ready');
    await upload(shared, 118.5, 41);
    await live.waitFor(isFix(shared.imei, 118.5));
    await recordInstructionEvent(t.database.db, { deviceId: shared.id, instructionId: 3, type: 'SetWork', status: 'SUCCESSFUL', at: clockNow() });
    await live.waitFor((m) => m.type === 'event' && m.imei === shared.imei);
    // The share ends (the recipient's console stays open): the clock moves past its end, nobody waits for it.
    advanceClock(failure + 1 - clockNow());
    const owners = await openLiveReader(base, owner.token);
    await owners.waitFor((m) => m.type === 'ready');
    await upload(shared, 118.75, 41.5);
    await recordInstructionEvent(t.database.db, { deviceId: shared.id, instructionId: 4, type: 'SetWork', status: 'FAILED', at: clockNow() });
    // The owner gets both; by then the recipient's stream has had its chance, and got neither.
    await owners.waitFor(isFix(shared.imei, 118.75));
    await owners.waitFor((m) => m.type === 'event' && m.imei === shared.imei && m.eventId > 0 && owners.messages.filter((x) => x.type === 'event').length >= 1);
    await t.services.live.pollEvents();
    expect(live.messages.filter((m) => m.type === 'fix').map((m) => m.type === 'fix' && m.lon)).toEqual([118.5]);
    expect(live.messages.filter((m) => m.type === 'event')).toHaveLength(1);
    expect(live.isEnded()).toBe(false);
    live.close();
    owners.close();
  });

  it("tells a share's recipient at once that the share was revoked ('access': read the tree again), and then nothing more of the device", async () => {
    const org = await t.services.devices.orgIdByName('Live Owner');
    const gone = await t.services.devices.register({ orgId: org, imei: '861000000000004', type: DeviceType.Tracker });
    const { id: shareId } = await t.database.db
      .insertInto('device_shares')
      .values({ device_id: gone.id, owner_user_id: ownerId, recipient_user_id: recipientId, edit_device: 0, remote_instr: 0, download_data: 0, effective_time: clockNow() - 60_000, failure_time: clockNow() + 3600_000, created_at: clockNow() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const live = await openLiveReader(base, recipient.token);
    const others = await openLiveReader(base, stranger.token);
    await live.waitFor((m) => m.type === 'ready');
    await others.waitFor((m) => m.type === 'ready');
    await upload(gone, 120.5, 43, clockNow() - 1_000);
    await live.waitFor(isFix(gone.imei, 120.5));
    const revoked = await t.call(calls.RevokeShare.path, { shareIds: [String(shareId)] }, { token: owner.token });
    expect(revoked.body.Code, revoked.body.Msg).toBe(Code.Success);
    // told without waiting for the stream's periodic refresh (30 s) and with the clock standing still
    await live.waitFor((m) => m.type === 'access');
    const owners = await openLiveReader(base, owner.token);
    await owners.waitFor((m) => m.type === 'ready');
    await upload(gone, 120.75, 43.5, clockNow() - 500);
    await owners.waitFor(isFix(gone.imei, 120.75));
    expect(live.messages.filter((m) => m.type === 'fix' && m.imei === gone.imei).map((m) => m.type === 'fix' && m.lon)).toEqual([120.5]);
    // a stream without that share is not told
    expect(others.messages.some((m) => m.type === 'access')).toBe(false);
    live.close();
    others.close();
    owners.close();
  });

  it("gives a share's recipient only what its window covers, as the calls do (the one read rule): a fix or an event taken before it begins is not delivered", async () => {
    const now = NOW;
    const effective = now - 60_000;
    await t.database.db
      .insertInto('device_shares')
      .values({ device_id: lately.id, owner_user_id: ownerId, recipient_user_id: recipientId, edit_device: 0, remote_instr: 0, download_data: 0, effective_time: effective, failure_time: now + 3600_000, created_at: now })
      .execute();
    const live = await openLiveReader(base, recipient.token);
    await live.waitFor((m) => m.type === 'ready');
    // A backlog the device uploads late: taken before the window (the fix calls answer none of it to the recipient) ...
    await upload(lately, 119.5, 42, effective - 30 * 60_000);
    await recordInstructionEvent(t.database.db, { deviceId: lately.id, instructionId: 5, type: 'SetWork', status: 'SENT', at: effective - 30 * 60_000 });
    // ... then inside it.
    await upload(lately, 119.75, 42.5, effective + 1_000);
    await recordInstructionEvent(t.database.db, { deviceId: lately.id, instructionId: 6, type: 'SetWork', status: 'SUCCESSFUL', at: effective + 1_000 });
    await live.waitFor(isFix(lately.imei, 119.75));
    const inside = await live.waitFor((m) => m.type === 'event' && m.imei === lately.imei);
    await t.services.live.pollEvents();
    expect(live.messages.filter((m) => m.type === 'fix' && m.imei === lately.imei).map((m) => m.type === 'fix' && m.lon)).toEqual([119.75]);
    expect(live.messages.filter((m) => m.type === 'event' && m.imei === lately.imei).map((m) => m.type === 'event' && m.happenTime)).toEqual([effective + 1_000]);
    // The event list answers the recipient the same one event of the device.
    const { body: list } = await t.call(calls.GetEventListByPage.path, { imei: lately.imei, currentPage: 1, pageSize: 10 }, { token: recipient.token });
    expect(list.Code, list.Msg).toBe(Code.Success);
    expect((list.Data as { List: { Id: number }[] }).List.map((e) => e.Id)).toEqual([inside.type === 'event' && inside.eventId]);
    live.close();
  });

  it("delivers a notice to its organisation's consoles (and one to all to everyone), replayed on reconnect; an event the user unsubscribed from is not delivered", async () => {
    const mine = await openLiveReader(base, owner.token);
    const theirs = await openLiveReader(base, stranger.token);
    const ready = (await theirs.waitFor((m) => m.type === 'ready')) as Extract<LiveMessage, { type: 'ready' }>;
    await mine.waitFor((m) => m.type === 'ready');
    const toOwner = await t.services.notices.send({ title: 'Owners only', body: 'x', orgName: 'Live Owner' });
    const toAll = await t.services.notices.send({ title: 'Everyone', body: 'y' });
    await mine.waitFor((m) => m.type === 'notice' && m.noticeId === toOwner);
    await mine.waitFor((m) => m.type === 'notice' && m.noticeId === toAll);
    await theirs.waitFor((m) => m.type === 'notice' && m.noticeId === toAll);
    expect(theirs.messages.some((m) => m.type === 'notice' && m.noticeId === toOwner)).toBe(false);
    theirs.close();
    const back = await openLiveReader(base, stranger.token, { notice: ready.cursor.notice });
    await back.waitFor((m) => m.type === 'notice' && m.noticeId === toAll);
    back.close();

    // A notice to one user (a download's "ready"): their console gets it, another member of their organisation's does not, live or replayed.
    const mate = await t.userWithToken({ org: 'Live Owner' });
    const mates = await openLiveReader(base, mate.token);
    const mateReady = (await mates.waitFor((m) => m.type === 'ready')) as Extract<LiveMessage, { type: 'ready' }>;
    const toOwnerAlone = await t.services.notices.sendToUser(ownerId, { title: { key: 'downloadTask.ready' }, body: { key: 'downloadTask.failed', params: { id: 1 } } });
    const toOrgAfter = await t.services.notices.send({ title: 'Owners again', body: 'z', orgName: 'Live Owner' });
    await mine.waitFor((m) => m.type === 'notice' && m.noticeId === toOwnerAlone);
    await mates.waitFor((m) => m.type === 'notice' && m.noticeId === toOrgAfter);
    expect(mates.messages.some((m) => m.type === 'notice' && m.noticeId === toOwnerAlone)).toBe(false);
    mates.close();
    const mateBack = await openLiveReader(base, mate.token, { notice: mateReady.cursor.notice });
    await mateBack.waitFor((m) => m.type === 'notice' && m.noticeId === toOrgAfter);
    expect(mateBack.messages.some((m) => m.type === 'notice' && m.noticeId === toOwnerAlone)).toBe(false);
    mateBack.close();

    // Instruction events off for this device (EventSubscribe): none arrives; a Device event still does.
    expect((await t.call(calls.SetEventSubscribe.path, { imei: dev.imei, FenceEvent: true, InstrEvent: false, FixUpdateEvent: true }, { token: owner.token })).body.Code).toBe(Code.Success);
    await recordInstructionEvent(t.database.db, { deviceId: dev.id, instructionId: 9, type: 'SetWork', status: 'SUCCESSFUL', at: clockNow() });
    await t.database.db.insertInto('events').values({ device_id: dev.id, type: EventType.Device, happen_time: clockNow(), content: JSON.stringify({ key: 'batteryLow', percent: 8 }) }).execute();
    const device = await mine.waitFor((m) => m.type === 'event' && m.eventType === EventType.Device);
    await t.services.live.pollEvents();
    const instr = mine.messages.filter((m) => m.type === 'event' && m.eventType === EventType.Instr && device.type === 'event' && m.eventId > device.eventId - 2);
    expect(instr).toEqual([]);
    mine.close();
  });

  it('tells every subscriber of stored fixes: two more added, the console still gets the fix', async () => {
    const heard: [string, number, number, number | null][] = [];
    const stops = [
      t.services.ingest.onFixesStored((deviceId, newest) => void heard.push(['first', deviceId, newest.time, newest.lon])),
      t.services.ingest.onFixesStored(() => {
        throw new Error('a subscriber failed');
      }),
      t.services.ingest.onFixesStored((deviceId, newest) => void heard.push(['second', deviceId, newest.time, newest.lon])),
    ];
    try {
      const mine = await openLiveReader(base, owner.token);
      await mine.waitFor((m) => m.type === 'ready');
      await upload(dev, 118.75, 40.3);
      const at = T0 + step * 60_000;
      expect(heard).toEqual([['first', dev.id, at, 118.75], ['second', dev.id, at, 118.75]]);
      await mine.waitFor(isFix(dev.imei, 118.75));
      mine.close();
    } finally {
      for (const stop of stops) stop();
    }
  });

  it('closes the stream when its session signs out, and tells each subscriber of sign-outs', async () => {
    const who = await t.userWithToken({ org: 'Live Owner' });
    const heard: number[] = [];
    const stop = t.services.auth.onSignOut((sessionId) => void heard.push(sessionId));
    try {
      const live = await openLiveReader(base, who.token);
      await live.waitFor((m) => m.type === 'ready');
      expect((await t.call(calls.Exit.path, {}, { token: who.token })).body.Code).toBe(Code.Success);
      await live.ended;
      expect(live.isEnded()).toBe(true);
      expect(heard).toEqual([expect.any(Number)]);
    } finally {
      stop();
    }
  });
});

const REDIS = await redisAnswers();
if (!REDIS) console.warn(`live.test.ts: the Redis case is skipped: no Redis answers at ${TEST_REDIS_URL} (set REDIS_URL)`);

describe.skipIf(!REDIS)('the live stream with REDIS_URL', () => {
  let t: TestApp;
  const prefix = `wildtrack-live-test-${process.pid}-${randomBytes(4).toString('hex')}:`;
  // The fix's time and the signatures on the server's clock: fixed at NOW.
  useFixedClock(NOW);
  beforeAll(async () => {
    t = await createTestApp('sqlite', { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix });
  });
  afterAll(async () => {
    await t.close();
    // The test's own log key goes with it.
    const c = createClient({ url: TEST_REDIS_URL });
    await c.connect();
    await c.del(`${prefix}live:fixes`);
    await c.close();
  });

  it('catches up the fixes a console missed from the Redis log, also through a restarted server', async () => {
    const owner = await t.userWithToken({ org: 'Live Redis' });
    const dev = await t.services.devices.register({ orgId: await t.services.devices.orgIdByName('Live Redis'), imei: '861000000000009', type: DeviceType.Tracker });
    const listen = async (app: typeof t.app) => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const addr = app.server.address();
      return `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
    };
    const first = await openLiveReader(await listen(t.app), owner.token);
    const ready = (await first.waitFor((m) => m.type === 'ready')) as Extract<LiveMessage, { type: 'ready' }>;
    first.close();
    const body = JSON.stringify({ fixes: { t: [NOW - 60_000], lon: [119.5], lat: [30.5], alt: [5] } });
    const res = await t.app.inject({
      method: 'POST',
      url: `${INGEST_BASE}/batch`,
      headers: { 'content-type': 'application/json', ...ingestHeaders({ imei: dev.imei, secret: dev.secret, path: `${INGEST_BASE}/batch`, body, now: clockNow() }) },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    // Published asynchronously after the batch: wait until the log holds it.
    await expect.poll(async () => ((await t.services.live.bus.after(ready.cursor.fix)) ?? []).length, { timeout: 10_000 }).toBe(1);
    const config = loadConfig({ LOG_LEVEL: 'silent', WILDTRACK_DATA: t.dataDir, WEB_DIST: `${t.dataDir}/no-web`, SIGN_IN_RATE_LIMIT: '0', REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix });
    const restarted = await buildApp(config, t.database, { jobs: false });
    try {
      const back = await openLiveReader(await listen(restarted.app), owner.token, { fix: ready.cursor.fix });
      const fix = await back.waitFor((m) => m.type === 'fix');
      expect(fix).toMatchObject({ imei: dev.imei, lon: 119.5, lat: 30.5 });
      expect(back.messages.some((m) => m.type === 'resync')).toBe(false);
      back.close();
    } finally {
      await restarted.app.close();
    }
  });
});
