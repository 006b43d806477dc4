import type { Kysely } from 'kysely';
import type { ShareDataPeriod } from '@wildtrack/contract';
import type { Database, DeviceShareTable } from '../../db/schema.js';

/** A share's window and rights, epoch ms and flags as stored. */
export interface ShareTerms {
  effective: number;
  failure: number;
  editDevice: boolean;
  remoteInstr: boolean;
  downloadData: boolean;
  /** The data period (undefined in an update: the share's stays) and FROM's first time (null otherwise). */
  dataPeriod: ShareDataPeriod | undefined;
  dataFrom: number | null;
}

/** A share with its device, the other party's id and nickname, and its sharer's. */
export type ShareRow = Pick<DeviceShareTable, 'edit_device' | 'remote_instr' | 'download_data' | 'effective_time' | 'failure_time' | 'created_at' | 'data_from'> & {
  data_period: ShareDataPeriod;
  id: number;
  device_id: number;
  imei: string;
  caption: string;
  other_user_id: number;
  other_nick_name: string;
  sharer_id: number;
  sharer_name: string;
};

/**
 * Whose given shares a call reaches: the sharer's own, or (the organisation's primary user) every share
 * made by an account of the organisation. Shares belong to the organisation (issue 26 H2).
 */
export type GivenScope = { userId: number } | { orgId: number };

const flag = (b: boolean) => (b ? 1 : 0);

const COLUMNS = [
  's.id', 's.device_id', 'd.imei', 'd.caption', 'u.id as other_user_id', 'u.nick_name as other_nick_name', 'sh.id as sharer_id', 'sh.nick_name as sharer_name',
  's.edit_device', 's.remote_instr', 's.download_data', 's.effective_time', 's.failure_time', 's.created_at', 's.data_period', 's.data_from',
] as const;

/** The data period's columns of a share's terms: both, or none in an update that names no period. */
const periodColumns = (terms: ShareTerms) => (terms.dataPeriod === undefined ? {} : { data_period: terms.dataPeriod, data_from: terms.dataPeriod === 'FROM' ? terms.dataFrom : null });

