import { Code, PasswordSchema, type Member } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/providers';
import { clearSession, markMustChangePassword } from '../../lib/session';
import { callsTo, envelope, fakeServer, openSealed } from '../../test/server';
import { signInForTest } from '../../test/session';
import { MembersDialog } from './components/MembersDialog';
import { TemporaryPasswordGate } from './components/TemporaryPasswordGate';

const member = (over: Partial<Member>): Member => ({
  UserIdStr: '7', UserName: 'ranger01', NickName: 'Li Wei', EMail: '', Phone: '', IsPrimary: false, Enabled: 1, MustChangePassword: false,
  LastLoginTime: '', CreateTime: '2026-11-25 08:00:00', ...over,
});
const chief = member({ UserIdStr: '6', UserName: 'chief01', NickName: 'chief', IsPrimary: true, LastLoginTime: '2026-11-25 09:00:00' });

beforeEach(() => signInForTest());
afterEach(() => clearSession());

describe('members', () => {
  it('lists the accounts, refuses a bad account name in the form, creates one with a temporary password made here and sent sealed, and shows it once', async () => {
    const created = member({ UserIdStr: '8', UserName: 'Guide01', NickName: 'Guide', MustChangePassword: true });
    let list = [chief, member({})];
    const server = fakeServer({
      '/api/User/GetMemberList': () => envelope(Code.Success, '', { List: list }),
      '/api/User/CreateMember': () => {
        list = [...list, created];
        return envelope(Code.Success, '', { Member: created });
      },
    });
    render(
      <AppProviders>
        <MembersDialog open onClose={() => undefined} />
      </AppProviders>,
    );
    const box = await screen.findByTestId('members');
    await waitFor(() => expect(box.querySelectorAll('.ant-table-row')).toHaveLength(2));
    expect(within(box).getByText('Primary')).toBeTruthy();
    expect(within(box).getByText('Never')).toBeTruthy();
    expect(within(box).getByText('2026-11-25 09:00:00')).toBeTruthy();
    // The primary user's own switch can't be turned off, nor their password reset here.
    expect(within(box).getByTestId('member-enabled-chief01').hasAttribute('disabled')).toBe(true);
    expect(within(box).queryByTestId('member-reset-chief01')).toBeNull();

    fireEvent.click(within(box).getByTestId('member-new'));
    fireEvent.change(await screen.findByTestId('member-userName'), { target: { value: '1guide' } });
    fireEvent.change(screen.getByTestId('member-nickName'), { target: { value: 'Guide' } });
    fireEvent.click(document.getElementById('member-create')!);
    expect(await screen.findByText('The account name must start with a letter.')).toBeTruthy();
    expect(callsTo(server, '/api/User/CreateMember')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('member-userName'), { target: { value: 'Guide01' } });
    fireEvent.change(screen.getByTestId('member-phone'), { target: { value: '13800138000' } });
    fireEvent.click(document.getElementById('member-create')!);
    const shown = (await screen.findByTestId('member-temp-password')).textContent!;
    const [sent] = callsTo(server, '/api/User/CreateMember');
    expect(JSON.parse(sent!.body as string)).toMatchObject({ userName: 'Guide01', nickName: 'Guide', emailAddress: '', phone: '13800138000' });
    // The password shown is the one sent, sealed to the server key (never in clear on the wire), and meets §5.
    const password = openSealed(server, sent!, 'tempPwd');
    expect(shown).toBe(password);
    expect(sent!.body as string).not.toContain(password);
    expect(PasswordSchema.safeParse(password).success).toBe(true);
    await waitFor(() => expect(box.querySelectorAll('.ant-table-row')).toHaveLength(3));
  });

  it('resets a password after the confirmation: a new one made here each time, sent sealed and shown once', async () => {
    const server = fakeServer({
      '/api/User/GetMemberList': () => envelope(Code.Success, '', { List: [chief, member({})] }),
      '/api/User/ResetMemberPassword': () => envelope(Code.Success, '', { Member: member({ MustChangePassword: true }) }),
    });
    render(
      <AppProviders>
        <MembersDialog open onClose={() => undefined} />
      </AppProviders>,
    );
    const resetShows = async (n: number): Promise<string> => {
      fireEvent.click(await screen.findByTestId('member-reset-ranger01'));
      fireEvent.click(await waitFor(() => document.getElementById('member-reset-ok')!));
      await waitFor(() => expect(callsTo(server, '/api/User/ResetMemberPassword')).toHaveLength(n));
      // what was sent, opened as the server opens it, is what the dialog shows
      const password = openSealed(server, callsTo(server, '/api/User/ResetMemberPassword')[n - 1]!, 'tempPwd');
      await waitFor(() => expect(screen.getByTestId('member-temp-password').textContent).toBe(password));
      fireEvent.click(screen.getByTestId('member-temp-close'));
      return password;
    };
    const first = await resetShows(1);
    const second = await resetShows(2);
    const sent = callsTo(server, '/api/User/ResetMemberPassword');
    expect(first).not.toBe(second);
    expect(sent.some((init) => (init.body as string).includes(first) || (init.body as string).includes(second))).toBe(false);
    expect(JSON.parse(sent[0]!.body as string)).toMatchObject({ memberId: '7' });
  });

  it('disables a member only after the confirmation', async () => {
    let ranger = member({});
    const server = fakeServer({
      '/api/User/GetMemberList': () => envelope(Code.Success, '', { List: [chief, ranger] }),
      '/api/User/SetMemberEnabled': (body) => {
        ranger = { ...ranger, Enabled: body.enabled as 0 | 1 };
        return envelope(Code.Success, '', ranger);
      },
    });
    render(
      <AppProviders>
        <MembersDialog open onClose={() => undefined} />
      </AppProviders>,
    );
    const toggle = await screen.findByTestId('member-enabled-ranger01');
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(toggle);
    await screen.findAllByText('Disable ranger01?');
    expect(callsTo(server, '/api/User/SetMemberEnabled')).toHaveLength(0);
    fireEvent.click(document.getElementById('member-disable-ok')!);
    await waitFor(() => expect(screen.getByTestId('member-enabled-ranger01').getAttribute('aria-checked')).toBe('false'));
    expect(JSON.parse(callsTo(server, '/api/User/SetMemberEnabled')[0]!.body as string)).toMatchObject({ memberId: '7', enabled: 0 });
  });

  it('the temporary-password gate checks the new password and its confirmation before sending', async () => {
    markMustChangePassword(true);
    const server = fakeServer({ '/api/Auth/ModifyTemporaryPassword': () => envelope(Code.Success, '', null) });
    render(
      <AppProviders>
        <TemporaryPasswordGate onLeave={() => undefined} />
      </AppProviders>,
    );
    fireEvent.change(await screen.findByTestId('temp-original'), { target: { value: 'Abcdefgh2345' } });
    fireEvent.change(screen.getByTestId('temp-new'), { target: { value: 'short' } });
    fireEvent.change(screen.getByTestId('temp-confirm'), { target: { value: 'other' } });
    fireEvent.click(screen.getByTestId('temp-submit'));
    expect(await screen.findByText('The two new passwords differ.')).toBeTruthy();
    expect(callsTo(server, '/api/Auth/ModifyTemporaryPassword')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('temp-new'), { target: { value: 'Own-Secret-22' } });
    fireEvent.change(screen.getByTestId('temp-confirm'), { target: { value: 'Own-Secret-22' } });
    fireEvent.click(screen.getByTestId('temp-submit'));
    await waitFor(() => expect(callsTo(server, '/api/Auth/ModifyTemporaryPassword')).toHaveLength(1));
    await waitFor(() => expect(localStorage.getItem('wildtrack_must_change_password')).toBeNull());
  });
});
