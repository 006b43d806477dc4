import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calls, Code, type ShareRecord } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../helper.js';
import { deviceCalls } from '../device-calls.js';
import { BACKGROUND_JOBS, caseDevice, GRANT_ENDINGS, type GrantCase, SELF_ACTING_RULES, ZONE } from './self-acting.js';
import { useFixedClock } from '../clock.js';

/** The jobs buildApp starts, by name (jobs/runner.ts startJobs, wrapped). */
const started = vi.hoisted(() => new Set<string>());
vi.mock(import('../../jobs/runner.js'), async (original) => {
  const actual = await original();
  return {
    ...actual,
    startJobs: (app, jobs) => {
      for (const j of jobs) started.add(j.name);
      actual.startJobs(app, jobs);
    },
  };
});

/** 2026-11-20 10:00 in +08:00: every case's clock (Date only), its share open from an hour before to an hour after. */
const T0 = Date.UTC(2026, 10, 20, 2, 0, 0);
const HOUR = 3_600_000;
const text = (ms: number) => new Date(ms + 8 * HOUR).toISOString().slice(0, 19).replace('T', ' ');

const CASES = SELF_ACTING_RULES.flatMap((rule) => GRANT_ENDINGS.filter((e) => e.applies(rule)).map((ending) => [`${rule.name}, the share ${ending.name}`, rule, ending] as const));

describe('every background job says whose rights it acts with', () => {
  it('each job buildApp starts is in BACKGROUND_JOBS, and a job acting for a recipient names a walked rule', async () => {
    const t = await createTestApp('sqlite', { DOWNLOAD_TASKS: 'off' });
    try {
      expect(started.size).toBeGreaterThan(5);
      const unknown = [...started].filter((name) => !(name in BACKGROUND_JOBS));
      expect(unknown, 'a background job the self-acting walk does not know: add it to BACKGROUND_JOBS (harness/self-acting.ts)').toEqual([]);
      const rules = new Set(SELF_ACTING_RULES.map((r) => r.name));
      for (const [job, rule] of Object.entries(BACKGROUND_JOBS)) if (rule !== 'nobody') expect(rules.has(rule), `${job} → ${rule}`).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe.each(DIALECTS)('rules that act on their own stop when the grant ends, on %s', (dialect) => {
  let t: TestApp;
  let primary: string;
  let ownerOrg: number;
  const mails: string[] = [];
  let sink: SMTPServer;
  let n = 0;

  // The server's clock (and the signatures) fixed at T0 for each test and the data made before them.
  useFixedClock(T0);
  beforeAll(async () => {
    sink = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, done) {
        simpleParser(stream)
          .then((m) => {
            for (const a of Array.isArray(m.to) ? m.to : m.to ? [m.to] : []) for (const v of a.value) mails.push(v.address ?? '');
            done();
          })
          .catch(done);
      },
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    const port = (sink.server.address() as { port: number }).port;
    t = await createTestApp(dialect, { SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=1`, MAIL_FROM: 'Wildtrack <noreply@wildtrack.test>' });
    const p = await t.userWithToken({ org: 'Grant Owner' });
    primary = p.token;
    await t.database.db.updateTable('users').set({ is_primary: 1 }).where('user_name', '=', p.userName).execute();
    ownerOrg = await t.services.devices.orgIdByName('Grant Owner');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((resolve) => sink.close(() => resolve()));
  });

  it.each(CASES)('%s', async (_name, rule, ending) => {
    n += 1;
    const imei = `GRANT-${n}`;
    const sharer = await t.userWithToken({ org: 'Grant Owner' });
    const email = `recipient${n}@example.org`;
    const recipient = await t.userWithToken({ org: `Grant Recipient ${n}`, email });
    const sharerId = Number((await t.database.db.selectFrom('users').select('id').where('user_name', '=', sharer.userName).executeTakeFirstOrThrow()).id);
    const { id, secret } = await caseDevice(t, ownerOrg, imei);
    const window = { from: T0 - HOUR, to: T0 + HOUR };
    const shared = await t.call(calls.CreateShare.path, {
      imeis: [imei], account: recipient.userName, effectiveTime: text(window.from), failureTime: text(window.to), canEditDevice: true, canRemoteInstr: true, canDownloadData: true, timeZone: ZONE,
    }, { token: sharer.token });
    expect(shared.body.Code, shared.body.Msg).toBe(Code.Success);
    const list = (await t.call(calls.GetSharedListByPage.path, { timeZone: ZONE }, { token: sharer.token })).body.Data as { List: ShareRecord[] };
    const c: GrantCase = {
      t, imei, deviceId: id, device: deviceCalls(() => t, new Map([[imei, secret]])), primary, sharer: sharer.token, sharerId,
      recipient: recipient.token, recipientName: recipient.userName, recipientEmail: email, shareId: list.List.find((s) => s.IMEI === imei)!.IdStr, window,
      mailsTo: (address) => mails.filter((m) => m === address).length,
    };
    const probe = await rule.arrange(c);
    expect(await probe.act(), 'the rule did not act while the share was open: the case tests nothing').toBe(true);
    await ending.end(c, rule);
    expect(await probe.act(), `${rule.name} acted after the share was ${ending.name}`).toBe(false);
  });
});
