import { Code, InstrSupportFlag, SensorFlag, type Instruction } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { clearSession } from '../../lib/session';
import { getTreeSelection, resetTreeSelection, setTreeSelection } from '../../widgets/device-tree';
import { InstructionHistory } from '../../widgets/instructions';
import { deviceDetail, folder, tree, treeDevice } from '../../test/devices';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { InstrPage } from './InstrPage';

/** The instant the tests run at (Date faked, the timers real): the sample instruction was sent then. */
const SENT_AT = Date.UTC(2026, 10, 24, 2, 0, 0); // 2026-11-24 10:00 at +08:00

const A = '860000000000011';
const B = '860000000000012';
const ALL_SUPPORT = Object.values(InstrSupportFlag).reduce((m, b) => m | b, 0);

function sample(support = ALL_SUPPORT) {
  return tree(
    folder('-1', 'Qinling Reserve', {
      devices: [
        treeDevice(A, { Caption: 'Stork A', Sensor: SensorFlag.GNSS | SensorFlag.Acceleration, InstrSupport: support }),
        treeDevice(B, { Caption: 'Stork B', Sensor: SensorFlag.GNSS | SensorFlag.Acceleration, InstrSupport: support }),
      ],
    }),
  );
}

export function instruction(overrides: Partial<Instruction> = {}): Instruction {
  return {
    Id: 7,
    IdStr: '7',
    IMEI: A,
    Caption: 'Stork A',
    RelayIMEI: '',
    RelayCaption: '',
    SenderName: 'Ranger Li',
    InstrType: 'ACQUISITION_FREQUENCY',
    Desc: 'Collection schedule',
    Detail: 'A fix every 10 min',
    Params: { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 10 } },
    TimeZone: '+08:00',
    Status: 'SENT',
    SendTime: '2026-11-24 10:00:00',
    SendAt: SENT_AT,
    EstimateExecuteTime: '2026-11-24 10:10:00',
    ExecuteTime: '',
    ErrorMessage: '',
    CanWithdraw: true,
    ...overrides,
  };
}

const emptyHistory = () => envelope(Code.Success, '', { List: [], Total: 0 });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: SENT_AT });
  signInForTest();
  resetTreeSelection();
});
afterEach(() => {
  clearSession();
  vi.useRealTimers();
});

function renderPage() {
  setTreeSelection('instr', { checkedKeys: [`d:-1:${A}`, `d:-1:${B}`] });
  return render(
    <AppProviders>
      <InstrPage />
    </AppProviders>,
  );
}

async function chooseOption(testId: string, label: string) {
  const select = screen.getByTestId(testId);
  fireEvent.mouseDown(select.querySelector('.ant-select-selector, .ant-select-content, [role=combobox]') ?? select);
  const options = await screen.findAllByText(label, { selector: '.ant-select-item-option-content' });
  fireEvent.click(options[options.length - 1]!);
}

