import { expect } from 'vitest';
import { API_BASE, calls, Code, DeviceStatus, DeviceType, type DownloadTask, type Fence, type IngestAnswer, LanguageId, signedHeaders, SpeciesType } from '@wildtrack/contract';
import { recordInstructionEvent } from '../../db/shared-writes.js';
import type { TestApp } from '../helper.js';
import type { deviceCalls } from '../device-calls.js';
import { now as clockNow, setClock } from '../clock.js';

/**
 * The rules that act on their own (issue 26 "Deliver as well" 2): what a share's recipient sets going while
 * the share is open and that later acts without a request of theirs. Each must ask for the recipient's right
 * at the moment it acts, so that a share revoked, narrowed, expired or ended with its sharer's account stops
 * it. self-acting.test.ts walks every rule of SELF_ACTING_RULES × every ending of GRANT_ENDINGS; a new kind of
 * rule is one more entry here (and a new background job must say in BACKGROUND_JOBS whose rights it acts
 * with, or the walk fails). The console's live stream, which never ends under app.inject, is walked with a
 * share that ends while connected by live/live.test.ts.
 */

export const ZONE = '+08:00';
const MIN = 60_000;
const HOUR = 60 * MIN;
/** A fix of the device outside and inside the rules' fences. */
const OUTSIDE = [120.9, 30.95] as const;
const INSIDE = [121.05, 31.05] as const;

/** One case's people and device: the sharer (a member of the device's organisation), its primary user, the recipient (another organisation). */
export interface GrantCase {
  t: TestApp;
  imei: string;
  deviceId: number;
  device: ReturnType<typeof deviceCalls>;
  primary: string;
  sharer: string;
  sharerId: number;
  recipient: string;
  recipientName: string;
  recipientEmail: string;
  shareId: string;
  /** The share's window (epoch ms). */
  window: { from: number; to: number };
  /** Mails the SMTP sink received so far, by recipient address. */
  mailsTo(address: string): number;
}

/** The right a rule acts with: one the share carries, or 'read' (any open share). */
export type RuleRight = 'RemoteInstr' | 'DownloadData' | 'read';

export interface SelfActingRule {
  name: string;
  right: RuleRight;
  /**
   * Sets the rule going as the recipient while the share is open; answers `act`, which makes the rule's
   * occasion happen (a fix crossing, an event, a fetch) and answers whether the rule acted.
   */
  arrange(c: GrantCase): Promise<{ act(): Promise<boolean> }>;
}

const fenceBody = (label: string, imei: string, ruleType: 1 | 2) => ({
  label,
  shape: ruleType === 1 ? { Type: 'Polygon', Coordinates: [[121, 31], [121.1, 31], [121.1, 31.1], [121, 31.1]] } : { Type: 'Circle', Center: [...INSIDE], Radius: 800 },
  inOrOut: 'BOTH',
  ruleType,
  allowSendInstr: 1,
  imeis: [imei],
  collection: { Mode: 'INTERVAL', IntervalMinutes: 5 },
  postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512 },
  timeZone: ZONE,
});

async function asRecipient<T>(c: GrantCase, def: (typeof calls)[keyof typeof calls], body: Record<string, unknown>): Promise<T> {
  const r = (await c.t.call(def.path, body, { token: c.recipient })).body;
  expect(r.Code, `${def.path}: ${r.Msg}`).toBe(Code.Success);
  return def.data.parse(r.Data) as T;
}

/** Fixes one minute apart, from an hour before the case's clock, so that each batch is newer than the last. */
function fixClock(start: number) {
  let at = start - HOUR;
  return () => (at += MIN);
}

