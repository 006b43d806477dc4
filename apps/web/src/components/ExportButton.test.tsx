import { Code } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../app/providers';
import { clearSession } from '../lib/session';
import { callsTo, envelope, fakeServer } from '../test/server';
import { signInForTest } from '../test/session';
import { ExportButton } from './ExportButton';

beforeEach(() => signInForTest());
afterEach(() => clearSession());

const show = (props: Partial<Parameters<typeof ExportButton>[0]> = {}) =>
  render(
    <AppProviders>
      <ExportButton imei="864512040001173" name="Oriental stork F07" kind="fix" start="2026-11-25 00:00:00" end="2026-11-25 23:59:59" canDownload {...props} />
    </AppProviders>,
  );

describe('the Export button', () => {
  it('is disabled, with the permission tooltip, without DownloadData', () => {
    show({ canDownload: false });
    expect(screen.getByTestId('export-button-fix')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('export-blocked-fix')).toBeTruthy();
  });

  it('without a device asks for one', () => {
    show({ imei: undefined });
    expect(screen.getByTestId('export-button-fix')).toHaveProperty('disabled', true);
  });

  it('offers XLS, CSV and Movebank CSV, confirms, sends the spec body, and shows a refusal\'s message', async () => {
    const server = fakeServer({ '/api/Export/Download': () => envelope(Code.Forbidden, 'No download permission: the data cannot be exported', null) });
    show();
    fireEvent.click(screen.getByTestId('export-button-fix'));
    expect(await screen.findByTestId('export-movebank')).toBeTruthy();
    fireEvent.click(await screen.findByTestId('export-xls'));
    const dialog = await screen.findByTestId('export-confirm');
    expect(dialog.textContent).toContain('65,536');
    fireEvent.click(screen.getByTestId('export-ok'));
    await waitFor(() => expect(callsTo(server, '/api/Export/Download')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(server, '/api/Export/Download')[0]!.body))).toMatchObject({ imei: '864512040001173', kind: 'fix', fileType: 'xls', startTime: '2026-11-25 00:00:00', endTime: '2026-11-25 23:59:59' });
    // shown once, by the client's envelope handling
    expect(await screen.findAllByText('No download permission: the data cannot be exported')).toHaveLength(1);
  });

  it('offers GeoJSON, GPX and KML for positions only, says what they hold, and sends the chosen format', async () => {
    const server = fakeServer({ '/api/Export/Download': () => envelope(Code.Forbidden, 'No download permission: the data cannot be exported', null) });
    const { unmount } = show({ kind: 'temperature' });
    fireEvent.click(screen.getByTestId('export-button-temperature'));
    expect(await screen.findByTestId('export-csv')).toBeTruthy();
    for (const type of ['geojson', 'gpx', 'kml']) expect(screen.queryByTestId(`export-${type}`)).toBeNull();
    unmount();
    show();
    fireEvent.click(screen.getByTestId('export-button-fix'));
    expect((await screen.findByTestId('export-geojson')).textContent).toBe('GeoJSON');
    expect(screen.getByTestId('export-kml').textContent).toBe('KML (Google Earth)');
    fireEvent.click(screen.getByTestId('export-gpx'));
    const dialog = await screen.findByTestId('export-confirm');
    expect(dialog.textContent).toContain('as GPX?');
    expect(dialog.textContent).toContain('GPX and KML hold the track of the valid fixes');
    fireEvent.click(screen.getByTestId('export-ok'));
    await waitFor(() => expect(callsTo(server, '/api/Export/Download')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(server, '/api/Export/Download')[0]!.body))).toMatchObject({ imei: '864512040001173', kind: 'fix', fileType: 'gpx' });
  });
});