describe('/instr', () => {
  it('unchecks a device at its daily limit with the reason, sends "every 10 minutes, ACC 25 Hz" to the other after a summary, and shows SENT', async () => {
    const server = fakeServer({
      '/api/Device/GetTree': () => envelope(Code.Success, '', sample()),
      '/api/Device/GetDetailByIMEI': (b) => envelope(Code.Success, '', deviceDetail(String(b.imei), { Caption: b.imei === A ? 'Stork A' : 'Stork B', Voltage: b.imei === A ? 3.7 : 3.95 })),
      '/api/Instruction/Exceedrestrict': (b) =>
        envelope(
          Code.Success,
          '',
          (b.imeis as string[]).map((imei) => ({ IMEI: imei, Caption: imei === A ? 'Stork A' : 'Stork B', Count: imei === B ? 2 : 0, Exceeded: imei === B })),
        ),
      '/api/Instruction/Send': (b) => envelope(Code.Success, '', { List: (b.imeis as string[]).map((imei, i) => instruction({ Id: 20 + i, IdStr: String(20 + i), IMEI: imei })) }),
      '/api/Instruction/GetList': emptyHistory,
    });
    renderPage();
    // Stork B already got 2 collection instructions today: unchecked, with the reason
    const note = await screen.findByTestId('instr-unchecked');
    expect(note.textContent).toContain('Stork B: already got 2 Collection schedule instructions today (at most 2 a day)');
    await waitFor(() => expect(getTreeSelection('instr').checkedKeys).toEqual([`d:-1:${A}`]));
    expect(screen.queryByTestId(`instr-device-${B}`)).toBeNull();
    // Stork A's battery is low (3.70 V on the Li curve): a warning, not a block
    const row = await screen.findByTestId(`instr-device-${A}`);
    expect((await within(row).findByTestId('battery-warning')).textContent).toBe('Low battery 3.70 V');

    // Send before the interval is set: the form says why and nothing is sent
    fireEvent.click(screen.getByTestId('instr-send'));
    expect(await screen.findByText('The collection interval cannot be empty.')).toBeTruthy();
    expect(callsTo(server, '/api/Instruction/Send')).toHaveLength(0);

    fireEvent.change(within(screen.getByTestId('instr-form')).getByLabelText('A fix every (minutes)'), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Acceleration' }));
    fireEvent.click(await screen.findByRole('switch', { name: 'Follows GNSS' }));
    await chooseOption('acc-hz', '25 Hz');
    fireEvent.click(screen.getByTestId('instr-send'));
    const summary = await screen.findByTestId('instr-summary');
    expect(within(summary).getByTestId(`summary-${A}`).textContent).toContain('A fix every 10 min');
    expect(within(summary).getByTestId(`summary-${A}`).textContent).toContain('Acceleration with each fix, at 25 Hz');
    expect(within(summary).getByTestId(`summary-${A}`).textContent).toContain('The battery is low');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    await waitFor(() => expect(callsTo(server, '/api/Instruction/Send')).toHaveLength(1));
    const body = JSON.parse(callsTo(server, '/api/Instruction/Send')[0]!.body as string) as Record<string, unknown>;
    expect(body.imeis).toEqual([A]);
    expect(body.params).toEqual({ Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 10 }, ACC: { Mode: 'FOLLOW_GNSS', FrequencyHz: 25 } });
    const result = await within(await screen.findByTestId(`instr-device-${A}`)).findByTestId('instr-result');
    expect(within(result).getByTestId('instr-status').getAttribute('data-status')).toBe('SENT');
  });

  it('blocks options a chosen device does not support, with the reason, and says the server\'s refusal per device', async () => {
    fakeServer({
      '/api/Device/GetTree': () => envelope(Code.Success, '', sample(InstrSupportFlag.AccCollectionSwitch)),
      '/api/Device/GetDetailByIMEI': (b) => envelope(Code.Success, '', deviceDetail(String(b.imei))),
      '/api/Instruction/Exceedrestrict': (b) => envelope(Code.Success, '', (b.imeis as string[]).map((imei) => ({ IMEI: imei, Caption: '', Count: 0, Exceeded: false }))),
      '/api/Instruction/Send': () =>
        envelope(1001, `Nothing was sent: Stork B (${B}) is in a work status that takes no instructions; Stork A (${A}) already got 2 instructions of this type today, the daily limit.`, {
          Refused: [
            { IMEI: B, Caption: 'Stork B', Reason: `Stork B (${B}) is in a work status that takes no instructions` },
            { IMEI: A, Caption: 'Stork A', Reason: `Stork A (${A}) already got 2 instructions of this type today, the daily limit` },
          ],
        }),
      '/api/Instruction/GetList': emptyHistory,
    });
    renderPage();
    const high = await screen.findByRole('radio', { name: /Voltage-adaptive high frequency/ });
    expect((high as HTMLInputElement).disabled).toBe(true);
    expect(high.closest('label')?.textContent).toContain('not supported by Stork A, Stork B');

    fireEvent.change(within(screen.getByTestId('instr-form')).getByLabelText('A fix every (minutes)'), { target: { value: '30' } });
    fireEvent.click(screen.getByTestId('instr-send'));
    fireEvent.click(await screen.findByRole('button', { name: 'Send' }));
    const refused = await within(await screen.findByTestId(`instr-device-${B}`)).findByTestId('instr-refused');
    expect(refused.textContent).toBe(`Stork B (${B}) is in a work status that takes no instructions`);
    expect(within(screen.getByTestId(`instr-device-${A}`)).getByTestId('instr-refused').textContent).toBe(`Stork A (${A}) already got 2 instructions of this type today, the daily limit`);
    expect((await screen.findByTestId('instr-send-refused')).textContent).toContain('Collection schedule: nothing was sent');
  });
});

