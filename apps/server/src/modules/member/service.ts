import { Code, type CreateMemberInput, formatTime, LanguageId, type Member } from '@wildtrack/contract';
import argon2 from 'argon2';
import type { Caller } from '../../http/caller.js';
import { AppError, FieldRefusal, forbidden } from '../../http/errors.js';
import { Listeners } from '../../lib/listeners.js';
import type { AuthService } from '../auth/service.js';
import { hashPassword } from '../user/service.js';
import type { UserLogService } from '../userlog/service.js';
import type { MemberRepository, MemberRow } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

function toMember(row: MemberRow, zone: string): Member {
  return {
    UserIdStr: String(row.id),
    UserName: row.user_name,
    NickName: row.nick_name,
    EMail: row.email ?? '',
    Phone: row.phone ?? '',
    IsPrimary: Number(row.is_primary) === 1,
    Enabled: Number(row.enabled) === 1 ? 1 : 0,
    MustChangePassword: Number(row.must_change_password) === 1,
    LastLoginTime: row.last_sign_in_at === null ? '' : formatTime(Number(row.last_sign_in_at), zone),
    CreateTime: formatTime(Number(row.created_at), zone),
  };
}

const noSuchMember = () => new AppError(Code.NotFound, 'error.noSuchMember');

/**
 * The organisation's accounts as its primary user manages them (issue 17 item 5). What a member may do
 * once signed in is not narrowed here: every account of an organisation holds every right on the
 * organisation's devices (docs/accounts.md); only member management and the user log are the primary
 * user's. Each change is written to the user log as the primary user's action.
 */
export class MemberService {
  private readonly disabled = new Listeners<[userId: number]>('an account disabled');

  constructor(
    private readonly members: MemberRepository,
    private readonly auth: AuthService,
    private readonly log: UserLogService,
  ) {}

  /**
   * Adds a listener told each account disabled, once its sessions ended (its shares end: app.ts); each is
   * awaited in turn before the call answers. Returns its removal.
   */
  onDisabled(listener: (userId: number) => Promise<unknown>): () => void {
    return this.disabled.add(listener);
  }

  /** The caller, who must be their organisation's primary user (1003 otherwise). */
  private async requirePrimary(caller: Caller): Promise<MemberRow> {
    const me = await this.members.find(caller.session.orgId, caller.session.userId);
    if (!me || Number(me.is_primary) !== 1) throw forbidden();
    return me;
  }

  /** Another account of the caller's organisation that the primary user may change (not their own, not a primary one). */
  private async changeable(caller: Caller, memberId: string): Promise<MemberRow> {
    await this.requirePrimary(caller);
    const row = await this.members.find(caller.session.orgId, Number(memberId));
    // Another organisation's account is answered like one that does not exist.
    if (!row) throw noSuchMember();
    if (Number(row.id) === caller.session.userId) throw new AppError(Code.Failed, 'member.self');
    if (Number(row.is_primary) === 1) throw new AppError(Code.Failed, 'member.primary');
    return row;
  }

  private async record(caller: Caller, action: string, memberId: number): Promise<void> {
    await this.log.record(caller, [{ entryType: 'action', target: `member.${action}:${memberId}`, time: clockNow() }]);
  }

  private async reread(caller: Caller, id: number): Promise<Member> {
    const row = await this.members.find(caller.session.orgId, id);
    if (!row) throw noSuchMember();
    return toMember(row, caller.zone);
  }

  async list(caller: Caller): Promise<{ List: Member[] }> {
    await this.requirePrimary(caller);
    return { List: (await this.members.list(caller.session.orgId)).map((r) => toMember(r, caller.zone)) };
  }

  /**
   * The temporary password is the one the primary user's browser made and sealed (input.tempPwd, opened
   * and checked against §5 before this runs); it is stored hashed and answered to nobody.
   */
  async create(caller: Caller, input: CreateMemberInput): Promise<{ Member: Member }> {
    await this.requirePrimary(caller);
    // Account names and e-mails sign in alike, so neither may name another account, of any organisation.
    if (await this.members.accountTaken(input.userName.toLowerCase())) throw new FieldRefusal(['userName'], 'validation.taken');
    if (input.emailAddress && (await this.members.accountTaken(input.emailAddress.toLowerCase()))) throw new FieldRefusal(['emailAddress'], 'validation.taken');
    const id = await this.members.create(
      caller.session.orgId,
      {
        user_name: input.userName,
        nick_name: input.nickName,
        email: input.emailAddress || null,
        phone: input.phone || null,
        password_hash: await hashPassword(input.tempPwd),
        now: clockNow(),
      },
      { lcid: LanguageId[caller.lang], time_zone: caller.zone },
    );
    await this.record(caller, 'create', id);
    return { Member: await this.reread(caller, id) };
  }

  /**
   * Disabling ends the member's sessions at once, and what the member set going on the organisation's
   * behalf: the shares they gave end (docs/accounts.md), with the recipients' rules made under them. A
   * disabled account cannot sign in; enabling it again brings none of that back.
   */
  async setEnabled(caller: Caller, memberId: string, enabled: 0 | 1): Promise<Member> {
    const row = await this.changeable(caller, memberId);
    const id = Number(row.id);
    await this.members.setEnabled(id, enabled, clockNow());
    if (enabled === 0) {
      await this.auth.endUserSessions(id);
      await this.disabled.emitInTurn(id);
    }
    await this.record(caller, enabled === 1 ? 'enable' : 'disable', id);
    return this.reread(caller, id);
  }

  /** A new temporary password (made and sealed by the browser, like create's): the member's sessions end, and their next sign-in must change it. */
  async resetPassword(caller: Caller, memberId: string, tempPwd: string): Promise<{ Member: Member }> {
    const row = await this.changeable(caller, memberId);
    const id = Number(row.id);
    await this.members.setPassword(id, await hashPassword(tempPwd), 1, clockNow());
    await this.auth.endUserSessions(id);
    await this.record(caller, 'resetPassword', id);
    return { Member: await this.reread(caller, id) };
  }

  /** The change a temporary password asks for: the temporary one checked, the new one different. */
  async changeTemporaryPassword(caller: Caller, originalPwd: string, newPwd: string): Promise<void> {
    const { userId, sessionId } = caller.session;
    const state = await this.members.passwordState(userId);
    if (!state || Number(state.must_change_password) !== 1) throw new AppError(Code.Failed, 'member.noTemporaryPassword');
    if (!(await argon2.verify(state.password_hash, originalPwd).catch(() => false))) throw new FieldRefusal(['originalPwd'], 'member.wrongOriginal');
    if (newPwd === originalPwd) throw new FieldRefusal(['newPwd'], 'validation.password.same');
    await this.members.setPassword(userId, await hashPassword(newPwd), 0, clockNow());
    this.auth.refresh(sessionId);
    await this.log.record(caller, [{ entryType: 'action', target: 'password.changeTemporary', time: clockNow() }]);
  }
}
