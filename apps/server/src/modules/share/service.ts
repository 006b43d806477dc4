import { type calls, Code, DeviceType, formatTime, type Lang, parseTime, type ShareRecipient, type ShareRecord } from '@wildtrack/contract';
import type { z } from 'zod';
import type { Caller } from '../../http/caller.js';
import { AppError, FieldRefusal } from '../../http/errors.js';
import { Listeners } from '../../lib/listeners.js';
import type { RateCounters } from '../../shared-state/index.js';
import type { DeviceGate, ResolvedDevice } from '../device/gate.js';
import type { GivenScope, ShareRepository, ShareRow, ShareTerms } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

type CreateBody = z.output<typeof calls.CreateShare.body>;
type UpdateBody = z.output<typeof calls.UpdateShare.body>;
type PageBody = z.output<typeof calls.GetSharedListByPage.body>;

const named = (devices: readonly ResolvedDevice[], lang: Lang) =>
  devices.map((d) => `${d.caption || d.imei} (${d.imei})`).join(lang === 'zh' ? '、' : ', ');

/**
 * Account look-ups (GetRecipient, and Create's) in a fixed window: at most so many per user and per client
 * address, counted across every server process (shared-state/). Each answers whether a user name or e-mail
 * exists, so without a limit of their own a signed-in user could test names at the session's pace; a
 * person sharing types a few accounts. The address limit bounds several accounts used from one place.
 */
export const LOOKUP_WINDOW_MS = 15 * 60_000;
export const LOOKUPS_PER_USER = 30;
export const LOOKUPS_PER_ADDRESS = 90;

/** Told the devices whose shares just ended or narrowed (revoked, changed, ended with their sharer's account). */
export type SharesChanged = (deviceIds: readonly number[]) => Promise<unknown>;

/**
 * Device sharing (§5 Sharing, §6 ShareDevice): who may share what with whom, and the sharer's and the
 * recipient's lists. Every refusal comes before anything is written, and a create is one transaction.
 *
 * Shares belong to the organisation (issue 26 H2): its primary user sees every share its accounts gave,
 * with who gave each, and may change or revoke any; a member's shares end when the member is disabled
 * (`endGivenBy`, docs/accounts.md). Each change that may take a right away tells the `onChanged` listeners
 * (the fence module withdraws the recipients' rules on those devices).
 */
export class ShareService {
  private readonly changed = new Listeners<Parameters<SharesChanged>>('shares changed');

  constructor(
    private readonly devices: DeviceGate,
    private readonly repo: ShareRepository,
    private readonly counters: RateCounters,
  ) {}

  /** Adds a listener told the devices whose shares ended or changed; returns its removal. */
  onChanged(listener: SharesChanged): () => void {
    return this.changed.add(listener);
  }

  /** Each listener awaited in turn before the call answers (a failure after all were told fails the call). */
  private async tell(deviceIds: readonly number[]): Promise<void> {
    if (deviceIds.length === 0) return;
    await this.changed.emitInTurn(deviceIds);
  }

  /** The given shares the caller reaches: the primary user's organisation's, anyone else's own. */
  private async scopeOf(caller: Caller): Promise<GivenScope> {
    return (await this.repo.isPrimary(caller.session.userId)) ? { orgId: caller.session.orgId } : { userId: caller.session.userId };
  }

  /** The account was disabled: its given shares end now, and the rules made under them are withdrawn. */
  async endGivenBy(userId: number, now = clockNow()): Promise<void> {
    await this.tell(await this.repo.endGivenBy(userId, now));
  }

  /** Counts a look-up of an account by the caller from `ip`; past either limit 1012, before anything is read. */
  private async lookup(caller: Caller, ip: string): Promise<void> {
    const now = clockNow();
    const perUser = await this.counters.hit(`share-lookup:${caller.session.userId}`, now, LOOKUP_WINDOW_MS);
    const perAddress = await this.counters.hit(`share-lookup-ip:${ip}`, now, LOOKUP_WINDOW_MS);
    if (perUser.hits <= LOOKUPS_PER_USER && perAddress.hits <= LOOKUPS_PER_ADDRESS) return;
    const resetAt = Math.max(perUser.hits > LOOKUPS_PER_USER ? perUser.resetAt : 0, perAddress.hits > LOOKUPS_PER_ADDRESS ? perAddress.resetAt : 0);
    throw new AppError(Code.TooManyRequests, 'share.lookupLimit', { minutes: Math.max(1, Math.ceil((resetAt - now) / 60_000)) });
  }

  async recipient(caller: Caller, account: string, ip: string): Promise<ShareRecipient> {
    await this.lookup(caller, ip);
    const u = await this.repo.findAccount(account);
    return u ? { Exists: true, NickName: u.nick_name } : { Exists: false, NickName: '' };
  }

