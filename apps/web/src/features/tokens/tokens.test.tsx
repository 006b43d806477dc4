import { Code, type PersonalToken } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/providers';
import { clearSession } from '../../lib/session';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { TokensDialog } from './components/TokensDialog';

const token = (over: Partial<PersonalToken>): PersonalToken => ({
  IdStr: '1', Name: 'laptop', Hint: 'a1B2', CreateTime: '2026-12-01 08:00:00', ExpireTime: '', LastUsedTime: '', RevokeTime: '', State: 'active', ...over,
});

beforeEach(() => signInForTest());
afterEach(() => clearSession());

const open = () =>
  render(
    <AppProviders>
      <TokensDialog open onClose={() => undefined} />
    </AppProviders>,
  );

describe('personal access tokens', () => {
  it('says so when there is none; makes one with its expiry and shows the secret once, with a copy button and an R example', async () => {
    const secret = 'wt_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';
    let list: PersonalToken[] = [];
    const server = fakeServer({
      '/api/PersonalToken/GetList': () => envelope(Code.Success, '', { List: list }),
      '/api/PersonalToken/Create': () => {
        const made = token({ IdStr: '2', Name: 'R on my laptop', Hint: 'DEFG', ExpireTime: '2027-03-01 08:00:00' });
        list = [made];
        return envelope(Code.Success, '', { ...made, Secret: secret });
      },
    });
    open();
    const box = await screen.findByTestId('tokens');
    expect(await within(box).findByText('No tokens yet. Make one for each script or computer.')).toBeTruthy();
    fireEvent.click(within(box).getByTestId('token-new'));
    fireEvent.click(await waitFor(() => document.getElementById('token-create')!));
    // an empty name is refused in the form, nothing is sent
    expect(await screen.findByText(/token name/i)).toBeTruthy();
    expect(callsTo(server, '/api/PersonalToken/Create')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('token-name'), { target: { value: 'R on my laptop' } });
    fireEvent.click(document.getElementById('token-create')!);
    expect((await screen.findByTestId('token-secret')).textContent).toBe(secret);
    expect(JSON.parse(callsTo(server, '/api/PersonalToken/Create')[0]!.body as string)).toMatchObject({ purpose: 'R on my laptop', expiresInDays: 90 });
    const example = screen.getByTestId('token-r-example').textContent!;
    expect(example).toContain('options(move2_movebank_api_url = "http://localhost:3000/movebank/service/direct-read")'.replace('http://localhost:3000', window.location.origin));
    expect(example).toContain(secret);
    expect(screen.getAllByRole('button', { name: /copy/i }).length).toBeGreaterThanOrEqual(2);
    await waitFor(() => expect(box.querySelectorAll('.ant-table-row')).toHaveLength(1));
    expect(within(box).getByText('…DEFG')).toBeTruthy();
    expect(box.textContent).not.toContain(secret);
  });

  it('lists tokens with their state and revokes one after the confirmation', async () => {
    let list = [token({}), token({ IdStr: '3', Name: 'old', State: 'revoked', RevokeTime: '2026-12-02 08:00:00' })];
    const server = fakeServer({
      '/api/PersonalToken/GetList': () => envelope(Code.Success, '', { List: list }),
      '/api/PersonalToken/Revoke': () => {
        list = list.map((x) => (x.IdStr === '1' ? { ...x, State: 'revoked' as const } : x));
        return envelope(Code.Success, '', null);
      },
    });
    open();
    const box = await screen.findByTestId('tokens');
    await waitFor(() => expect(box.querySelectorAll('.ant-table-row')).toHaveLength(2));
    expect(within(box).getAllByText('Never expires')).toHaveLength(2);
    expect(within(box).queryByTestId('token-revoke-old')).toBeNull();
    fireEvent.click(within(box).getByTestId('token-revoke-laptop'));
    fireEvent.click(await waitFor(() => document.getElementById('token-revoke-ok')!));
    await waitFor(() => expect(callsTo(server, '/api/PersonalToken/Revoke')).toHaveLength(1));
    expect(JSON.parse(callsTo(server, '/api/PersonalToken/Revoke')[0]!.body as string)).toEqual({ id: '1' });
    await waitFor(() => expect(within(box).queryByTestId('token-revoke-laptop')).toBeNull());
  });

  it('shows an error with a retry when the list cannot be loaded', async () => {
    fakeServer({ '/api/PersonalToken/GetList': () => envelope(Code.Failed, 'down', null) });
    open();
    expect(await screen.findByText('The tokens could not be loaded')).toBeTruthy();
  });
});
