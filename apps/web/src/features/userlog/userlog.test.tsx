import { Code, type UserLogRow } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/providers';
import { clearSession } from '../../lib/session';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { UserLogDialog } from './components/UserLogDialog';

const row = (over: Partial<UserLogRow>): UserLogRow => ({ Id: '1', UserIdStr: '7', UserName: 'ranger', NickName: 'Li Wei', Type: 'visit', Target: '/device', Time: '2026-11-25 08:00:00', ...over });
const members = [
  { UserIdStr: '6', UserName: 'chief', NickName: 'chief' },
  { UserIdStr: '7', UserName: 'ranger', NickName: 'Li Wei' },
];

beforeEach(() => signInForTest());
afterEach(() => clearSession());

describe('the user log', () => {
  it('lists the organisation\'s entries and asks again for one member', async () => {
    const server = fakeServer({
      '/api/UserLog/GetList': (body) =>
        envelope(Code.Success, '', {
          Total: body.memberId ? 1 : 2,
          List: body.memberId ? [row({ Id: '2', Type: 'action', Target: 'logout' })] : [row({ Id: '2', Type: 'action', Target: 'logout' }), row({ Id: '1', UserIdStr: '6', UserName: 'chief', NickName: 'chief' })],
          Members: members,
        }),
    });
    render(
      <AppProviders>
        <UserLogDialog open onClose={() => undefined} />
      </AppProviders>,
    );
    const log = await screen.findByTestId('user-log');
    await waitFor(() => expect(log.querySelectorAll('.ant-table-row')).toHaveLength(2));
    expect(within(log).getByText('Sign out')).toBeTruthy();
    expect(within(log).getByText('Li Wei (ranger)')).toBeTruthy();
    const first = JSON.parse(callsTo(server, '/api/UserLog/GetList')[0]!.body as string) as Record<string, unknown>;
    expect(first).toMatchObject({ timeZone: '+08:00', currentPage: 1, pageSize: 20 });
    expect(first.memberId).toBeUndefined();

    fireEvent.mouseDown(within(screen.getByTestId('user-log-member')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('Li Wei (ranger)'));
    await waitFor(() => expect(log.querySelectorAll('.ant-table-row')).toHaveLength(1));
    const last = callsTo(server, '/api/UserLog/GetList').at(-1)!;
    expect(JSON.parse(last.body as string)).toMatchObject({ memberId: '7' });
  });
});