export const SELF_ACTING_RULES: readonly SelfActingRule[] = [
  {
    name: 'server-side fence rule sending instructions',
    right: 'RemoteInstr',
    async arrange(c) {
      await asRecipient<Fence>(c, calls.CreateFence, fenceBody(`remote ${c.imei}`, c.imei, 1));
      const next = fixClock(clockNow());
      await c.device.batch(c.imei, [[next(), ...OUTSIDE]]);
      let inside = false;
      const sent = async () => Number((await c.t.database.db.selectFrom('instructions').select((eb) => eb.fn.countAll<number>().as('n')).where('device_id', '=', c.deviceId).executeTakeFirstOrThrow()).n);
      return {
        async act() {
          const before = await sent();
          inside = !inside;
          await c.device.batch(c.imei, [[next(), ...(inside ? INSIDE : OUTSIDE)]]);
          return (await sent()) > before;
        },
      };
    },
  },
  {
    name: 'device-side fence rule handed to the device',
    right: 'RemoteInstr',
    async arrange(c) {
      const fence = await asRecipient<Fence>(c, calls.CreateFence, fenceBody(`on-board ${c.imei}`, c.imei, 2));
      const next = fixClock(clockNow());
      const handed = (a: IngestAnswer) => (a.fenceRules ?? []).some((r) => r.fenceId === fence.Id && !r.removed);
      return { act: async () => handed(await c.device.batch(c.imei, [[next(), ...OUTSIDE]])) };
    },
  },
  {
    name: 'event e-mail to the recipient',
    right: 'read',
    async arrange(c) {
      const userId = Number((await c.t.database.db.selectFrom('users').select('id').where('user_name', '=', c.recipientName).executeTakeFirstOrThrow()).id);
      await c.t.database.db.updateTable('user_settings').set({ receive_email: 1 }).where('user_id', '=', userId).execute();
      const mail = c.t.services.eventMail;
      // the cursor placed past every event so far (another case's events are not this one's)
      await mail.tick();
      await mail.tick();
      let n = 0;
      return {
        async act() {
          const before = c.mailsTo(c.recipientEmail);
          await recordInstructionEvent(c.t.database.db, { deviceId: c.deviceId, instructionId: 100 + n++, type: 'SetWork', status: 'SENT', error: null, at: clockNow() });
          // seen on one pass, mailed on the next
          const sent = (await mail.tick()) + (await mail.tick());
          if (sent > 0) await expect.poll(() => c.mailsTo(c.recipientEmail), { timeout: 10_000 }).toBeGreaterThan(before);
          return c.mailsTo(c.recipientEmail) > before;
        },
      };
    },
  },
  {
    name: "download task's file fetched later",
    right: 'DownloadData',
    async arrange(c) {
      const text = (ms: number) => new Date(ms + 8 * HOUR).toISOString().slice(0, 19).replace('T', ' ');
      const task = await asRecipient<DownloadTask>(c, calls.CreateDownloadTask, {
        imeis: [c.imei], kinds: ['fix'], startTime: text(c.window.from), endTime: text(clockNow()), fileType: 'csv', timeZone: ZONE,
      });
      await expect
        .poll(async () => (await asRecipient<{ List: DownloadTask[] }>(c, calls.GetDownloadTaskListByPage, { currentPage: 1, pageSize: 20, timeZone: ZONE })).List.find((x) => x.IdStr === task.IdStr)?.Status)
        .toBe('SUCCESSFUL');
      return {
        async act() {
          const def = calls.DownloadDownloadTask;
          const body = JSON.stringify({ id: task.IdStr, timeZone: ZONE });
          const res = await c.t.app.inject({
            method: 'POST',
            url: API_BASE + def.path,
            headers: { ...signedHeaders({ token: c.recipient, path: def.path, body, lcid: LanguageId.en, now: clockNow() }), 'content-type': 'application/json' },
            payload: body,
          });
          return res.statusCode === 200 && String(res.headers['content-type']).includes('zip');
        },
      };
    },
  },
];

export interface GrantEnding {
  name: string;
  /** Whether the ending ends this rule's right (narrowing takes away one right; 'read' has none to take). */
  applies(rule: SelfActingRule): boolean;
  end(c: GrantCase, rule: SelfActingRule): Promise<void>;
}

const ok = async (r: Promise<{ body: { Code: number; Msg: string } }>, what: string) => {
  const b = (await r).body;
  expect(b.Code, `${what}: ${b.Msg}`).toBe(Code.Success);
};

export const GRANT_ENDINGS: readonly GrantEnding[] = [
  {
    name: 'revoked by its sharer',
    applies: () => true,
    end: (c) => ok(c.t.call(calls.RevokeShare.path, { shareIds: [c.shareId] }, { token: c.sharer }), 'revoke'),
  },
  {
    name: 'revoked by the primary user',
    applies: () => true,
    end: (c) => ok(c.t.call(calls.RevokeShare.path, { shareIds: [c.shareId] }, { token: c.primary }), 'revoke'),
  },
  {
    name: 'narrowed: the right taken away',
    applies: (rule) => rule.right !== 'read',
    end: (c, rule) => {
      const text = (ms: number) => new Date(ms + 8 * HOUR).toISOString().slice(0, 19).replace('T', ' ');
      const rights = { canEditDevice: true, canRemoteInstr: rule.right !== 'RemoteInstr', canDownloadData: rule.right !== 'DownloadData' };
      return ok(c.t.call(calls.UpdateShare.path, { shareId: c.shareId, effectiveTime: text(c.window.from), failureTime: text(c.window.to), ...rights, timeZone: ZONE }, { token: c.sharer }), 'update');
    },
  },
  {
    name: 'expired',
    applies: () => true,
    // the clock past the window's end; no job runs in between (every rule must ask as it acts)
    end: async (c) => {
      setClock(c.window.to + 10 * MIN);
    },
  },
  {
    name: 'its sharer disabled',
    applies: () => true,
    end: (c) => ok(c.t.call(calls.SetMemberEnabled.path, { memberId: String(c.sharerId), enabled: 0, timeZone: ZONE }, { token: c.primary }), 'disable'),
  },
];

/**
 * Every background job the server starts, and whose rights it acts with: 'nobody' (housekeeping, the
 * organisation's own work) or the rule of SELF_ACTING_RULES that walks it. A job not listed fails the walk.
 */
export const BACKGROUND_JOBS: Record<string, 'nobody' | string> = {
  'session sweep': 'nobody',
  'sign-in failure sweep': 'nobody',
  'nonce sweep': 'nobody',
  'QR sign-in sweep': 'nobody',
  'track segment build': 'nobody',
  // imports into its uploader's own organisation's devices and folders (a share grants no import)
  'movebank import': 'nobody',
  'instruction COMM_ERROR': 'nobody',
  'download tasks': "download task's file fetched later",
  'fence rules past their grant': 'nobody',
  'request code sweep': 'nobody',
  'acceleration archive': 'nobody',
  'media thumbnails': 'nobody',
  'event e-mail': 'event e-mail to the recipient',
  'verification code sweep': 'nobody',
  'device silence events': 'nobody',
  'live sample fleet': 'nobody',
};

/** Registers a device of the organisation for one case. */
export async function caseDevice(t: TestApp, orgId: number, imei: string): Promise<{ id: number; secret: string }> {
  const r = await t.services.devices.register({ orgId, imei, caption: imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'], instrSupport: [] });
  return { id: Number(r.id), secret: r.secret };
}
