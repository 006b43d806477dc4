import { act, render, screen } from '@testing-library/react';
import { BatteryType, DeviceStatus } from '@wildtrack/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers';
import { clearSession } from '../../lib/session';
import { signInForTest } from '../../test/session';
import { LastFix } from './components/DeviceState';
import { Battery, StatusTag } from './components/status';

const NOW = Date.UTC(2026, 10, 24, 10, 0, 0);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(NOW);
  signInForTest();
});

afterEach(() => {
  clearSession();
  vi.useRealTimers();
});

const wrap = (node: React.ReactNode) => render(<AppProviders>{node}</AppProviders>);

describe('last fix and its mark', () => {
  it('tells how long ago against the clock and moves the mark on as time passes', () => {
    // a fix every 10 min sent at once: online up to 15 min, late up to 40, silent beyond
    wrap(<LastFix at={NOW - 12 * 60_000} gapMinutes={10} />);
    expect(screen.getByTestId('link-mark').dataset.state).toBe('online');
    expect(screen.getByTestId('since').textContent).toBe('12 minutes ago');
    act(() => void vi.advanceTimersByTime(10 * 60_000));
    expect(screen.getByTestId('link-mark').dataset.state).toBe('late');
    expect(screen.getByTestId('since').textContent).toBe('22 minutes ago');
    act(() => void vi.advanceTimersByTime(30 * 60_000));
    expect(screen.getByTestId('link-mark').dataset.state).toBe('silent');
    expect(screen.getByTestId('link-mark').textContent).toBe('Silent');
  });

  it('says never reported without a fix', () => {
    wrap(<LastFix at={null} gapMinutes={10} />);
    expect(screen.getByTestId('link-mark').dataset.state).toBe('never');
    expect(screen.getByTestId('link-mark').textContent).toBe('Never reported');
  });
});

describe('battery and status', () => {
  it('reads 3.6 V as plenty on a LiSOCl2 cell and empty on a Li one, volts beside the level', () => {
    wrap(
      <>
        <Battery voltage={3.6} batteryType={BatteryType.LiSOCl2Added} />
        <Battery voltage={3.6} batteryType={BatteryType.Li} />
      </>,
    );
    const [primary, li] = screen.getAllByTestId('battery');
    expect(primary!.dataset).toMatchObject({ percent: '100', health: 'good' });
    expect(li!.dataset).toMatchObject({ percent: '0', health: 'critical' });
    expect(primary!.textContent).toBe('100%3.60 V');
  });

  it('does not show a never-reported working device in green', () => {
    wrap(
      <>
        <StatusTag status={DeviceStatus.Working} />
        <StatusTag status={DeviceStatus.Working} reported={false} />
      </>,
    );
    const [reported, never] = screen.getAllByTestId('status-tag');
    expect(reported!.className).toMatch(/ant-tag-green/);
    expect(never!.className).not.toMatch(/ant-tag-green/);
  });
});