/** The device_shares table: the only code that writes it (the tree and the access rules read it). */
export class ShareRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The account with this user name or e-mail (case-insensitive), enabled or not. */
  findAccount(account: string) {
    const key = account.trim().toLowerCase();
    return this.db
      .selectFrom('users')
      .select(['id', 'org_id', 'nick_name'])
      .where((eb) => eb.or([eb('user_name_key', '=', key), eb('email_key', '=', key)]))
      .orderBy('id')
      .executeTakeFirst();
  }

  /**
   * Shares each device with the recipient, in one transaction: a device the owner already shares with
   * the recipient gets the new terms (one row per device, owner and recipient), the others a new row.
   */
  async share(deviceIds: readonly number[], ownerId: number, recipientId: number, terms: ShareTerms, now: number): Promise<number> {
    const values = {
      edit_device: flag(terms.editDevice),
      remote_instr: flag(terms.remoteInstr),
      download_data: flag(terms.downloadData),
      effective_time: terms.effective,
      failure_time: terms.failure,
      // A create names a period (the contract's default, WINDOW, when the caller sent none).
      data_period: terms.dataPeriod ?? 'WINDOW',
      data_from: terms.dataPeriod === 'FROM' ? terms.dataFrom : null,
    };
    return this.db.transaction().execute(async (tx) => {
      const existing = await tx
        .selectFrom('device_shares')
        .select(['id', 'device_id'])
        .where('owner_user_id', '=', ownerId)
        .where('recipient_user_id', '=', recipientId)
        .where('device_id', 'in', [...deviceIds])
        .execute();
      const had = new Map(existing.map((r) => [Number(r.device_id), Number(r.id)]));
      const fresh = deviceIds.filter((d) => !had.has(d));
      if (had.size > 0) await tx.updateTable('device_shares').set({ ...values, created_at: now }).where('id', 'in', [...had.values()]).execute();
      if (fresh.length > 0) {
        await tx
          .insertInto('device_shares')
          .values(fresh.map((d) => ({ device_id: d, owner_user_id: ownerId, recipient_user_id: recipientId, ...values, created_at: now })))
          .execute();
      }
      return deviceIds.length;
    });
  }

  /** Whether the account is its organisation's primary user. */
  async isPrimary(userId: number): Promise<boolean> {
    const r = await this.db.selectFrom('users').select('is_primary').where('id', '=', userId).executeTakeFirst();
    return Number(r?.is_primary ?? 0) === 1;
  }

  /** The given shares of the scope (side 'owner') or those given to the user (side 'recipient'). */
  private listOf(side: 'owner' | 'recipient', scope: GivenScope) {
    const other = side === 'owner' ? 's.recipient_user_id' : 's.owner_user_id';
    const q = this.db
      .selectFrom('device_shares as s')
      .innerJoin('devices as d', 'd.id', 's.device_id')
      .innerJoin('users as u', 'u.id', other)
      .innerJoin('users as sh', 'sh.id', 's.owner_user_id');
    if ('orgId' in scope) return side === 'owner' ? q.where('sh.org_id', '=', scope.orgId) : q.where('s.recipient_user_id', '=', -1);
    return q.where(side === 'owner' ? 's.owner_user_id' : 's.recipient_user_id', '=', scope.userId);
  }

  async count(side: 'owner' | 'recipient', scope: GivenScope): Promise<number> {
    const r = await this.listOf(side, scope).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  async page(side: 'owner' | 'recipient', scope: GivenScope, offset: number, limit: number): Promise<ShareRow[]> {
    const rows = await this.listOf(side, scope)
      .select(COLUMNS)
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
    return rows.map(normalise);
  }

  /** One share given within the scope, or undefined. */
  async owned(id: number, scope: GivenScope): Promise<ShareRow | undefined> {
    const r = await this.listOf('owner', scope)
      .select(COLUMNS)
      .where('s.id', '=', id)
      .executeTakeFirst();
    return r && normalise(r);
  }

  /** The ids of the shares among `ids` given within the scope. */
  private async inScope(db: Kysely<Database>, ids: readonly number[], scope: GivenScope): Promise<{ id: number; device_id: number }[]> {
    if (ids.length === 0) return [];
    let q = db.selectFrom('device_shares as s').innerJoin('users as sh', 'sh.id', 's.owner_user_id').select(['s.id', 's.device_id']).where('s.id', 'in', [...ids]);
    q = 'orgId' in scope ? q.where('sh.org_id', '=', scope.orgId) : q.where('s.owner_user_id', '=', scope.userId);
    return (await q.execute()).map((r) => ({ id: Number(r.id), device_id: Number(r.device_id) }));
  }

  async update(id: number, scope: GivenScope, terms: ShareTerms): Promise<boolean> {
    if ((await this.inScope(this.db, [id], scope)).length !== 1) return false;
    const r = await this.db
      .updateTable('device_shares')
      .set({
        edit_device: flag(terms.editDevice),
        remote_instr: flag(terms.remoteInstr),
        download_data: flag(terms.downloadData),
        effective_time: terms.effective,
        failure_time: terms.failure,
        ...periodColumns(terms),
      })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Deletes shares given within the scope, all or none: the devices of the shares deleted, or null (nothing deleted) when one is not in it. */
  async revoke(ids: readonly number[], scope: GivenScope): Promise<number[] | null> {
    return this.db.transaction().execute(async (tx) => {
      const found = await this.inScope(tx, ids, scope);
      if (found.length !== ids.length) return null;
      await tx.deleteFrom('device_shares').where('id', 'in', found.map((f) => f.id)).execute();
      return [...new Set(found.map((f) => f.device_id))];
    });
  }

  /**
   * Ends now every share the account gave that is not over (its sharer disabled): the window closes at
   * `now` (one that had not begun closes where it would have begun), the rows stay, EXPIRED, in the
   * organisation's list. Returns the devices of the shares ended.
   */
  async endGivenBy(userId: number, now: number): Promise<number[]> {
    return this.db.transaction().execute(async (tx) => {
      const open = await tx.selectFrom('device_shares').select(['id', 'device_id', 'effective_time']).where('owner_user_id', '=', userId).where('failure_time', '>', now).execute();
      for (const s of open) {
        const effective = Math.min(Number(s.effective_time), now);
        await tx.updateTable('device_shares').set({ effective_time: effective, failure_time: Math.max(now, effective) }).where('id', '=', s.id).execute();
      }
      return [...new Set(open.map((s) => Number(s.device_id)))];
    });
  }
}

function normalise<T extends ShareRow>(r: T): ShareRow {
  return {
    ...r,
    id: Number(r.id),
    device_id: Number(r.device_id),
    sharer_id: Number(r.sharer_id),
    other_user_id: Number(r.other_user_id),
    effective_time: Number(r.effective_time),
    failure_time: Number(r.failure_time),
    created_at: Number(r.created_at),
    data_from: r.data_from === null ? null : Number(r.data_from),
    edit_device: Number(r.edit_device),
    remote_instr: Number(r.remote_instr),
    download_data: Number(r.download_data),
  };
}
