import { Code, LOCALE_TAG, messageResources, type Lang } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../app/providers';
import { routeTree } from '../app/routeTree';
import { resetClientForTests } from '../lib/api/client';
import { clearSession } from '../lib/session';
import { envelope, fakeServer } from '../test/server';
import en from './en-US.json';
import { i18n, setLang } from './index';
import { cataloguePart, messagesPart, SIGNED_OUT_NAMESPACES } from './parts';
import zh from './zh-CN.json';

/**
 * The signed-out pages render with the signed-out part of the texts alone (what /login's first load
 * fetches, i18n/parts.ts): every key they ask for is in it. The catalogues the test set-up loaded whole
 * are cut back to that part here, and a missing key is recorded.
 */
const missing: string[] = [];
const catalogues: Record<Lang, Record<string, unknown>> = { zh, en };

beforeAll(() => {
  for (const lang of ['zh', 'en'] as const) {
    i18n.removeResourceBundle(LOCALE_TAG[lang], 'translation');
    i18n.addResourceBundle(LOCALE_TAG[lang], 'translation', cataloguePart(catalogues[lang], 'signedOut'));
    // the contract's messages likewise (i18n/contract-messages.ts)
    i18n.removeResourceBundle(LOCALE_TAG[lang], 'contract');
    i18n.addResourceBundle(LOCALE_TAG[lang], 'contract', messagesPart(messageResources(lang), 'signedOut'));
  }
  i18n.options.saveMissing = true;
  i18n.options.missingKeyHandler = (_lngs, ns, key) => {
    if (ns === 'translation' || ns === 'contract') missing.push(`${ns}:${key}`);
  };
});

afterAll(() => {
  i18n.options.saveMissing = false;
});

beforeEach(() => {
  resetClientForTests();
  clearSession();
  missing.length = 0;
});

describe('the signed-out part of the texts', () => {
  it('holds only namespaces the catalogues have, and is a small part of them', () => {
    for (const ns of SIGNED_OUT_NAMESPACES) expect(Object.keys(en)).toContain(ns);
    const size = (o: unknown) => JSON.stringify(o).length;
    expect(size(cataloguePart(en, 'signedOut'))).toBeLessThan(size(en) / 4);
    expect(Object.keys({ ...cataloguePart(en, 'signedOut'), ...cataloguePart(en, 'signedIn') }).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(['en', 'zh'] as const)('is all /login and /login2 ask for, a refused sign-in and the required messages included (%s)', async (lang) => {
    setLang(lang);
    fakeServer({
      '/api/Auth/PasswordLogin': () => envelope(Code.SignInFailed, 'Incorrect account or password'),
      '/api/Auth/GetLoginQRCode': () => envelope(Code.Success, '', { Code: 'A'.repeat(43), Ticket: 'B'.repeat(43), ExpiresIn: 120 }),
    });
    for (const path of ['/login', '/login2']) {
      // The client drops a call repeated within a few seconds (§7.1's repeat check): the second page's
      // sign-in, the same as the first's, would never be sent.
      resetClientForTests();
      const router = createMemoryRouter(routeTree, { initialEntries: [path] });
      const { unmount } = render(
        <AppProviders>
          <RouterProvider router={router} />
        </AppProviders>,
      );
      const signIn = lang === 'en' ? 'Sign in' : /登\s*录/;
      const wait = { timeout: 15_000 };
      if (path === '/login2') {
        // /login2 opens on the QR code (docs/accounts.md); its texts are signed-out ones too
        await screen.findByText(lang === 'en' ? /Scan it with the Wildtrack console/ : /请用已登录的手机端/, {}, wait);
        await screen.findByTestId('qr-login-image', {}, wait);
        fireEvent.click(within(screen.getByTestId('login-method')).getByText(lang === 'en' ? 'By password' : '密码登录'));
      }
      fireEvent.click(await screen.findByRole('button', { name: signIn }, wait));
      await screen.findByText(lang === 'en' ? 'Enter the account.' : '请输入账号。', {}, wait);
      fireEvent.change(screen.getByLabelText(lang === 'en' ? 'Account' : '账号'), { target: { value: 'ranger01' } });
      fireEvent.change(screen.getByLabelText(lang === 'en' ? 'Password' : '密码'), { target: { value: 'nope' } });
      fireEvent.click(screen.getByRole('button', { name: signIn }));
      await screen.findByText('Incorrect account or password', {}, wait);
      await waitFor(() => expect(document.title).not.toBe(''), wait);
      unmount();
    }
    expect(missing).toEqual([]);
  }, 60_000);
});