describe('instruction history', () => {
  it('shows statuses in colour and the device\'s error, and says a refused withdraw on its row', async () => {
    const server = fakeServer({
      '/api/Instruction/GetList': () =>
        envelope(Code.Success, '', {
          List: [
            instruction(),
            instruction({ Id: 6, IdStr: '6', Status: 'FAILED', ErrorMessage: 'interval below the minimum', CanWithdraw: false, ExecuteTime: '2026-11-24 09:10:00' }),
            instruction({ Id: 5, IdStr: '5', Status: 'SUCCESSFUL', CanWithdraw: false, RelayIMEI: '860000000000099', RelayCaption: 'Station 1' }),
          ],
          Total: 3,
        }),
      '/api/Instruction/Withdraw': () => envelope(1003, 'Instructions older than 2 minutes cannot be withdrawn.'),
    });
    render(
      <AppProviders>
        <InstructionHistory imeis={[A]} />
      </AppProviders>,
    );
    const table = await screen.findByTestId('instr-history-table');
    await within(table).findByText('interval below the minimum');
    const statuses = within(table).getAllByTestId('instr-status').map((s) => [s.getAttribute('data-status'), s.className.match(/ant-tag-(success|error|processing)/)?.[1]]);
    expect(statuses).toEqual([
      ['SENT', 'processing'],
      ['FAILED', 'error'],
      ['SUCCESSFUL', 'success'],
    ]);
    expect(within(table).getByText('Station 1')).toBeTruthy();
    const list = JSON.parse(callsTo(server, '/api/Instruction/GetList')[0]!.body as string) as Record<string, unknown>;
    expect(list).toMatchObject({ imeis: [A], timeZone: '+08:00', currentPage: 1, pageSize: 20 });

    // only the SENT one may be withdrawn; the server refuses it (too late): said on its row
    expect(within(table).getAllByTestId('instr-withdraw')).toHaveLength(1);
    fireEvent.click(within(table).getByTestId('instr-withdraw'));
    expect((await within(table).findByTestId('instr-withdraw-refusal')).textContent).toContain('Instructions older than 2 minutes cannot be withdrawn.');
    expect(JSON.parse(callsTo(server, '/api/Instruction/Withdraw')[0]!.body as string)).toEqual({ imei: A, instructionId: '7', timeZone: '+08:00' });
  });

  it('says when there is nothing in the range, and when the history could not be read', async () => {
    fakeServer({ '/api/Instruction/GetList': emptyHistory });
    const { unmount } = render(
      <AppProviders>
        <InstructionHistory imeis={[A]} />
      </AppProviders>,
    );
    expect(await screen.findByText('No instructions were sent in this range')).toBeTruthy();
    unmount();
    fakeServer({ '/api/Instruction/GetList': () => envelope(500, 'boom') });
    render(
      <AppProviders>
        <InstructionHistory imeis={[B]} />
      </AppProviders>,
    );
    expect(await screen.findByText('The instruction history could not be loaded')).toBeTruthy();
  });
});
