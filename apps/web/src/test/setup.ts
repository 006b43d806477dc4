import { cleanup, configure } from '@testing-library/react';
import type * as Antd from 'antd';
import { afterEach, beforeEach, vi } from 'vitest';

// findBy*/waitFor give up after 1 s by default; CI shares 2 cores with the server suites on two
// databases, where antd's first render of a modal alone can take longer. This is a wait bound, not a
// timed assertion: passing tests finish as soon as the element appears. 10 s was not enough once: a CI beside
// other work (load 25 on two cores) took longer than that for /track's lazy map and /instr's limits check.
configure({ asyncUtilTimeout: 20_000 });

// antd reads matchMedia (responsive grid) and ResizeObserver; jsdom has neither.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string): MediaQueryList =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList,
  });
}
if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

// antd's static notification and message render into React roots of their own, on a schedule of
// their own that can outlive a test file's jsdom ("window is not defined" after teardown). The app
// shows them through App.useApp() (providers.tsx); tests of the API client install spies. So the
// static ones are quiet here.
vi.mock('antd', async (importOriginal) => {
  const antd = await importOriginal<typeof Antd>();
  const quiet = () => ({ error: vi.fn(), warning: vi.fn(), success: vi.fn(), info: vi.fn(), open: vi.fn(), destroy: vi.fn() });
  return { ...antd, notification: Object.assign({}, antd.notification, quiet()), message: Object.assign({}, antd.message, quiet()) };
});

afterEach(() => {
  cleanup();
});

// Screens' tests answer their calls with clear envelopes (fetch stubs), so the console's field cipher is
// switched off for them (docs/api.md "Encrypted bodies and answers": the switch the client reads); the
// cipher's own tests (lib/api/field-cipher.test.ts, lib/live.test.ts) clear or set it themselves.
beforeEach(() => {
  window.localStorage.setItem('wildtrack_field_cipher', 'off');
});

// The app's texts are chunks fetched per language (src/i18n/i18n.ts); tests switch languages at will
// and read texts at once, so both are here before any test.
const { loadLanguage } = await import('../i18n');
await Promise.all([loadLanguage('zh'), loadLanguage('en')]);
