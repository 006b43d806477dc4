import { Code, type MovebankImportJob, type MovebankImportReportData } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/providers';
import { setLang } from '../../i18n';
import { clearSession } from '../../lib/session';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { MovebankImport, resetMovebankImportDialog } from './components/MovebankImport';

/** The Movebank import dialog's states from the server's answers (the upload itself is in the e2e spec). */

function report(overrides: Partial<MovebankImportReportData> = {}): MovebankImportReportData {
  return {
    Rows: 139_000,
    Stored: 138_996,
    Duplicates: 0,
    WithoutPosition: 0,
    MarkedInvalid: 2,
    OutOfRange: 0,
    MarksChanged: { Marked: 0, Unmarked: 0 },
    Bursts: { Stored: 0, Samples: 0, Duplicates: 0 },
    Devices: { Created: 20, Reused: 0 },
    Delimiter: ',',
    Skipped: [
      { Reason: 'unparseable timestamp: expected yyyy-MM-dd HH:mm:ss.SSS (UTC)', Count: 1, Examples: [{ Line: 2, EventId: '900001', Value: '31/05/2008 13:29:31' }] },
      { Reason: 'no tag or individual identifier', Count: 3, Examples: [{ Line: 3, EventId: '900002', Value: '' }, { Line: 9, EventId: '900008', Value: '' }] },
    ],
    Notices: [],
    Seconds: 17.6,
    Cancelled: true,
    ...overrides,
  };
}

function job(overrides: Partial<MovebankImportJob> = {}): MovebankImportJob {
  return {
    IdStr: '7',
    FolderIdStr: '-1',
    FileName: 'gulls.csv',
    ReferenceFileName: '',
    Status: 'running',
    Size: 43_700_000,
    BytesRead: 10_050_000,
    Percent: 23,
    Rows: 139_000,
    RowsPerSecond: 7_928,
    Stored: 135_000,
    CancelRequested: false,
    UserName: 'Ranger',
    CreateTime: '2026-11-24 15:01:50',
    StartTime: '2026-11-24 15:01:51',
    EndTime: '',
    Report: null,
    Error: '',
    ...overrides,
  };
}

beforeEach(() => {
  signInForTest();
  setLang('en');
  resetMovebankImportDialog();
});

afterEach(() => clearSession());

const open = async () => {
  render(
    <AppProviders>
      <MovebankImport folderId={null} />
    </AppProviders>,
  );
  fireEvent.click(await screen.findByTestId('movebank-import-open'));
};

describe('Movebank import dialog', () => {
  it('finds the running import again (after a reload), shows its progress, and cancels it: the answer names the records stored and the skipped rows', async () => {
    const cancelled = job({ Status: 'cancelled', Stored: 138_996, EndTime: '2026-11-24 15:02:09', Report: report() });
    let current = job();
    const server = fakeServer({
      '/api/Movebank/GetImportList': () => envelope(Code.Success, '', [current]),
      '/api/Movebank/GetImport': () => envelope(Code.Success, '', current),
      '/api/Movebank/CancelImport': () => {
        current = cancelled;
        return envelope(Code.Success, '', cancelled);
      },
    });
    await open();
    const view = await screen.findByTestId('movebank-import-job');
    expect(view.getAttribute('data-status')).toBe('running');
    expect(screen.getByTestId('movebank-import-rows').textContent).toBe('139,000');
    expect(screen.getByTestId('movebank-import-progress').getAttribute('aria-valuenow')).toBe('23');
    expect(view.textContent).toContain('7,928');
    // the toolbar button follows the import
    expect(screen.getByTestId('movebank-import-open').textContent).toContain('Importing… 23%');

    fireEvent.click(screen.getByTestId('movebank-import-cancel'));
    await waitFor(() => expect(screen.getByTestId('movebank-import-job').getAttribute('data-status')).toBe('cancelled'));
    expect(JSON.parse(callsTo(server, '/api/Movebank/CancelImport')[0]!.body as string)).toMatchObject({ id: '7' });
    expect(screen.getByText('Import cancelled: 138,996 records were stored before it stopped')).toBeTruthy();
    const rows = within(screen.getByTestId('movebank-report-skipped')).getAllByRole('row').slice(1);
    expect(rows.map((r) => Array.from(r.querySelectorAll('td')).slice(-3).map((td) => td.textContent))).toEqual([
      ['2', '900001', '31/05/2008 13:29:31'],
      ['3', '900002', '—'],
      ['9', '900008', '—'],
    ]);
    expect(screen.getByText('Skipped rows (4)')).toBeTruthy();
  });

  it('starts with the form when nothing runs (an import that ended does not take the dialog): the start stays disabled until a file is chosen', async () => {
    fakeServer({
      '/api/Movebank/GetImportList': () => envelope(Code.Success, '', [job({ IdStr: '6', Status: 'failed', Error: 'The import failed on the server (reference import-6); what it had stored stays' })]),
    });
    await open();
    const start = await screen.findByTestId('movebank-import-start');
    expect((start as HTMLButtonElement).disabled).toBe(true);
    expect(await screen.findByText('Folder')).toBeTruthy();
    expect(screen.getByText('Reference data (optional)')).toBeTruthy();
    expect(screen.queryByTestId('movebank-import-job')).toBeNull();
  });

  it("keeps the dialog and its import when the page swaps the button (an import's first devices replace the empty page by the toolbar)", async () => {
    const done = job({ Status: 'done', Percent: 100, BytesRead: 43_700_000, Report: report({ Cancelled: false }) });
    fakeServer({
      '/api/Movebank/GetImportList': () => envelope(Code.Success, '', [job()]),
      '/api/Movebank/GetImport': () => envelope(Code.Success, '', done),
    });
    const page = render(
      <AppProviders>
        <MovebankImport folderId={null} />
      </AppProviders>,
    );
    fireEvent.click(await screen.findByTestId('movebank-import-open'));
    await waitFor(() => expect(screen.getByTestId('movebank-import-job').getAttribute('data-status')).toBe('done'));
    page.unmount();
    render(
      <AppProviders>
        <MovebankImport folderId="-1" />
      </AppProviders>,
    );
    // no click: the report is still on screen
    expect((await screen.findByTestId('movebank-import-job')).getAttribute('data-status')).toBe('done');
    expect(screen.getByText('Import finished')).toBeTruthy();
  });

  it('speaks Chinese', async () => {
    setLang('zh');
    fakeServer({
      '/api/Movebank/GetImportList': () => envelope(Code.Success, '', [job({ Status: 'done', Percent: 100, BytesRead: 43_700_000, Report: report({ Cancelled: false, Skipped: [] }) })]),
      '/api/Movebank/GetImport': () => envelope(Code.Success, '', job({ Status: 'done', Percent: 100, BytesRead: 43_700_000, Report: report({ Cancelled: false, Skipped: [] }) })),
    });
    await open();
    expect(await screen.findByTestId('movebank-import-start')).toBeTruthy();
    expect(screen.getAllByText('导入 Movebank 文件').length).toBeGreaterThan(0);
    expect(await screen.findByText('文件夹')).toBeTruthy();
  });
});
