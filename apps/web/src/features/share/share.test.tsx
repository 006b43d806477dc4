import { Code, type ShareRecord, type TreeData } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/providers';
import { setLang } from '../../i18n';
import { clearSession, writeStoredUser } from '../../lib/session';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { ShareForm } from './components/ShareForm';
import { ShareList } from './components/ShareList';
import { fromDaysAgo, NEW_TERMS, termsBody } from './components/ShareTerms';

const share = (over: Partial<ShareRecord>): ShareRecord => ({
  IdStr: '5', IMEI: '861500000000101', Caption: 'Stork A', UserIdStr: '9', NickName: 'Egret station', EffectiveTime: '2026-11-25 10:00:00',
  FailureTime: '2026-11-26 10:00:00', CanEditDevice: false, CanRemoteInstr: false, CanDownloadData: true, CreateTime: '2026-11-25 10:00:00', SharerIdStr: '3', SharerName: 'chief', State: 'ACTIVE', DataPeriod: 'ALL',
  DataFrom: '', ...over,
});
const EMPTY_TREE: TreeData = { Folders: [], Permissions: [], Total: 0, SensorCounts: {} };

beforeEach(() => {
  signInForTest();
  writeStoredUser({ userName: 'chief01' });
});
afterEach(() => clearSession());

