import { Code, type Fence } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router';
import { AppProviders } from '../../app/providers';
import { clearSession } from '../../lib/session';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { FencePage } from './FencePage';

function fence(overrides: Partial<Fence> = {}): Fence {
  return {
    Id: 5,
    IdStr: '5',
    Label: 'Wetland core',
    Type: 1,
    Shape: { Type: 'Polygon', Coordinates: [[116, 40], [116.01, 40], [116.01, 40.01], [116, 40.01], [116, 40]] },
    Area: 947_000,
    Enabled: 1,
    InOrOut: 'ENTER',
    RuleType: 1,
    AllowSendInstr: 0,
    Collection: { Mode: 'INTERVAL', IntervalMinutes: 5 },
    Postback: { Mode: 'HOUR', Hours: [0, 12], Realtime: false },
    TimeZone: '+08:00',
    Devices: [{ IMEI: '860000000000011', Caption: 'Stork A' }],
    Example: false,
    Editable: true,
    Removable: true,
    Owner: null,
    CreateTime: '2026-11-24 10:00:00',
    UpdateTime: '2026-11-24 10:00:00',
    detail: { RemoteRule: 1, DeviceRule: 0, Synchronized: 1 },
    ...overrides,
  };
}

const sampleFence = fence({ Id: 9, IdStr: '9', Label: 'Sample reserve', Example: true, Editable: false, Removable: false, Type: 2, Shape: { Type: 'Circle', Center: [116, 40], Radius: 3000 }, Area: 28_274_334, Devices: [{ IMEI: '860000000000099', Caption: 'Sample stork' }] });

function renderPage(path = '/fence') {
  return render(
    <AppProviders>
      <MemoryRouter initialEntries={[path]}>
        <FencePage />
      </MemoryRouter>
    </AppProviders>,
  );
}

beforeEach(() => signInForTest());
afterEach(() => clearSession());

describe('/fence', () => {
  it('lists fences with type, area in the best unit, devices; a sample fence is read-only with the reason; delete asks first', async () => {
    const server = fakeServer({
      '/api/Fence/GetFenceList': () => envelope(Code.Success, '', { List: [fence(), sampleFence], Total: 2 }),
      '/api/Fence/Delete': () => envelope(Code.Success, '', null),
      '/api/Fence/Enable': () => envelope(Code.Success, '', fence({ Enabled: 0 })),
    });
    renderPage();
    const items = await screen.findAllByTestId('fence-item');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByTestId('fence-item-area').textContent).toBe('94.7 ha');
    expect(within(items[1]!).getByTestId('fence-item-area').textContent).toBe('28.3 km²');
    expect(items[0]!.textContent).toContain('1 device');
    // the sample's switch and delete are greyed
    expect(within(items[1]!).getByTestId('fence-item-enabled').hasAttribute('disabled') || within(items[1]!).getByTestId('fence-item-enabled').className.includes('disabled')).toBe(true);
    expect((within(items[1]!).getByTestId('fence-item-delete') as HTMLButtonElement).disabled).toBe(true);

    // switching off
    fireEvent.click(within(items[0]!).getByTestId('fence-item-enabled'));
    await waitFor(() => expect(callsTo(server, '/api/Fence/Enable')).toHaveLength(1));
    expect(JSON.parse(callsTo(server, '/api/Fence/Enable')[0]!.body as string)).toMatchObject({ fenceId: '5', enabled: 0 });

    // delete: nothing before the confirmation
    fireEvent.click(within(items[0]!).getByTestId('fence-item-delete'));
    expect(await screen.findByText('Delete the geofence “Wetland core”? Its rules are removed from its devices.')).toBeTruthy();
    expect(callsTo(server, '/api/Fence/Delete')).toHaveLength(0);
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1)!);
    await waitFor(() => expect(callsTo(server, '/api/Fence/Delete')).toHaveLength(1));
  });

  it('exports the fences as GeoJSON or KML from the list, sending the format chosen', async () => {
    const server = fakeServer({
      '/api/Fence/GetFenceList': () => envelope(Code.Success, '', { List: [fence(), sampleFence], Total: 2 }),
      '/api/Fence/Export': () => envelope(Code.Forbidden, 'Not allowed', null),
    });
    renderPage();
    await screen.findAllByTestId('fence-item');
    fireEvent.click(screen.getByTestId('fence-export'));
    expect((await screen.findByTestId('fence-export-geojson')).textContent).toBe('GeoJSON');
    fireEvent.click(screen.getByTestId('fence-export-kml'));
    await waitFor(() => expect(callsTo(server, '/api/Fence/Export')).toHaveLength(1));
    expect(JSON.parse(callsTo(server, '/api/Fence/Export')[0]!.body as string)).toMatchObject({ fileType: 'kml' });
    expect(await screen.findAllByText('Not allowed')).toHaveLength(1);
  });

  it("says so when there is none, and when the list can't be read (with Retry)", async () => {
    let fail = true;
    fakeServer({ '/api/Fence/GetFenceList': () => (fail ? envelope(Code.Failed, 'Database busy') : envelope(Code.Success, '', { List: [], Total: 0 })) });
    renderPage();
    expect(await screen.findByText('The geofences could not be loaded')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('fence-empty')).toBeTruthy();
  });

  it("a new fence saved empty names each missing part with the contract's sentence and calls nothing; a stored one's refusal is shown as the server says it", async () => {
    const server = fakeServer({
      '/api/Fence/GetFenceList': () => envelope(Code.Success, '', { List: [fence()], Total: 1 }),
      '/api/Fence/GetRuleListByType': () => envelope(Code.Success, '', { List: [] }),
      '/api/Fence/Update': () => envelope(Code.Invalid, 'The shape crosses itself.'),
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('fence-new'));
    fireEvent.click(screen.getByTestId('fence-save'));
    const form = screen.getByTestId('fence-form');
    expect(await within(form).findByText('Choose at least one device.')).toBeTruthy();
    expect(within(form).getByText(/Finish drawing the geofence/)).toBeTruthy();
    expect(callsTo(server, '/api/Fence/Create')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('fence-cancel'));

    // the stored fence opens with its settings, and the server's refusal shows beside Save
    fireEvent.click(await screen.findByTestId('fence-item-open'));
    expect((screen.getByTestId('fence-label') as HTMLInputElement).value).toBe('Wetland core');
    expect(screen.getByTestId('fence-area').textContent).toBe('Area: 94.7 ha');
    fireEvent.click(screen.getByTestId('fence-save'));
    expect((await screen.findByTestId('fence-refusal')).textContent).toContain('The shape crosses itself.');
    expect(JSON.parse(callsTo(server, '/api/Fence/Update')[0]!.body as string)).toMatchObject({ fenceId: '5', label: 'Wetland core', inOrOut: 'ENTER', collection: { Mode: 'INTERVAL', IntervalMinutes: 5 } });
  });

  it('shows only one device’s fences when opened from its details', async () => {
    fakeServer({ '/api/Fence/GetFenceList': () => envelope(Code.Success, '', { List: [fence(), sampleFence], Total: 2 }) });
    renderPage('/fence?imei=860000000000011');
    expect(await screen.findByTestId('fence-only-device')).toBeTruthy();
    expect(await screen.findAllByTestId('fence-item')).toHaveLength(1);
  });
});
