import { Code, type Event } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/providers';
import { clearSession } from '../../lib/session';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { EventTab } from './components/EventTab';
import { NoticePage } from './NoticePage';

const event = (over: Partial<Event>): Event => ({
  Id: 1, IdStr: '1', IMEI: '864512040001173', Caption: 'Oriental stork F07', Type: 1, HappenTime: '2026-11-25 08:00:00', Title: 'Entered a geofence', Content: 'Oriental stork F07 entered the geofence “Wetland”.', Viewed: 0, ...over,
});
const subs = [{ IMEI: '864512040001173', Caption: 'Oriental stork F07', FenceEvent: true, InstrEvent: true, FixUpdateEvent: true }];

beforeEach(() => signInForTest());
afterEach(() => clearSession());

const show = () =>
  render(
    <AppProviders>
      <EventTab />
    </AppProviders>,
  );

describe('event notifications', () => {
  it('lists the events in the user\'s zone, marks one read, marks all read and saves a subscription switch', async () => {
    let list = [event({}), event({ Id: 2, IdStr: '2', Type: 2, Title: 'Postback schedule instruction to Oriental stork F07: Sent', Content: 'Sent', Viewed: 1 })];
    const server = fakeServer({
      '/api/Event/GetListByPage': () => envelope(Code.Success, '', { List: list, Total: list.length }),
      '/api/Event/GetSubscribe': () => envelope(Code.Success, '', { List: subs }),
      '/api/Event/Viewed': () => {
        list = list.map((e) => ({ ...e, Viewed: 1 as const }));
        return envelope(Code.Success, '', null);
      },
      '/api/Event/ViewedAll': () => envelope(Code.Success, '', { Count: 0 }),
      '/api/Event/Subscribe': (body) => envelope(Code.Success, '', { ...subs[0], ...body, IMEI: body.imei }),
    });
    show();
    const table = await screen.findByTestId('event-table');
    await waitFor(() => expect(table.querySelectorAll('.ant-table-row')).toHaveLength(2));
    expect(within(table).getByText('Entered a geofence')).toBeTruthy();
    expect(JSON.parse(callsTo(server, '/api/Event/GetListByPage')[0]!.body as string)).toMatchObject({ timeZone: '+08:00', currentPage: 1, pageSize: 20 });

    fireEvent.click(within(table).getByRole('button', { name: 'Mark read: Entered a geofence' }));
    await waitFor(() => expect(callsTo(server, '/api/Event/Viewed')).toHaveLength(1));
    expect(JSON.parse(callsTo(server, '/api/Event/Viewed')[0]!.body as string)).toEqual({ eventIds: ['1'] });
    await waitFor(() => expect(within(table).queryAllByText('Unread')).toHaveLength(0));

    fireEvent.click(screen.getByTestId('event-mark-all'));
    await waitFor(() => expect(callsTo(server, '/api/Event/ViewedAll')).toHaveLength(1));

    fireEvent.click(screen.getByTestId('event-subscribe'));
    fireEvent.click(await screen.findByTestId('subscribe-FenceEvent-864512040001173'));
    await waitFor(() => expect(callsTo(server, '/api/Event/Subscribe')).toHaveLength(1));
    expect(JSON.parse(callsTo(server, '/api/Event/Subscribe')[0]!.body as string)).toEqual({ imei: '864512040001173', FenceEvent: false, InstrEvent: true, FixUpdateEvent: true });
  });

  it('says when there are no events', async () => {
    fakeServer({
      '/api/Event/GetListByPage': () => envelope(Code.Success, '', { List: [], Total: 0 }),
      '/api/Event/GetSubscribe': () => envelope(Code.Success, '', { List: [] }),
    });
    show();
    expect(await screen.findByText('No events')).toBeTruthy();
  });

  it('says when the events could not be loaded, with a retry', async () => {
    fakeServer({
      '/api/Event/GetListByPage': () => envelope(Code.Failed, 'Operation failed', null),
      '/api/Event/GetSubscribe': () => envelope(Code.Success, '', { List: [] }),
    });
    show();
    expect(await screen.findByText('The events could not be loaded', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('counts the unread events on the Events tab, and the count follows a read', async () => {
    let list = [event({}), event({ Id: 2, IdStr: '2', Title: 'Left a geofence' }), event({ Id: 3, IdStr: '3', Title: 'Battery low', Viewed: 1 })];
    const server = fakeServer({
      '/api/Event/GetCount': (body) => envelope(Code.Success, '', { Count: list.filter((e) => body.viewed === undefined || e.Viewed === body.viewed).length }),
      '/api/Event/GetListByPage': () => envelope(Code.Success, '', { List: list, Total: list.length }),
      '/api/Event/GetSubscribe': () => envelope(Code.Success, '', { List: subs }),
      '/api/Event/Viewed': () => {
        list = list.map((e) => (e.IdStr === '1' ? { ...e, Viewed: 1 as const } : e));
        return envelope(Code.Success, '', null);
      },
    });
    const router = createMemoryRouter([{ path: '/notice', element: <NoticePage /> }], { initialEntries: ['/notice'] });
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    const tab = await screen.findByTestId('event-unread');
    await waitFor(() => expect(tab.getAttribute('data-unread')).toBe('2'));
    expect(within(tab).getByTitle('Unread: 2')).toBeTruthy();
    expect(JSON.parse(callsTo(server, '/api/Event/GetCount')[0]!.body as string)).toEqual({ viewed: 0 });

    const table = await screen.findByTestId('event-table');
    // by its label: a role query under the page's tabs takes jsdom close to a minute (getComputedStyle of every
    // ancestor against every injected style rule)
    fireEvent.click(await within(table).findByLabelText('Mark read: Entered a geofence'));
    await waitFor(() => expect(tab.getAttribute('data-unread')).toBe('1'));
  });
});
