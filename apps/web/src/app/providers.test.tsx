import { act, render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProviders } from './providers';

/** A system setting that can change while the console is open (matchMedia with live listeners). */
function systemMotion(reduce: boolean): { set: (reduce: boolean) => void; restore: () => void } {
  const original = window.matchMedia;
  let matches = reduce;
  const listeners = new Set<() => void>();
  window.matchMedia = (query: string) =>
    ({
      get matches() {
        return query === '(prefers-reduced-motion: reduce)' ? matches : false;
      },
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: (_: string, f: () => void) => listeners.add(f),
      removeEventListener: (_: string, f: () => void) => listeners.delete(f),
      dispatchEvent: () => false,
    }) as unknown as MediaQueryList;
  return {
    set(next) {
      matches = next;
      for (const f of listeners) f();
    },
    restore() {
      window.matchMedia = original;
    },
  };
}

function Motion() {
  const { token } = theme.useToken();
  return <span data-testid="motion">{String(token.motion)}</span>;
}

/** antd's motion token as the console's providers give it to a component. */
function shownMotion(): string | null {
  return screen.getByTestId('motion').textContent;
}

describe('AppProviders and reduced motion', () => {
  let system: ReturnType<typeof systemMotion> | undefined;
  afterEach(() => system?.restore());

  it('turns antd motion off while the system asks for reduced motion, and on again', () => {
    system = systemMotion(true);
    render(<AppProviders><Motion /></AppProviders>);
    expect(shownMotion()).toBe('false');
    act(() => system!.set(false));
    expect(shownMotion()).toBe('true');
    act(() => system!.set(true));
    expect(shownMotion()).toBe('false');
  });

  it('keeps motion where the system says nothing', () => {
    system = systemMotion(false);
    render(<AppProviders><Motion /></AppProviders>);
    expect(shownMotion()).toBe('true');
  });
});
