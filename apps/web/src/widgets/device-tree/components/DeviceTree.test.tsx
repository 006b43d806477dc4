import { Code, DeviceType, SensorFlag } from '@wildtrack/contract';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { setLang } from '../../../i18n';
import { resetClientForTests } from '../../../lib/api/client';
import { queryClient } from '../../../lib/queryClient';
import { clearSession, setToken, writeStoredUser } from '../../../lib/session';
import { folder, tree, treeDevice } from '../../../test/devices';
import { callsTo, envelope, fakeServer } from '../../../test/server';
import { DeviceTree } from './DeviceTree';
import { getTreeSelection, resetTreeSelection } from '../model';

function sample() {
  return tree(
    folder('-1', 'Qinling Reserve', {
      folders: [
        folder('10', 'Storks', {
          devices: [
            treeDevice('860000000000011', { Caption: 'Stork A', Sensor: SensorFlag.GNSS | SensorFlag.Temperature }),
            treeDevice('860000000000012', { Caption: 'Stork B', Sensor: SensorFlag.GNSS }),
          ],
        }),
        folder('20', 'Full folder', { devices: [treeDevice('860000000000021', { Caption: 'Deer' })] }),
      ],
      devices: [treeDevice('860000000000001', { Caption: 'VHF station', Type: DeviceType.VHFReceiver })],
    }),
    folder('0', 'Experience', { example: true, devices: [treeDevice('860000000009001', { Caption: 'Sample stork', Example: true })] }),
  );
}

const titles = (): string[] => Array.from(document.querySelectorAll('.wt-tree-name')).map((n) => n.textContent ?? '');

beforeEach(() => {
  setLang('en');
  resetClientForTests();
  resetTreeSelection();
  queryClient.clear();
  setToken('token-abc');
  writeStoredUser({ timeZone: '+08:00' });
});

afterEach(() => {
  clearSession();
});

function renderTree(page: 'device' | 'download' | 'share' = 'device') {
  return render(
    <AppProviders>
      <DeviceTree page={page} />
    </AppProviders>,
  );
}

