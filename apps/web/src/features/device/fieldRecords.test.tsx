import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Code, type Behavior } from '@wildtrack/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { clearSession } from '../../lib/session';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { FieldRecordsTab } from './components/FieldRecordsTab';

const motion = (Id: number, Name: string, IsDefault = true) => ({ Id, IdStr: String(Id), Name, IsDefault });
const FORAGING = motion(1, 'Foraging');
const RESTING = motion(2, 'Resting');
const FLYING = motion(9, 'Flying over', false);
const observation = (id: number, m: ReturnType<typeof motion>, recorder: string): Behavior => ({
  Id: id,
  IdStr: String(id),
  Recorder: recorder,
  RecorderName: recorder === '2017' ? 'Wang Lei' : 'Liu Fang',
  Longitude: 118.95,
  Latitude: 37.76,
  StartTime: `2026-11-2${id} 09:00:00`,
  EndTime: `2026-11-2${id} 09:20:00`,
  Motion: m,
});
const ALL = [observation(1, FORAGING, '2017'), observation(2, RESTING, '2031'), observation(3, FLYING, '2017'), observation(4, FORAGING, '2031')];

beforeEach(() => signInForTest());
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

const wrap = () => render(<AppProviders><FieldRecordsTab imei="864512040006677" /></AppProviders>);
const motionsShown = () => [...screen.getByTestId('behavior-table').querySelectorAll('tbody .ant-tag')].map((el) => el.textContent);

describe('field records tab', () => {
  it('lists the observations with their motion, and asks the server for one motion when it is chosen', async () => {
    const server = fakeServer({
      '/api/Behavior/GetFilters': () =>
        envelope(Code.Success, '', { Motions: [FORAGING, RESTING, FLYING], Recorders: [{ Recorder: '2017', RecorderName: 'Wang Lei' }, { Recorder: '2031', RecorderName: 'Liu Fang' }] }),
      '/api/Behavior/GetList': (body) => {
        const list = ALL.filter((b) => (body.motionId === undefined || b.Motion.Id === body.motionId) && (body.recorder === undefined || b.Recorder === body.recorder));
        return envelope(Code.Success, '', { List: list, Total: list.length });
      },
    });
    wrap();
    await waitFor(() => expect(motionsShown()).toEqual(['Foraging', 'Resting', 'Flying over', 'Foraging']));
    expect(within(screen.getByTestId('behavior-table')).getAllByText('Wang Lei')).toHaveLength(2);

    fireEvent.mouseDown(screen.getByTestId('motion-filter').querySelector('.ant-select-selector') ?? screen.getByTestId('motion-filter'));
    fireEvent.click(await screen.findByTitle('Foraging'));
    await waitFor(() => expect(motionsShown()).toEqual(['Foraging', 'Foraging']));
    const last = callsTo(server, '/api/Behavior/GetList').at(-1)!;
    expect(JSON.parse(last.body as string)).toMatchObject({ imei: '864512040006677', motionId: 1, currentPage: 1 });
  });

  it('says when there are none, and offers a retry when they could not be read', async () => {
    let fail = true;
    fakeServer({
      '/api/Behavior/GetFilters': () => envelope(Code.Success, '', { Motions: [FORAGING], Recorders: [] }),
      '/api/Behavior/GetList': () => (fail ? envelope(Code.ServerError, 'boom', null, 500) : envelope(Code.Success, '', { List: [], Total: 0 })),
    });
    wrap();
    const retry = await screen.findByRole('button', { name: /retry/i }, { timeout: 10_000 });
    expect(screen.getByText('Field records could not be loaded.')).toBeTruthy();
    fail = false;
    fireEvent.click(retry);
    await screen.findByText('No behaviour observations in this range');
  });
});