describe('share management', () => {
  it('lists what I shared with its rights and state, and revokes a share only after confirmation', async () => {
    let list = [share({}), share({ IdStr: '6', IMEI: '861500000000102', Caption: 'Stork B', State: 'EXPIRED', CanDownloadData: false })];
    const server = fakeServer({
      '/api/DeviceShare/GetSharedListByPage': () => envelope(Code.Success, '', { List: list, Total: list.length, Organisation: false }),
      '/api/DeviceShare/Revoke': () => {
        list = list.filter((s) => s.IdStr !== '5');
        return envelope(Code.Success, '', { Count: 1 });
      },
    });
    render(
      <AppProviders>
        <ShareList side="given" />
      </AppProviders>,
    );
    const box = await screen.findByTestId('share-list-given');
    await waitFor(() => expect(box.querySelectorAll('.ant-table-row')).toHaveLength(2));
    const first = box.querySelector('tr[data-imei="861500000000101"]') as HTMLElement;
    expect(within(first).getByText('Download data')).toBeTruthy();
    expect(within(first).getByText('Active')).toBeTruthy();
    expect(within(box.querySelector('tr[data-imei="861500000000102"]') as HTMLElement).getByText('View only')).toBeTruthy();

    fireEvent.click(within(first).getByTestId('share-revoke'));
    expect(await screen.findByText('Egret station will no longer see Stork A.')).toBeTruthy();
    expect(callsTo(server, '/api/DeviceShare/Revoke')).toHaveLength(0);
    fireEvent.click(await screen.findByTestId('share-revoke-ok'));
    await waitFor(() => expect(callsTo(server, '/api/DeviceShare/Revoke')).toHaveLength(1));
    expect(JSON.parse(callsTo(server, '/api/DeviceShare/Revoke')[0]!.body as string)).toEqual({ shareIds: ['5'] });
    await waitFor(() => expect(box.querySelectorAll('.ant-table-row')).toHaveLength(1));
  });

  it('shows the primary user who gave each of the organisation\'s shares, in both languages', async () => {
    const list = [share({}), share({ IdStr: '6', IMEI: '861500000000102', Caption: 'Stork B', SharerIdStr: '4', SharerName: 'Field member' })];
    fakeServer({ '/api/DeviceShare/GetSharedListByPage': () => envelope(Code.Success, '', { List: list, Total: list.length, Organisation: true }) });
    const { unmount } = render(
      <AppProviders>
        <ShareList side="given" />
      </AppProviders>,
    );
    const box = await screen.findByTestId('share-list-given');
    await waitFor(() => expect(box.querySelectorAll('.ant-table-row')).toHaveLength(2));
    expect(within(box).getAllByText('Shared by').length).toBeGreaterThan(0);
    expect(within(box.querySelector('tr[data-imei="861500000000102"]') as HTMLElement).getByText('Field member')).toBeTruthy();
    expect(screen.getByTestId('share-organisation-note').textContent).toContain("every share your organisation's accounts have given");
    unmount();
    setLang('zh');
    render(
      <AppProviders>
        <ShareList side="given" />
      </AppProviders>,
    );
    const zh = await screen.findByTestId('share-list-given');
    await waitFor(() => expect(within(zh).getAllByText('共享人').length).toBeGreaterThan(0));
    expect(screen.getByTestId('share-organisation-note').textContent).toContain('主账号');
    setLang('en');
  });

  it('says what is missing instead of sharing, and refuses yourself before asking the server', async () => {
    const server = fakeServer({
      '/api/Device/GetTree': () => envelope(Code.Success, '', EMPTY_TREE),
      '/api/DeviceShare/GetRecipient': () => envelope(Code.Success, '', { Exists: false, NickName: '' }),
    });
    render(
      <AppProviders>
        <ShareForm onShared={() => undefined} />
      </AppProviders>,
    );
    const form = await screen.findByTestId('share-form');
    expect(await within(form).findByText('Check the devices to share in the tree on the left.')).toBeTruthy();
    fireEvent.click(within(form).getByTestId('share-submit'));
    const problems = await within(form).findByTestId('share-problems');
    expect(problems.textContent).toContain('Check at least one device you may share.');
    expect(problems.textContent).toContain('Enter the account (user name or e-mail).');
    expect(problems.textContent).toContain('Choose the time window.');

    const account = within(form).getByTestId('share-account').querySelector('input')!;
    fireEvent.change(account, { target: { value: 'Chief01' } });
    expect(within(form).getByTestId('share-recipient').textContent).toBe('You cannot share devices with yourself.');
    fireEvent.change(account, { target: { value: 'nobody' } });
    fireEvent.blur(account);
    await waitFor(() => expect(within(form).getByTestId('share-recipient').textContent).toBe('There is no account with this user name or e-mail.'));
    expect(callsTo(server, '/api/DeviceShare/GetRecipient').map((c) => JSON.parse(c.body as string))).toEqual([{ account: 'nobody' }]);
    expect(callsTo(server, '/api/DeviceShare/Create')).toHaveLength(0);
  });

  it('a new share grants all history unless chosen otherwise; "From a date" and its past presets ask for FROM a time', async () => {
    fakeServer({ '/api/Device/GetTree': () => envelope(Code.Success, '', EMPTY_TREE) });
    render(
      <AppProviders>
        <ShareForm onShared={() => undefined} />
      </AppProviders>,
    );
    const form = await screen.findByTestId('share-form');
    const period = within(form).getByTestId('share-data-period');
    expect((within(period).getByLabelText('All history') as HTMLInputElement).checked).toBe(true);
    expect(within(form).getByTestId('share-data-words').textContent).toBe('Data: all history');
    expect(termsBody({ ...NEW_TERMS, window: ['2026-12-01 08:00:00', '2026-12-08 08:00:00'] }, '+08:00')).toMatchObject({ dataPeriod: 'ALL' });
    expect(termsBody({ ...NEW_TERMS, window: ['2026-12-01 08:00:00', '2026-12-08 08:00:00'] }, '+08:00')).not.toHaveProperty('dataFrom');

    fireEvent.click(within(period).getByLabelText('From a date'));
    expect(within(form).getByTestId('share-data-from')).toBeTruthy();
    fireEvent.click(within(form).getByTestId('share-submit'));
    expect((await within(form).findByTestId('share-problems')).textContent).toContain('Choose the date the shared data starts from.');
    fireEvent.click(within(form).getByTestId('share-data-last-30'));
    const words = within(form).getByTestId('share-data-words').textContent ?? '';
    expect(words).toMatch(/^Data: from \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(fromDaysAgo(30, '+08:00', Date.UTC(2026, 11, 1, 0, 0, 0))).toBe('2026-11-01 08:00:00');
    fireEvent.click(within(period).getByLabelText('Same as the access window'));
    expect(within(form).getByTestId('share-data-words').textContent).toBe('Data: only within the access window');
  });

  it('both lists say in words what of the data each share grants, in English and Chinese', async () => {
    const list = [
      share({}),
      share({ IdStr: '6', IMEI: '861500000000102', DataPeriod: 'FROM', DataFrom: '2026-11-01 00:00:00' }),
      share({ IdStr: '7', IMEI: '861500000000103', DataPeriod: 'FROM', DataFrom: '2026-11-01 09:30:00' }),
      share({ IdStr: '8', IMEI: '861500000000104', DataPeriod: 'WINDOW' }),
    ];
    const answer = () => envelope(Code.Success, '', { List: list, Total: list.length, Organisation: false });
    fakeServer({ '/api/DeviceShare/GetSharedListByPage': answer, '/api/DeviceShare/GetReceivedListByPage': answer });
    const granted = async (side: 'given' | 'received') => {
      const box = await screen.findByTestId(`share-list-${side}`);
      await waitFor(() => expect(box.querySelectorAll('.ant-table-row')).toHaveLength(4));
      return [...box.querySelectorAll('[data-testid="share-data-granted"]')].map((e) => e.textContent);
    };
    const { unmount } = render(
      <AppProviders>
        <ShareList side="given" />
      </AppProviders>,
    );
    expect(await granted('given')).toEqual(['Data: all history', 'Data: from 2026-11-01', 'Data: from 2026-11-01 09:30:00', 'Data: only within the access window']);
    unmount();
    setLang('zh');
    render(
      <AppProviders>
        <ShareList side="received" />
      </AppProviders>,
    );
    expect(await granted('received')).toEqual(['数据：全部历史', '数据：自 2026-11-01 起', '数据：自 2026-11-01 09:30:00 起', '数据：仅共享时段内']);
    setLang('en');
  });
});
