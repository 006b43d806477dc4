import { useQuery } from '@tanstack/react-query';
import { Code, type RegisteredDevice, type TreeData } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/providers';
import { setLang } from '../../i18n';
import { queryKeys } from '../../lib/queryKeys';
import { clearSession } from '../../lib/session';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { user } from '../../test/fixtures';
import { RegisterDevice } from './components/RegisterDevice';

const EMPTY_TREE: TreeData = { Folders: [], Permissions: [], Total: 0, SensorCounts: {} };
const ANSWER: RegisteredDevice = {
  IMEI: '864512041234567',
  Caption: 'Crane 7',
  Secret: 'sEcReT-sEcReT-sEcReT-sEcReT-0123',
  ExampleRequest: `curl -X POST "$WILDTRACK_URL/ingest/v1/batch" \\\n  -H 'x-device-imei: 864512041234567'`,
};

beforeEach(() => {
  signInForTest();
  setLang('en');
});
afterEach(() => clearSession());

/** Shown once the user query the dialog's button reads has its answer (it observes the cache, fetching nothing). */
function UserLoaded() {
  const { data } = useQuery({ queryKey: queryKeys.userInfo, enabled: false });
  return data ? <span data-testid="user-loaded" /> : null;
}

const page = () =>
  render(
    <AppProviders>
      <RegisterDevice folderId="-1" />
      <UserLoaded />
    </AppProviders>,
  );

describe('Register device dialog', () => {
  it('the primary user registers a device with its abilities and sees its secret once, with a copy button and the example request', async () => {
    const server = fakeServer({
      '/api/User/GetInfo': () => envelope(Code.Success, '', user({ IsPrimary: true })),
      '/api/Device/GetTree': () => envelope(Code.Success, '', EMPTY_TREE),
      '/api/Device/Register': () => envelope(Code.Success, '', ANSWER),
    });
    page();
    fireEvent.click(await screen.findByTestId('register-device-open'));
    const imei = await screen.findByTestId('register-device-imei');
    // a wrong check digit is refused by the contract's rule before anything is sent
    fireEvent.change(imei, { target: { value: '864512041234566' } });
    fireEvent.click(screen.getByTestId('register-device-submit'));
    expect(await screen.findByText("The IMEI's check digit (the 15th digit) is wrong; check the number on the device's label.")).toBeTruthy();
    expect(callsTo(server, '/api/Device/Register')).toHaveLength(0);

    fireEvent.change(imei, { target: { value: '864512041234567' } });
    fireEvent.click(screen.getByLabelText('Voltage-adaptive fixes (high frequency)'));
    fireEvent.click(screen.getByLabelText('Acceleration on/off'));
    fireEvent.click(screen.getByTestId('register-device-submit'));
    const result = await screen.findByTestId('register-device-result');
    expect(screen.getByTestId('register-device-secret').textContent).toContain(ANSWER.Secret);
    expect(screen.getByTestId('register-device-example').textContent).toContain('/ingest/v1/batch');
    expect(result.textContent).toContain('it is shown this once');
    expect(result.querySelectorAll('.ant-typography-copy').length).toBe(2);
    const sent = JSON.parse(callsTo(server, '/api/Device/Register')[0]!.body as string) as Record<string, unknown>;
    expect(sent).toMatchObject({ imei: '864512041234567', deviceType: 1, folderId: '-1', sensors: ['GNSS'] });
    expect(new Set(sent.instrSupport as string[])).toEqual(new Set(['AccCollectionSwitch', 'GNSSCollectionAdaptiveHighFrequency']));
  });

  it('shows the server refusal in the dialog', async () => {
    fakeServer({
      '/api/User/GetInfo': () => envelope(Code.Success, '', user({ IsPrimary: true })),
      '/api/Device/GetTree': () => envelope(Code.Success, '', EMPTY_TREE),
      '/api/Device/Register': () => envelope(Code.Invalid, 'The IMEI is registered already.', { Field: 'imei' }),
    });
    const first = page();
    fireEvent.click(await screen.findByTestId('register-device-open'));
    fireEvent.change(await screen.findByTestId('register-device-imei'), { target: { value: '864512041234567' } });
    fireEvent.click(screen.getByTestId('register-device-submit'));
    await waitFor(() => expect(screen.getByTestId('register-device-refusal').textContent).toContain('The IMEI is registered already.'));
    expect(screen.queryByTestId('register-device-result')).toBeNull();
    first.unmount();
  });

  it('shows no button to a member', async () => {
    const server = fakeServer({
      '/api/User/GetInfo': () => envelope(Code.Success, '', user({ IsPrimary: false })),
      '/api/Device/GetTree': () => envelope(Code.Success, '', EMPTY_TREE),
    });
    page();
    await waitFor(() => expect(callsTo(server, '/api/User/GetInfo').length).toBeGreaterThan(0));
    // the member's answer is in (a state, not a pause): the button is still not there
    await screen.findByTestId('user-loaded');
    expect(screen.queryByTestId('register-device-open')).toBeNull();
  });
});
