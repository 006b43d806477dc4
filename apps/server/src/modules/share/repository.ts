import type { Kysely } from 'kysely';
import type { Database, DeviceShareTable } from '../../db/schema.js';

/** A share's window and rights, epoch ms and flags as stored. */
export interface ShareTerms {
  effective: number;
  failure: number;
  editDevice: boolean;
  remoteInstr: boolean;
  downloadData: boolean;
}

/** A share with its device and the other party's id and nickname. */
export type ShareRow = Pick<DeviceShareTable, 'edit_device' | 'remote_instr' | 'download_data' | 'effective_time' | 'failure_time' | 'created_at'> & {
  id: number;
  imei: string;
  caption: string;
  other_user_id: number;
  other_nick_name: string;
};

const flag = (b: boolean) => (b ? 1 : 0);

const COLUMNS = [
  's.id', 'd.imei', 'd.caption', 'u.id as other_user_id', 'u.nick_name as other_nick_name',
  's.edit_device', 's.remote_instr', 's.download_data', 's.effective_time', 's.failure_time', 's.created_at',
] as const;

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

  private listOf(side: 'owner' | 'recipient', userId: number) {
    const other = side === 'owner' ? 's.recipient_user_id' : 's.owner_user_id';
    const mine = side === 'owner' ? 's.owner_user_id' : 's.recipient_user_id';
    return this.db
      .selectFrom('device_shares as s')
      .innerJoin('devices as d', 'd.id', 's.device_id')
      .innerJoin('users as u', 'u.id', other)
      .where(mine, '=', userId);
  }

  async count(side: 'owner' | 'recipient', userId: number): Promise<number> {
    const r = await this.listOf(side, userId).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  async page(side: 'owner' | 'recipient', userId: number, offset: number, limit: number): Promise<ShareRow[]> {
    const rows = await this.listOf(side, userId)
      .select(COLUMNS)
      .orderBy('s.created_at', 'desc')
      .orderBy('s.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
    return rows.map(normalise);
  }

  /** One share the owner gave, or undefined. */
  async owned(id: number, ownerId: number): Promise<ShareRow | undefined> {
    const r = await this.listOf('owner', ownerId)
      .select(COLUMNS)
      .where('s.id', '=', id)
      .executeTakeFirst();
    return r && normalise(r);
  }

  async update(id: number, ownerId: number, terms: ShareTerms): Promise<boolean> {
    const r = await this.db
      .updateTable('device_shares')
      .set({
        edit_device: flag(terms.editDevice),
        remote_instr: flag(terms.remoteInstr),
        download_data: flag(terms.downloadData),
        effective_time: terms.effective,
        failure_time: terms.failure,
      })
      .where('id', '=', id)
      .where('owner_user_id', '=', ownerId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Deletes the owner's shares, all or none: false (nothing deleted) when one is not theirs. */
  async revoke(ids: readonly number[], ownerId: number): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const r = await tx.deleteFrom('device_shares').where('id', 'in', [...ids]).where('owner_user_id', '=', ownerId).executeTakeFirst();
      if (Number(r.numDeletedRows) !== ids.length) throw new NotAllOwned();
      return true;
    }).catch((e: unknown) => {
      if (e instanceof NotAllOwned) return false;
      throw e;
    });
  }
}

class NotAllOwned extends Error {}

function normalise<T extends ShareRow>(r: T): ShareRow {
  return {
    ...r,
    id: Number(r.id),
    other_user_id: Number(r.other_user_id),
    effective_time: Number(r.effective_time),
    failure_time: Number(r.failure_time),
    created_at: Number(r.created_at),
    edit_device: Number(r.edit_device),
    remote_instr: Number(r.remote_instr),
    download_data: Number(r.download_data),
  };
}
