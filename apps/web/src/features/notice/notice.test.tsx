import { Code, type Notice } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../app/providers';
import { clearSession } from '../../lib/session';
import { callsTo, envelope, fakeServer } from '../../test/server';
import { signInForTest } from '../../test/session';
import { NoticeTab } from './components/NoticeTab';

const notice = (over: Partial<Notice>): Notice => ({
  Id: 1, NoticeId: 1, IdStr: '1', NoticeIdStr: '1', Title: 'Maintenance', Body: 'line one\nline two', SendTime: '2026-11-25 08:00:00', Viewed: 0, Website: 'https://example.org/x', ...over,
});

beforeEach(() => signInForTest());
afterEach(() => clearSession());

describe('system notices', () => {
  it('marks unread ones; the detail keeps line breaks, shows HTML as text, links only http(s), and marks read on opening', async () => {
    const list = [notice({}), notice({ Id: 2, IdStr: '2', NoticeIdStr: '2', NoticeId: 2, Title: 'Script', Body: '<img src=x onerror="window.hacked=1"><b>bold</b>', Website: 'javascript:alert(1)', Viewed: 1 })];
    const server = fakeServer({
      '/api/Notice/GetList': () => envelope(Code.Success, '', { list }),
      '/api/Notice/get': (body) => envelope(Code.Success, '', list.find((n) => n.IdStr === body.Id)),
      '/api/Notice/Viewed': () => envelope(Code.Success, '', null),
    });
    render(
      <AppProviders>
        <NoticeTab />
      </AppProviders>,
    );
    const items = await screen.findAllByTestId('notice-item');
    expect(items.map((i) => i.getAttribute('data-unread'))).toEqual(['true', 'false']);
    fireEvent.click(within(items[0]!).getByText('Maintenance'));
    const body = await screen.findByTestId('notice-body');
    expect(body.textContent).toBe('line one\nline two');
    expect(getComputedStyle(body).whiteSpace).toBe('pre-wrap');
    expect(screen.getByTestId('notice-open-url').getAttribute('href')).toBe('https://example.org/x');
    await waitFor(() => expect(callsTo(server, '/api/Notice/Viewed')).toHaveLength(1));
    expect(JSON.parse(callsTo(server, '/api/Notice/Viewed')[0]!.body as string)).toEqual({ Id: '1' });
    fireEvent.click(screen.getByText('Close'));

    fireEvent.click(within(items[1]!).getByText('Script'));
    await waitFor(() => expect(screen.getAllByTestId('notice-body').at(-1)!.textContent).toBe('<img src=x onerror="window.hacked=1"><b>bold</b>'));
    const html = screen.getAllByTestId('notice-body').at(-1)!;
    expect(html.querySelector('img, b')).toBeNull();
    expect(html.parentElement!.querySelector('[data-testid=notice-open-url]')).toBeNull();
    expect((window as { hacked?: number }).hacked).toBeUndefined();
    expect(callsTo(server, '/api/Notice/Viewed')).toHaveLength(1);
  });
});
