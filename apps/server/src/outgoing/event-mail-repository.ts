import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ShareGrant } from '../modules/device/access.js';

/** An event to mail, with its device's name and organisation. */
export interface MailEventRow {
  id: number;
  deviceId: number;
  orgId: number;
  imei: string;
  caption: string;
  type: number;
  happenTime: number;
  content: string;
}

/** A user who asked for e-mail (ReceiveNotification.Email) and may read some of the batch's devices. */
export interface MailRecipient {
  userId: number;
  email: string;
  lcid: number;
  zone: string;
  orgId: number;
  /** The shares to the user open now on the batch's devices (their window; the read rule picks, modules/device/access.ts). */
  shares: ShareGrant[];
}

/** The reads and the claim behind event e-mail (outgoing/event-mail.ts). */
export class MailRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Claims the next batch of events for the job `name`: the ids after the cursor up to the newest id the
   * previous pass saw, moved in one conditional update (the claim: of two processes one moves it). The
   * first pass ever starts from now (no mail about history). Null when nothing was claimed.
   */
  async claimBatch(name: string): Promise<{ after: number; upTo: number } | null> {
    const max = Number((await this.db.selectFrom('events').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst())?.m ?? 0);
    const row = await this.db.selectFrom('event_mail_cursor').select(['last_event_id', 'seen_max_id']).where('name', '=', name).executeTakeFirst();
    if (!row) {
      await this.db.insertInto('event_mail_cursor').values({ name, last_event_id: max, seen_max_id: max }).onConflict((oc) => oc.column('name').doNothing()).execute();
      return null;
    }
    const last = Number(row.last_event_id);
    const seen = Number(row.seen_max_id);
    if (seen === last && max === seen) return null;
    const r = await this.db
      .updateTable('event_mail_cursor')
      .set({ last_event_id: seen, seen_max_id: max })
      .where('name', '=', name)
      .where('last_event_id', '=', last)
      .where('seen_max_id', '=', seen)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1 || seen === last) return null;
    return { after: last, upTo: seen };
  }

  /** The batch's events of devices outside the sample fleet (examples are not mailed). */
  async events(after: number, upTo: number): Promise<MailEventRow[]> {
    const rows = await this.db
      .selectFrom('events as e')
      .innerJoin('devices as d', 'd.id', 'e.device_id')
      .innerJoin('organisations as o', 'o.id', 'd.org_id')
      .select(['e.id', 'e.device_id', 'd.org_id', 'd.imei', 'd.caption', 'e.type', 'e.happen_time', 'e.content'])
      .where('e.id', '>', after)
      .where('e.id', '<=', upTo)
      .where('o.is_samples', '=', 0)
      .orderBy('e.id')
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      deviceId: Number(r.device_id),
      orgId: Number(r.org_id),
      imei: r.imei,
      caption: r.caption,
      type: Number(r.type),
      happenTime: Number(r.happen_time),
      content: r.content,
    }));
  }

  /**
   * Users with e-mail on and an address who may read one of these devices now, for the read rule to decide
   * each event (outgoing/event-mail.ts): the users of the devices' organisations, and those with a share open now on one
   * of them. Only enabled accounts: a disabled one can't sign in to read anything (its sessions ended with it).
   */
  async recipients(orgIds: readonly number[], deviceIds: readonly number[], now: number): Promise<MailRecipient[]> {
    const out = new Map<number, MailRecipient>();
    const base = () =>
      this.db
        .selectFrom('users as u')
        .innerJoin('user_settings as s', 's.user_id', 'u.id')
        .select(['u.id', 'u.email', 'u.org_id', 's.lcid', 's.time_zone'])
        .where('s.receive_email', '=', 1)
        .where('u.enabled', '=', 1)
        .where('u.email', 'is not', null)
        .where('u.email', '!=', '');
    const add = (r: { id: number; email: string | null; org_id: number; lcid: number; time_zone: string }) => {
      const id = Number(r.id);
      const got = out.get(id) ?? { userId: id, email: r.email ?? '', lcid: Number(r.lcid), zone: r.time_zone, orgId: Number(r.org_id), shares: [] };
      out.set(id, got);
      return got;
    };
    if (orgIds.length > 0) for (const r of await base().where('u.org_id', 'in', [...orgIds]).execute()) add(r);
    if (deviceIds.length > 0) {
      const rows = await base()
        .innerJoin('device_shares as sh', 'sh.recipient_user_id', 'u.id')
        .select(['sh.device_id', 'sh.effective_time', 'sh.failure_time', 'sh.data_period', 'sh.data_from'])
        .where('sh.device_id', 'in', [...deviceIds])
        .where('sh.effective_time', '<=', now)
        .where('sh.failure_time', '>', now)
        .execute();
      for (const r of rows) add(r).shares.push({
        deviceId: Number(r.device_id), effective: Number(r.effective_time), failure: Number(r.failure_time),
        dataPeriod: r.data_period, dataFrom: r.data_from === null ? null : Number(r.data_from),
      });
    }
    return [...out.values()];
  }
}

