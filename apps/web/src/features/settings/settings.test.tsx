import { Code, type AccountSetting } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import Cookies from 'js-cookie';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { chosenTimeZone, clearSession, readStoredUser } from '../../lib/session';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { SettingsDialog } from './components/SettingsDialog';
import { signInForTest } from '../../test/session';
import { queryClient } from '../../lib/queryClient';
import type * as KeyCheck from './api/checkTdtKey';

// Every key check the form starts, so a test can await the answer the form is waiting for.
const keyChecks = vi.hoisted((): Promise<string>[] => []);
vi.mock('./api/checkTdtKey', async (importOriginal) => {
  const original = await importOriginal<typeof KeyCheck>();
  return {
    ...original,
    checkTdtKey: (...args: Parameters<typeof original.checkTdtKey>) => {
      const answer = original.checkTdtKey(...args);
      keyChecks.push(answer);
      return answer;
    },
  };
});

/**
 * The test tile is an <img>; jsdom loads no images, so a stand-in answers every tile the way the test
 * says (a tile, or an error as Tianditu's 403 for a bad key gives). A held tile answers only when the
 * test says so (`answerHeld`), so a test can act while the tile is still loading.
 */
class FakeTile {
  static requested: string[] = [];
  static answer: 'tile' | 'error' = 'tile';
  static hold = false;
  static held: FakeTile[] = [];
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  naturalWidth = 0;
  removeAttribute(): void {}
  set src(url: string) {
    FakeTile.requested.push(url);
    if (FakeTile.hold) FakeTile.held.push(this);
    else setTimeout(() => this.respond(), 5);
  }
  respond(): void {
    if (FakeTile.answer === 'tile') {
      this.naturalWidth = 256;
      this.onload?.();
    } else {
      this.onerror?.();
    }
  }
  static answerHeld(): void {
    for (const tile of FakeTile.held.splice(0)) tile.respond();
  }
}

const stored = (over: Partial<AccountSetting> = {}): AccountSetting => ({
  TdtKey: '',
  ReceiveNotification: { APP: 1, Email: 0 },
  TimeZone: '+08:00',
  ...over,
});

beforeEach(() => {
  signInForTest();
  FakeTile.requested = [];
  FakeTile.answer = 'tile';
  FakeTile.hold = false;
  FakeTile.held = [];
  keyChecks.length = 0;
  vi.stubGlobal('Image', FakeTile);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  clearSession();
  Cookies.remove('wildtrack_chosen_time_zone', { path: '/' });
});

function open(onClose = vi.fn()) {
  render(
    <AppProviders>
      <SettingsDialog open onClose={onClose} />
    </AppProviders>,
  );
  return onClose;
}

const appSwitch = () => screen.getByRole('switch', { name: 'Receive app notifications' });
const emailSwitch = () => screen.getByRole('switch', { name: 'Receive e-mail notifications' });
const keyInput = () => screen.getByLabelText('Map-service key (Tianditu)');
const zoneSelect = () => within(screen.getByTestId('settings-time-zone')).getByRole('combobox');
const zoneShown = () => screen.getByTestId('settings-time-zone').textContent;
const saveButton = () => screen.getByTestId('settings-save');
const sentBodies = (server: ReturnType<typeof fakeServer>) =>
  callsTo(server, '/api/User/SetAccountSetting').map((init) => JSON.parse(init.body as string) as Record<string, unknown>);

