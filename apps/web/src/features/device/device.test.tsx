import { BEAST_MEASURES, BIRD_MEASURES, Code, DeviceType, Header, signingKey, signRequest } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/providers';
import { clearSession } from '../../lib/session';
import { deviceDetail, mountInfo, workStatus } from '../../test/devices';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { MEASURES, toFormValues, toMountInfo } from './animalForm';
import { AnimalInfoForm } from './components/AnimalInfoTab';
import { secondLevelFixBlock } from './components/DetailsTab';
import { DeviceDetails } from './components/DeviceDetails';
import { DeviceTable } from './components/DeviceTable';
import { signInForTest } from '../../test/session';

const IMEI = '860000000000011';

beforeEach(() => {
  signInForTest();
});

afterEach(() => clearSession());

function wrap(node: React.ReactNode) {
  return render(<AppProviders>{node}</AppProviders>);
}

describe('device details', () => {
  it('reads the details with the one GET of the API, signed over the path with its query', async () => {
    const server = fakeServer({ '/api/Device/GetDetailByIMEI': () => envelope(Code.Success, '', deviceDetail(IMEI, { Caption: 'Stork A', Status: 4 })) });
    wrap(<DeviceDetails imei={IMEI} />);
    await screen.findByText('Stork A', { selector: 'h4 *, h4' });
    const [url, init] = server.mock.calls.find(([u]) => u.includes('GetDetailByIMEI'))!;
    expect(init.method).toBe('GET');
    expect(init.body).toBeUndefined();
    expect(url).toBe(`/prod-api/api/Device/GetDetailByIMEI?imei=${IMEI}&timeZone=%2B08%3A00`);
    const headers = init.headers as Record<string, string>;
    const expected = signRequest(signingKey('token-abc'), {
      method: 'GET',
      path: `/api/Device/GetDetailByIMEI?imei=${IMEI}&timeZone=%2B08%3A00`,
      timestamp: headers[Header.timestamp]!,
      requestCode: headers[Header.requestCode]!,
      body: '',
    });
    expect(headers[Header.signature]).toBe(expected);
    expect(screen.getAllByText('Under maintenance').length).toBeGreaterThan(0);
  });

  it('keeps the second-level fix off limits for phones, without EditDevice and on examples (§5)', () => {
    const rights = deviceDetail(IMEI).Permission;
    expect(secondLevelFixBlock({ Type: DeviceType.Phone, Example: false, Permission: rights })).toBe('device.secondLevelPhone');
    expect(secondLevelFixBlock({ Type: DeviceType.Tracker, Example: false, Permission: { ...rights, EditDevice: false } })).toBe('device.noEditRight');
    expect(secondLevelFixBlock({ Type: DeviceType.Tracker, Example: true, Permission: rights })).toBe('device.readOnlyExample');
    expect(secondLevelFixBlock({ Type: DeviceType.Tracker, Example: false, Permission: rights })).toBeNull();
  });

  it("shows the server's refusal of the second-level fix beside the switch", async () => {
    fakeServer({
      '/api/Device/GetDetailByIMEI': () => envelope(Code.Success, '', deviceDetail(IMEI)),
      '/api/Device/SetSecondLevelFixEnable': () => envelope(1003, 'You do not have the right to edit this device'),
    });
    wrap(<DeviceDetails imei={IMEI} />);
    const toggle = await screen.findByTestId('second-level-fix');
    fireEvent.click(toggle);
    // it costs battery: asked first
    fireEvent.click(await screen.findByRole('button', { name: 'Turn on' }));
    expect(await screen.findByTestId('second-level-refusal')).toBeTruthy();
    expect(screen.getByTestId('second-level-refusal').textContent).toContain('You do not have the right to edit this device');
  });

  it('asks before turning second-level fixes on (battery), and sends nothing when cancelled', async () => {
    const server = fakeServer({
      '/api/Device/GetDetailByIMEI': () => envelope(Code.Success, '', deviceDetail(IMEI)),
      '/api/Device/SetSecondLevelFixEnable': () => envelope(Code.Success, '', null),
    });
    wrap(<DeviceDetails imei={IMEI} />);
    fireEvent.click(await screen.findByTestId('second-level-fix'));
    expect((await screen.findAllByText('Turn on second-level fixes?')).length).toBeGreaterThan(0);
    expect(screen.getByText(/uses noticeably more battery/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(callsTo(server, '/api/Device/SetSecondLevelFixEnable')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('second-level-fix'));
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Turn on' }).length).toBeGreaterThan(0));
    fireEvent.click(screen.getAllByRole('button', { name: 'Turn on' }).at(-1)!);
    await waitFor(() => expect(callsTo(server, '/api/Device/SetSecondLevelFixEnable')).toHaveLength(1));
    expect(JSON.parse(callsTo(server, '/api/Device/SetSecondLevelFixEnable')[0]!.body as string)).toEqual({ imei: IMEI, enabled: 1 });
  });

  it('asks before another tab drops unsaved animal info, and keeps the edits on "Keep editing"', { timeout: 90_000 }, async () => {
    fakeServer({
      '/api/Device/GetDetailByIMEI': () => envelope(Code.Success, '', deviceDetail(IMEI)),
      '/api/MountInfo/GetBirdInfo': () => envelope(Code.Success, '', mountInfo(IMEI)),
      '/api/MountInfo/GetBeastInfo': () => envelope(Code.Success, '', mountInfo(IMEI)),
      '/api/MountInfo/GetOtherSpeciesInfo': () => envelope(Code.Success, '', mountInfo(IMEI)),
      '/api/DeviceWorkStatus/Get': () => envelope(Code.Success, '', workStatus(IMEI)),
    });
    wrap(<DeviceDetails imei={IMEI} />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Animal info' }));
    const form = await screen.findByTestId('animal-form');
    const species = within(form).getByLabelText('Species');
    fireEvent.change(species, { target: { value: 'Edited species' } });
    fireEvent.click(screen.getByRole('tab', { name: 'Work status' }));
    expect((await screen.findAllByText('Discard the unsaved animal info?')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Keep editing' }));
    expect((within(screen.getByTestId('animal-form')).getByLabelText('Species') as HTMLInputElement).value).toBe('Edited species');
    expect(screen.getByRole('tab', { name: 'Animal info' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'Work status' }));
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Discard changes' }).length).toBeGreaterThan(0));
    fireEvent.click(screen.getAllByRole('button', { name: 'Discard changes' }).at(-1)!);
    await waitFor(() => expect(screen.queryByTestId('animal-form')).toBeNull());
    // without edits, tabs change at once
    fireEvent.click(screen.getByRole('tab', { name: 'Animal info' }));
    await screen.findByTestId('animal-form');
    fireEvent.click(screen.getByRole('tab', { name: 'Details' }));
    await waitFor(() => expect(screen.queryByTestId('animal-form')).toBeNull());
  });

  it('says why an example device is read-only and offers no save', async () => {
    fakeServer({
      '/api/Device/GetDetailByIMEI': () => envelope(Code.Success, '', deviceDetail(IMEI, { Example: true })),
      '/api/MountInfo/GetBirdInfo': () => envelope(Code.Success, '', mountInfo(IMEI)),
    });
    wrap(<DeviceDetails imei={IMEI} />);
    expect((await screen.findByTestId('example-note')).textContent).toContain('only its remark name can be changed');
    expect((screen.getByTestId('second-level-fix') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('tab', { name: 'Animal info' }));
    await screen.findByTestId('animal-form');
    expect(screen.queryByTestId('save-animal')).toBeNull();
    expect(screen.queryByTestId('add-custom-field')).toBeNull();
  });

  it('shows the work status read-only', async () => {
    fakeServer({
      '/api/Device/GetDetailByIMEI': () => envelope(Code.Success, '', deviceDetail(IMEI)),
      '/api/DeviceWorkStatus/Get': () => envelope(Code.Success, '', workStatus(IMEI, { GNSSCollectionMode: 128 })),
    });
    wrap(<DeviceDetails imei={IMEI} />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Work status' }));
    expect((await screen.findByTestId('gnss-mode')).textContent).toBe('Voltage-adaptive high frequency');
    expect(screen.getByText('30 min')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('says a work status the device never reported is unknown, showing no schedule', async () => {
    fakeServer({
      '/api/Device/GetDetailByIMEI': () => envelope(Code.Success, '', deviceDetail(IMEI)),
      '/api/DeviceWorkStatus/Get': () => envelope(Code.Success, '', { Known: false, IMEI, LastWorkTime: '', BatteryType: 0 }),
    });
    wrap(<DeviceDetails imei={IMEI} />);
    fireEvent.click(await screen.findByRole('tab', { name: 'Work status' }));
    expect((await screen.findByTestId('work-status-unknown')).textContent).toContain('Unknown (the device has not reported it)');
    expect(screen.queryByTestId('gnss-mode')).toBeNull();
  });
});

describe('animal info', () => {
  it('has 9 measures for birds, 11 for beasts and none for other species (the contract mapping)', () => {
    expect(MEASURES.bird).toBe(BIRD_MEASURES);
    expect(MEASURES.bird).toHaveLength(9);
    expect(MEASURES.beast).toBe(BEAST_MEASURES);
    expect(MEASURES.beast).toHaveLength(11);
    expect(MEASURES.other).toHaveLength(0);
  });

  it('turns the form back into the same MountInfo (times as text in the zone)', () => {
    const info = mountInfo(IMEI, { Measurements: { WingLength: 61.2 } });
    const values = toFormValues(info, BIRD_MEASURES);
    expect(values.CaptureTime?.format('YYYY-MM-DD HH:mm:ss')).toBe('2026-05-01 06:30:00');
    const back = toMountInfo(IMEI, values, BIRD_MEASURES);
    expect(back.WorkInfo).toEqual(info.WorkInfo);
    expect(back.AnimalInfo).toEqual(info.AnimalInfo);
    expect(back.AdditionalInfo).toEqual(info.AdditionalInfo);
    expect(back.Measurements.WingLength).toBe(61.2);
    expect(back.Measurements.Tarsus).toBeNull();
  });

  it('refuses an empty or duplicate custom field name, then saves with the species call', async () => {
    const server = fakeServer({ '/api/MountInfo/SaveBirdInfo': () => envelope(Code.Success, 'ok') });
    wrap(<AnimalInfoForm imei={IMEI} species="bird" info={mountInfo(IMEI)} readOnly={false} />);
    expect(within(await screen.findByTestId('measures')).getAllByRole('spinbutton')).toHaveLength(9);
    fireEvent.click(screen.getByTestId('add-custom-field'));
    fireEvent.click(screen.getByTestId('save-animal'));
    expect(await screen.findByText('Enter the field name.')).toBeTruthy();
    fireEvent.change(document.querySelector('#AdditionalInfo_1_Name')!, { target: { value: 'ring' } });
    fireEvent.click(screen.getByTestId('save-animal'));
    expect((await screen.findAllByText('The field name is used twice.')).length).toBeGreaterThan(0);
    expect(callsTo(server, '/api/MountInfo/SaveBirdInfo')).toHaveLength(0);

    fireEvent.change(document.querySelector('#AdditionalInfo_1_Name')!, { target: { value: 'Band' } });
    fireEvent.change(document.querySelector('#AdditionalInfo_1_Value')!, { target: { value: 'B-7' } });
    fireEvent.click(screen.getByTestId('save-animal'));
    await waitFor(() => expect(callsTo(server, '/api/MountInfo/SaveBirdInfo')).toHaveLength(1));
    const body = JSON.parse(callsTo(server, '/api/MountInfo/SaveBirdInfo')[0]!.body as string) as ReturnType<typeof toMountInfo> & { timeZone: string };
    expect(body.AdditionalInfo).toEqual([
      { Name: 'Ring', Value: 'C-0421' },
      { Name: 'Band', Value: 'B-7' },
    ]);
    expect(body.timeZone).toBe('+08:00');
    expect(body.WorkInfo.CaptureTime).toBe('2026-05-01 06:30:00');
  });
});

describe('device table', () => {
  it('asks for page 1 again when sorted and when another folder is chosen (page size and sort kept)', async () => {
    const server = fakeServer({
      '/api/Device/GetDetailByFolder': () =>
        envelope(Code.Success, '', { List: [deviceDetail('860000000000001'), deviceDetail('860000000000002')], Total: 45 }),
    });
    const asked = () => callsTo(server, '/api/Device/GetDetailByFolder').length;
    const last = () => JSON.parse(callsTo(server, '/api/Device/GetDetailByFolder').at(-1)!.body as string) as Record<string, unknown>;
    const view = wrap(<DeviceTable folderId="1" selectedImei={null} onSelect={() => undefined} />);
    await waitFor(() => expect(asked()).toBe(1));
    fireEvent.click(await screen.findByTitle('2'));
    await waitFor(() => expect(last()).toMatchObject({ currentPage: 2 }));
    fireEvent.click(screen.getAllByRole('columnheader').find((h) => h.textContent === 'IMEI')!);
    await waitFor(() => expect(last()).toMatchObject({ currentPage: 1, sortField: 'IMEI', sortOrder: 'ascend' }));
    fireEvent.click(await screen.findByTitle('3'));
    await waitFor(() => expect(last()).toMatchObject({ currentPage: 3, sortField: 'IMEI' }));
    view.rerender(
      <AppProviders>
        <DeviceTable folderId="2" selectedImei={null} onSelect={() => undefined} />
      </AppProviders>,
    );
    await waitFor(() => expect(last()).toMatchObject({ folderId: '2', currentPage: 1, sortField: 'IMEI', sortOrder: 'ascend' }));
  });

  it('tells a folder without devices plainly, with no table (an empty table was a scroll box a keyboard cannot reach)', async () => {
    fakeServer({ '/api/Device/GetDetailByFolder': () => envelope(Code.Success, '', { List: [], Total: 0 }) });
    const view = wrap(<DeviceTable folderId="7" selectedImei={null} onSelect={() => undefined} />);
    expect((await screen.findByTestId('device-table-empty')).textContent).toContain('This folder holds no devices');
    expect(view.container.querySelector('.ant-table')).toBeNull();
  });

  it("makes the table's scroll box a named keyboard stop (it can scroll while no row is there to focus)", async () => {
    fakeServer({ '/api/Device/GetDetailByFolder': () => envelope(Code.Success, '', { List: [deviceDetail('860000000000001')], Total: 1 }) });
    const view = wrap(<DeviceTable folderId="1" selectedImei={null} onSelect={() => undefined} />);
    await screen.findByText('860000000000001');
    const body = view.container.querySelector<HTMLElement>('.ant-table-body');
    expect(body?.tabIndex).toBe(0);
    expect(body?.getAttribute('role')).toBe('region');
    expect(body?.getAttribute('aria-label')).toBe('Device list (scrolls with the arrow keys)');
  });
});