describe('DeviceTree', () => {
  it('loads, shows counts, selects the first normal device and opens its folder (§4)', async () => {
    const server = fakeServer({ '/api/Device/GetTree': () => envelope(Code.Success, '', sample()) });
    renderTree();
    await screen.findByText('Stork A');
    expect(titles()).toEqual(['Our devices', 'Storks', 'Stork A', 'Stork B', 'Full folder', 'VHF station', 'Experience devices']);
    expect(getTreeSelection('device')).toMatchObject({ folderId: '10', imei: '860000000000011' });
    expect(screen.getByTestId('tree-folder-10').querySelector('[data-testid="folder-count"]')?.textContent).toBe('2');
    // the VHF receiver is greyed out on every page (§6)
    expect(screen.getByText('VHF station').closest('.ant-tree-treenode')?.className).toContain('ant-tree-treenode-disabled');
    expect(screen.queryByRole('checkbox')).toBeNull();
    const sent = JSON.parse(callsTo(server, '/api/Device/GetTree')[0]!.body as string) as { timeZone: string };
    expect(sent.timeZone).toBe('+08:00');
  });

  it('searches by IMEI and by name, and tells how many match', async () => {
    fakeServer({ '/api/Device/GetTree': () => envelope(Code.Success, '', sample()) });
    renderTree();
    await screen.findByText('Stork A');
    fireEvent.change(screen.getByPlaceholderText('Name, remark name or IMEI'), { target: { value: '0021' } });
    await waitFor(() => expect(titles()).toEqual(['Our devices', 'Full folder', 'Deer']));
    expect(screen.getByTestId('tree-summary').textContent).toBe('Matching: 1 of 5');
    fireEvent.change(screen.getByPlaceholderText('Name, remark name or IMEI'), { target: { value: 'nothing' } });
    expect(await screen.findByText('No device matches')).toBeTruthy();
  });

  it('offers the sensor filter values of §6 with counts and filters by them', async () => {
    const data = { ...sample(), SensorCounts: { '0': 5, '2': 1, '7': 4 } };
    fakeServer({ '/api/Device/GetTree': () => envelope(Code.Success, '', data) });
    renderTree();
    await screen.findByText('Stork A');
    fireEvent.mouseDown(within(screen.getByTestId('tree-sensor-filter')).getByRole('combobox'));
    const option = await screen.findByTitle('Temperature (1)');
    expect(screen.getByTitle('GNSS (4)')).toBeTruthy();
    fireEvent.click(option);
    await waitFor(() => expect(titles()).toEqual(['Our devices', 'Storks', 'Stork A']));
  });

  it('checks devices on a checkable page and greys out what the page does not allow', async () => {
    fakeServer({ '/api/Device/GetTree': () => envelope(Code.Success, '', sample()) });
    renderTree('download');
    await screen.findByText('Stork A');
    expect(document.querySelectorAll('.ant-tree-checkbox').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByText('Stork B').closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox')!);
    await waitFor(() => expect(getTreeSelection('download').checkedKeys).toContain('d:10:860000000000012'));
  });

  it('starts /share filtered to the devices the user may share, says how many are hidden and shows them on request (§5)', async () => {
    fakeServer({ '/api/Device/GetTree': () => envelope(Code.Success, '', sample()) });
    renderTree('share');
    await screen.findByText('Stork A');
    // the VHF receiver can't be shared: left out, and the hint says so
    expect(titles()).not.toContain('VHF station');
    const hint = screen.getByTestId('tree-right-hidden');
    expect(hint.textContent).toContain('Hidden: 1 without the share right');
    fireEvent.click(within(hint).getByRole('button', { name: 'Show all' }));
    await waitFor(() => expect(titles()).toContain('VHF station'));
    expect(screen.queryByTestId('tree-right-hidden')).toBeNull();
  });

  it('checks a folder as the devices below it, half-checking the folders above', async () => {
    fakeServer({ '/api/Device/GetTree': () => envelope(Code.Success, '', sample()) });
    renderTree('download');
    await screen.findByText('Stork A');
    const checkbox = (name: string): HTMLElement => screen.getByText(name).closest('.ant-tree-treenode')!.querySelector<HTMLElement>('.ant-tree-checkbox')!;
    fireEvent.click(checkbox('Storks'));
    await waitFor(() => expect([...getTreeSelection('download').checkedKeys].sort()).toEqual(['d:10:860000000000011', 'd:10:860000000000012', 'f:10']));
    expect(checkbox('Storks').className).toContain('ant-tree-checkbox-checked');
    expect(checkbox('Stork B').getAttribute('aria-checked')).toBe('true');
    expect(checkbox('Our devices').className).toContain('ant-tree-checkbox-indeterminate');
    // the VHF receiver can't be checked
    expect(checkbox('VHF station').className).toContain('ant-tree-checkbox-disabled');
    fireEvent.click(checkbox('VHF station'));
    fireEvent.click(checkbox('Stork A'));
    await waitFor(() => expect(getTreeSelection('download').checkedKeys).toEqual(['d:10:860000000000012']));
  });

  it('moves, closes, opens and selects with the keyboard', async () => {
    fakeServer({ '/api/Device/GetTree': () => envelope(Code.Success, '', sample()) });
    renderTree();
    await screen.findByText('Stork A');
    const list = screen.getByRole('tree');
    list.focus();
    // the walk starts at the selected device
    fireEvent.keyDown(list, { key: 'ArrowUp' });
    expect(list.getAttribute('aria-activedescendant')).toBe(screen.getByText('Storks').closest('[role="treeitem"]')!.id);
    fireEvent.keyDown(list, { key: 'ArrowLeft' });
    await waitFor(() => expect(titles()).toEqual(['Our devices', 'Storks', 'Full folder', 'VHF station', 'Experience devices']));
    fireEvent.keyDown(list, { key: 'Enter' });
    await waitFor(() => expect(getTreeSelection('device')).toMatchObject({ folderId: '10', imei: null }));
    fireEvent.keyDown(list, { key: 'ArrowRight' });
    await waitFor(() => expect(titles()).toContain('Stork B'));
    expect(screen.getByText('Storks').closest('[role="treeitem"]')!.getAttribute('aria-expanded')).toBe('true');
  });

  it('warns before deleting a folder that holds devices, without asking the server (§5)', async () => {
    const server = fakeServer({ '/api/Device/GetTree': () => envelope(Code.Success, '', sample()) });
    renderTree();
    await screen.findByText('Full folder');
    fireEvent.click(within(screen.getByTestId('tree-folder-20')).getByRole('button', { name: 'Actions' }));
    fireEvent.click(await screen.findByText('Delete folder'));
    expect(await screen.findByText('The folder "Full folder" holds 1 device(s) and cannot be deleted. Move them to another folder first.')).toBeTruthy();
    expect(callsTo(server, '/api/Folder/Delete')).toHaveLength(0);
  });

  it('creates a folder: the name is required, the tree is read again', async () => {
    let created = false;
    const server = fakeServer({
      '/api/Device/GetTree': () => {
        const data = sample();
        if (created) data.Folders[0]!.Folders.push(folder('30', 'Seals'));
        return envelope(Code.Success, '', data);
      },
      '/api/Folder/Create': () => {
        created = true;
        return envelope(Code.Success, 'ok', { IdStr: '30' });
      },
    });
    renderTree();
    await screen.findByText('Stork A');
    fireEvent.click(screen.getByRole('button', { name: 'New folder in the device list' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter a folder name.')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '  Seals ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Seals');
    expect(JSON.parse(callsTo(server, '/api/Folder/Create')[0]!.body as string)).toEqual({ name: 'Seals', parentId: '-1' });
    expect(callsTo(server, '/api/Device/GetTree').length).toBe(2);
  });

  it('offers only the remark name on an example device and nothing on the experience folder', async () => {
    fakeServer({ '/api/Device/GetTree': () => envelope(Code.Success, '', sample()) });
    renderTree();
    await screen.findByText('Stork A');
    expect(within(screen.getByTestId('tree-folder-0')).queryByRole('button', { name: 'Actions' })).toBeNull();
    fireEvent.click(screen.getByText('Experience devices').closest('.ant-tree-treenode')!.querySelector('.ant-tree-switcher')!);
    const example = await screen.findByTestId('tree-device-860000000009001');
    fireEvent.click(within(example).getByRole('button', { name: 'Actions' }));
    expect(await screen.findByRole('menuitem', { name: /Remark name/ })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: /Move to folder/ })).toBeNull();
  });

  describe("the rows' marks (issue 12 item 1)", () => {
    const NOW = Date.UTC(2026, 10, 24, 10, 0, 0);
    const MIN = 60_000;
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
      vi.setSystemTime(NOW);
    });
    afterEach(() => vi.useRealTimers());

    const mark = (imei: string) => screen.getByTestId(`tree-device-${imei}`).querySelector<HTMLElement>('[data-testid="tree-link-mark"]');

    it('marks each device against its own schedule and the clock, and reads the marks again as devices report', async () => {
      // Stork A: a fix 12 min ago, reports every 10 min; Stork B: never; the VHF station: 5 days ago on a 7 h gap
      let storkB: number | null = null;
      const server = fakeServer({
        '/api/Device/GetTree': () => envelope(Code.Success, '', sample()),
        '/api/Device/GetTreeState': () =>
          envelope(Code.Success, '', {
            IMEI: ['860000000000011', '860000000000012', '860000000000001'],
            LastWorkAt: [NOW - 12 * MIN, storkB, NOW - 5 * 1440 * MIN],
            ReportGapMinutes: [10, 420, 420],
          }),
      });
      renderTree();
      await screen.findByText('Stork A');
      await waitFor(() => expect(mark('860000000000011')?.dataset.state).toBe('online'));
      expect(mark('860000000000011')!.getAttribute('aria-label')).toBe('Online · last fix 12 minutes ago');
      expect(mark('860000000000011')!.getAttribute('role')).toBe('img');
      expect(mark('860000000000012')!.dataset.state).toBe('never');
      expect(mark('860000000000012')!.getAttribute('aria-label')).toBe('Never reported');
      expect(mark('860000000000001')!.dataset.state).toBe('silent');
      expect(mark('860000000000001')!.getAttribute('title')).toBe('Silent · last fix 5 days ago');
      // no state known: no mark (the experience device is not in the answer)
      fireEvent.click(screen.getByText('Experience devices').closest('.ant-tree-treenode')!.querySelector('.ant-tree-switcher')!);
      expect(mark('860000000009001')).toBeNull();
      // the folders carry none
      expect(screen.getByTestId('tree-folder-10').querySelector('[data-testid="tree-link-mark"]')).toBeNull();

      // 10 minutes on, without a new answer: Stork A is late (22 min on a 10 min schedule: over 1.5 gaps)
      act(() => void vi.advanceTimersByTime(10 * MIN));
      await waitFor(() => expect(mark('860000000000011')?.dataset.state).toBe('late'));
      expect(mark('860000000000011')!.getAttribute('aria-label')).toBe('Late · last fix 22 minutes ago');

      // Stork B reports: within a minute the tree reads the marks again and shows it online, the tree itself not read again
      const detailOf = (imei: string) => ['devices', 'detail', imei, '+08:00', 'en'];
      const list = ['devices', 'list', { folderId: '10' }, '+08:00', 'en'];
      for (const key of [detailOf('860000000000011'), detailOf('860000000000012'), list]) queryClient.setQueryData(key, {});
      storkB = Date.now() - 2 * MIN;
      const before = callsTo(server, '/api/Device/GetTreeState').length;
      act(() => void vi.advanceTimersByTime(60_000));
      await waitFor(() => expect(mark('860000000000012')?.dataset.state).toBe('online'));
      expect(callsTo(server, '/api/Device/GetTreeState').length).toBeGreaterThan(before);
      expect(callsTo(server, '/api/Device/GetTree')).toHaveLength(1);
      // what the screens hold of Stork B and the lists is read again; Stork A, which sent nothing new, not
      expect(queryClient.getQueryState(detailOf('860000000000012'))?.isInvalidated).toBe(true);
      expect(queryClient.getQueryState(list)?.isInvalidated).toBe(true);
      expect(queryClient.getQueryState(detailOf('860000000000011'))?.isInvalidated).toBe(false);
    });

    it('labels the marks in Chinese', async () => {
      setLang('zh');
      fakeServer({
        '/api/Device/GetTree': () => envelope(Code.Success, '', sample()),
        '/api/Device/GetTreeState': () => envelope(Code.Success, '', { IMEI: ['860000000000011', '860000000000012'], LastWorkAt: [NOW - 12 * MIN, null], ReportGapMinutes: [10, 420] }),
      });
      renderTree();
      await screen.findByText('Stork A');
      await waitFor(() => expect(mark('860000000000011')?.getAttribute('aria-label')).toBe('在线 · 最后定位 12分钟前'));
      expect(mark('860000000000012')!.getAttribute('aria-label')).toBe('从未上报');
    });
  });
});
