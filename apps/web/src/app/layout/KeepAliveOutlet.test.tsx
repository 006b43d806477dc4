import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { KeepAliveOutlet } from './KeepAliveOutlet';

function Counter({ name }: { name: string }) {
  const [n, setN] = useState(0);
  return (
    <button type="button" data-testid={name} onClick={() => setN(n + 1)}>
      {name} {n}
    </button>
  );
}

function setup() {
  const router = createMemoryRouter(
    [
      {
        element: <KeepAliveOutlet />,
        children: [
          { path: '/device', element: <Counter name="device" /> },
          { path: '/track', element: <Counter name="track" /> },
          { path: '/notice', element: <Counter name="notice" /> },
        ],
      },
    ],
    { initialEntries: ['/device'] },
  );
  render(<RouterProvider router={router} />);
  const go = (to: string) => act(() => router.navigate(to));
  return { go };
}

describe('KeepAliveOutlet', () => {
  it('keeps a visited route mounted and hidden, with its state, when the user navigates away', async () => {
    const { go } = setup();
    fireEvent.click(screen.getByTestId('device'));
    fireEvent.click(screen.getByTestId('device'));
    expect(screen.getByTestId('device').textContent).toBe('device 2');

    await go('/track');
    expect(screen.getByTestId('track').textContent).toBe('track 0');
    const hidden = screen.queryByTestId('device');
    expect(hidden).not.toBeNull();
    expect(hidden!.style.display).toBe('none');

    await go('/device?folder=3');
    expect(screen.getByTestId('device').textContent).toBe('device 2');
    expect(screen.getByTestId('device').style.display).not.toBe('none');
  });

  it('does not keep /notice', async () => {
    const { go } = setup();
    await go('/notice');
    fireEvent.click(screen.getByTestId('notice'));
    expect(screen.getByTestId('notice').textContent).toBe('notice 1');
    await go('/device');
    expect(screen.queryByTestId('notice')).toBeNull();
    await go('/notice');
    expect(screen.getByTestId('notice').textContent).toBe('notice 0');
  });
});