describe('the settings dialog', () => {
  it('loads the settings, and saves the edited form with the key proved by one test tile', async () => {
    const server = fakeServer({
      '/api/User/GetAccountSetting': () => envelope(Code.Success, '', stored()),
      '/api/User/SetAccountSetting': () => envelope(Code.Success, '', null),
    });
    const onClose = open();
    expect(screen.getByTestId('settings-loading')).toBeTruthy();
    await screen.findByTestId('settings-form');
    expect(appSwitch().getAttribute('aria-checked')).toBe('true');
    expect(emailSwitch().getAttribute('aria-checked')).toBe('false');
    expect(zoneShown()).toContain('+08:00');

    fireEvent.click(appSwitch());
    fireEvent.click(emailSwitch());
    fireEvent.change(keyInput(), { target: { value: '  0123456789abcdef0123456789ABCDEF  ' } });
    fireEvent.mouseDown(zoneSelect());
    fireEvent.change(zoneSelect(), { target: { value: '-05' } });
    fireEvent.click(await screen.findByTitle('-05:00'));
    await waitFor(() => expect(zoneShown()).toContain('-05:00'));
    fireEvent.click(saveButton());

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sentBodies(server)).toEqual([{ app: 0, email: 1, tdtKey: '0123456789abcdef0123456789ABCDEF', timeZone: '-05:00' }]);
    // One tile, from Tianditu, with the trimmed key.
    expect(FakeTile.requested).toHaveLength(1);
    const tile = new URL(FakeTile.requested[0]!);
    expect(tile.hostname).toMatch(/^t\d\.tianditu\.gov\.cn$/);
    expect(tile.searchParams.get('tk')).toBe('0123456789abcdef0123456789ABCDEF');
    expect(tile.searchParams.get('TILEMATRIX')).toBe('1');
    // The new zone is the session's (header, times) and the one the next sign-in sends.
    expect(readStoredUser().timeZone).toBe('-05:00');
    expect(chosenTimeZone()).toBe('-05:00');
    // The maps' copy of the settings (the key) is read again.
    await waitFor(() => expect(callsTo(server, '/api/User/GetAccountSetting').length).toBe(2));
  });

  it('shows the key-invalid message and saves nothing when the test tile fails', async () => {
    const server = fakeServer({
      '/api/User/GetAccountSetting': () => envelope(Code.Success, '', stored()),
      '/api/User/SetAccountSetting': () => envelope(Code.Success, '', null),
    });
    FakeTile.answer = 'error';
    const onClose = open();
    await screen.findByTestId('settings-form');
    fireEvent.change(keyInput(), { target: { value: 'notarealkey' } });
    fireEvent.click(saveButton());

    expect(await screen.findByText('Map key validation failed: Tianditu did not serve a map tile with this key')).toBeTruthy();
    expect(FakeTile.requested).toHaveLength(1);
    expect(new URL(FakeTile.requested[0]!).searchParams.get('tk')).toBe('notarealkey');
    expect(sentBodies(server)).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
    expect(readStoredUser().timeZone).toBe('+08:00');
    expect(chosenTimeZone()).toBeUndefined();
  });

  /** Tianditu out of reach: the test tile fails and so does the request that asks whether the host answers. */
  function tiandituUnreachable(server: ReturnType<typeof fakeServer>): void {
    const answer = server.getMockImplementation()!;
    server.mockImplementation((url, init) => (url.includes('tianditu.gov.cn') ? Promise.reject(new TypeError('Failed to fetch')) : answer(url, init)));
    FakeTile.answer = 'error';
  }

  it('asks before saving a key it could not check (Tianditu out of reach), and saves it when told to', async () => {
    const server = fakeServer({
      '/api/User/GetAccountSetting': () => envelope(Code.Success, '', stored()),
      '/api/User/SetAccountSetting': () => envelope(Code.Success, '', null),
    });
    tiandituUnreachable(server);
    const onClose = open();
    await screen.findByTestId('settings-form');
    fireEvent.change(keyInput(), { target: { value: 'offlinekey1' } });
    fireEvent.click(saveButton());
    expect((await screen.findAllByText("Can't check the key now")).length).toBeGreaterThan(0);
    expect(screen.queryByText('Map key validation failed: Tianditu did not serve a map tile with this key')).toBeNull();
    expect(sentBodies(server)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Save anyway' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sentBodies(server)).toEqual([{ app: 1, email: 0, tdtKey: 'offlinekey1', timeZone: '+08:00' }]);
  });

  it('an unchecked key never blocks the time zone: "keep the saved key" saves the zone with the old key', async () => {
    const server = fakeServer({
      '/api/User/GetAccountSetting': () => envelope(Code.Success, '', stored({ TdtKey: 'savedkey42' })),
      '/api/User/SetAccountSetting': () => envelope(Code.Success, '', null),
    });
    tiandituUnreachable(server);
    const onClose = open();
    await screen.findByTestId('settings-form');
    fireEvent.change(keyInput(), { target: { value: 'offlinekey1' } });
    fireEvent.mouseDown(zoneSelect());
    fireEvent.change(zoneSelect(), { target: { value: '-05' } });
    fireEvent.click(await screen.findByTitle('-05:00'));
    fireEvent.click(saveButton());
    fireEvent.click(await screen.findByTestId('settings-keep-key'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sentBodies(server)).toEqual([{ app: 1, email: 0, tdtKey: 'savedkey42', timeZone: '-05:00' }]);
    expect(readStoredUser().timeZone).toBe('-05:00');
  });

  it('saves nothing when the unchecked key is cancelled', async () => {
    const server = fakeServer({
      '/api/User/GetAccountSetting': () => envelope(Code.Success, '', stored()),
      '/api/User/SetAccountSetting': () => envelope(Code.Success, '', null),
    });
    tiandituUnreachable(server);
    const onClose = open();
    await screen.findByTestId('settings-form');
    fireEvent.change(keyInput(), { target: { value: 'offlinekey1' } });
    fireEvent.click(saveButton());
    const [title] = await screen.findAllByText("Can't check the key now");
    const dialog = title!.closest('.ant-modal-confirm') as HTMLElement;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(keyChecks).toHaveLength(1));
    expect(await keyChecks[0]).toBe('unreachable');
    expect(sentBodies(server)).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('refuses a key with other characters before asking Tianditu', async () => {
    const server = fakeServer({ '/api/User/GetAccountSetting': () => envelope(Code.Success, '', stored()) });
    open();
    await screen.findByTestId('settings-form');
    fireEvent.change(keyInput(), { target: { value: 'key&tk=other' } });
    fireEvent.click(saveButton());
    expect(await screen.findByText('The map-service key may hold only letters and digits.')).toBeTruthy();
    expect(FakeTile.requested).toEqual([]);
    expect(sentBodies(server)).toEqual([]);
  });

  it("resets the zone to the browser's, and does not ask Tianditu again for the key already saved", async () => {
    // A browser nine hours east of UTC.
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-540);
    const server = fakeServer({
      '/api/User/GetAccountSetting': () => envelope(Code.Success, '', stored({ TdtKey: 'savedkey42', TimeZone: '-03:00' })),
      '/api/User/SetAccountSetting': () => envelope(Code.Success, '', null),
    });
    const onClose = open();
    await screen.findByTestId('settings-form');
    // The zone this browser shows (kept at its sign-in), not the account's -03:00 another device may have left.
    expect(zoneShown()).toContain('+08:00');
    expect(screen.getByText('Default on this computer: +09:00. Times are shown in the chosen zone.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('settings-reset-zone'));
    await waitFor(() => expect(zoneShown()).toContain('+09:00'));
    fireEvent.click(saveButton());

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sentBodies(server)).toEqual([{ app: 1, email: 0, tdtKey: 'savedkey42', timeZone: '+09:00' }]);
    expect(FakeTile.requested).toEqual([]);
    expect(readStoredUser().timeZone).toBe('+09:00');
  });

  it('saves nothing when the dialog is closed while the test tile loads', async () => {
    const server = fakeServer({
      '/api/User/GetAccountSetting': () => envelope(Code.Success, '', stored()),
      '/api/User/SetAccountSetting': () => envelope(Code.Success, '', null),
    });
    function Toggle() {
      const [isOpen, setOpen] = useState(true);
      return <SettingsDialog open={isOpen} onClose={() => setOpen(false)} />;
    }
    render(
      <AppProviders>
        <Toggle />
      </AppProviders>,
    );
    await screen.findByTestId('settings-form');
    FakeTile.hold = true;
    fireEvent.change(keyInput(), { target: { value: 'slowkey99' } });
    fireEvent.click(saveButton());
    await waitFor(() => expect(keyChecks).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    // The tile answers after the dialog closed. The form awaited the check before this test did, so once
    // the test has the answer the form has made its choice: a save would have started its mutation.
    const mutationsBefore = queryClient.getMutationCache().getAll().length;
    FakeTile.answerHeld();
    expect(await keyChecks[0]).toBe('ok');
    expect(queryClient.getMutationCache().getAll()).toHaveLength(mutationsBefore);
    expect(sentBodies(server)).toEqual([]);
  });

  it('shows an error state with a retry when the settings cannot be read', async () => {
    let fail = true;
    fakeServer({
      '/api/User/GetAccountSetting': () => (fail ? envelope(Code.ServerError, 'boom', { RequestId: 'r1' }) : envelope(Code.Success, '', stored())),
    });
    open();
    expect(await screen.findByText('The settings could not be read')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('settings-form');
    expect(appSwitch().getAttribute('aria-checked')).toBe('true');
  });
});