  async create(caller: Caller, body: CreateBody, ip: string, now = clockNow()): Promise<number> {
    const devices = await this.devices.resolveMany(caller, body.imeis);
    const noRight = devices.filter((d) => d.access.kind !== 'own' || !d.access.rights.ShareDevice);
    if (noRight.length > 0) throw new AppError(Code.Forbidden, 'share.noRight', { devices: named(noRight, caller.lang) });
    const vhf = devices.filter((d) => d.type === DeviceType.VHFReceiver);
    if (vhf.length > 0) throw new AppError(Code.Failed, 'share.vhf', { devices: named(vhf, caller.lang) });
    const terms = termsOf(caller, body);
    await this.lookup(caller, ip);
    const to = await this.repo.findAccount(body.account);
    if (!to) throw new FieldRefusal(['account'], 'share.noAccount');
    if (Number(to.id) === caller.session.userId) throw new FieldRefusal(['account'], 'share.self');
    if (Number(to.org_id) === caller.session.orgId) throw new FieldRefusal(['account'], 'share.sameOrg');
    return this.repo.share(devices.map((d) => Number(d.id)), caller.session.userId, Number(to.id), terms, now);
  }

  async count(caller: Caller): Promise<number> {
    return this.repo.count('owner', await this.scopeOf(caller));
  }

  async page(caller: Caller, side: 'owner' | 'recipient', body: PageBody, now = clockNow()): Promise<{ List: ShareRecord[]; Total: number; Organisation: boolean }> {
    const scope: GivenScope = side === 'owner' ? await this.scopeOf(caller) : { userId: caller.session.userId };
    const [total, rows] = await Promise.all([
      this.repo.count(side, scope),
      this.repo.page(side, scope, (body.currentPage - 1) * body.pageSize, body.pageSize),
    ]);
    return { List: rows.map((r) => recordOf(r, caller.zone, now)), Total: total, Organisation: 'orgId' in scope };
  }

  async update(caller: Caller, body: UpdateBody, now = clockNow()): Promise<ShareRecord> {
    const id = Number(body.shareId);
    const terms = termsOf(caller, body);
    const scope = await this.scopeOf(caller);
    if (!(await this.repo.update(id, scope, terms))) throw new AppError(Code.NotFound, 'share.notFound');
    const row = (await this.repo.owned(id, scope))!;
    await this.tell([row.device_id]);
    return recordOf(row, caller.zone, now);
  }

  async revoke(caller: Caller, shareIds: readonly string[]): Promise<number> {
    const ids = [...new Set(shareIds.map(Number))];
    const devices = await this.repo.revoke(ids, await this.scopeOf(caller));
    if (!devices) throw new AppError(Code.NotFound, 'share.notFound');
    await this.tell(devices);
    return ids.length;
  }
}

type TermsBody = Pick<CreateBody, 'effectiveTime' | 'failureTime' | 'canEditDevice' | 'canRemoteInstr' | 'canDownloadData' | 'dataPeriod' | 'dataFrom'>;

/**
 * The body's window and data period (times in the caller's zone) and rights; the contract has checked the
 * texts and that FROM names its time. A FROM time at or after the window's end would show nothing: refused.
 */
function termsOf(caller: Caller, body: TermsBody): ShareTerms {
  const effective = parseTime(body.effectiveTime, caller.zone);
  if (effective === null) throw new FieldRefusal(['effectiveTime'], 'validation.time');
  const failure = parseTime(body.failureTime, caller.zone);
  if (failure === null) throw new FieldRefusal(['failureTime'], 'validation.time');
  if (failure <= effective) throw new FieldRefusal(['failureTime'], 'validation.shareWindow');
  let dataFrom: number | null = null;
  if (body.dataPeriod === 'FROM') {
    dataFrom = body.dataFrom === undefined ? null : parseTime(body.dataFrom, caller.zone);
    if (dataFrom === null) throw new FieldRefusal(['dataFrom'], 'validation.time');
    if (dataFrom >= failure) throw new FieldRefusal(['dataFrom'], 'validation.shareDataFromLate');
  }
  return { effective, failure, editDevice: body.canEditDevice, remoteInstr: body.canRemoteInstr, downloadData: body.canDownloadData, dataPeriod: body.dataPeriod, dataFrom };
}

function recordOf(r: ShareRow, zone: string, now: number): ShareRecord {
  return {
    IdStr: String(r.id),
    IMEI: r.imei,
    Caption: r.caption || r.imei,
    UserIdStr: String(r.other_user_id),
    NickName: r.other_nick_name,
    EffectiveTime: formatTime(r.effective_time, zone),
    FailureTime: formatTime(r.failure_time, zone),
    CanEditDevice: r.edit_device === 1,
    CanRemoteInstr: r.remote_instr === 1,
    CanDownloadData: r.download_data === 1,
    CreateTime: formatTime(r.created_at, zone),
    SharerIdStr: String(r.sharer_id),
    SharerName: r.sharer_name,
    State: now < r.effective_time ? 'PENDING' : now < r.failure_time ? 'ACTIVE' : 'EXPIRED',
    DataPeriod: r.data_period,
    DataFrom: r.data_period === 'FROM' ? formatTime(r.data_from, zone) : '',
  };
}
