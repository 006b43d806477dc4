import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { adoptHashToken } from './app/guard';
import { StartGate } from './app/StartGate';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { i18nReady } from './i18n';
import './styles.css';

// §2.2: a token handed over in the URL hash is stored before the first guard decision, and used once
// the person at the browser has confirmed its account (StartGate, issue 26 L10).
adoptHashToken();
let router: ReturnType<typeof createAppRouter> | undefined;

// The first render waits for the page language's texts (a chunk of their own, src/i18n/i18n.ts); if
// they can't be fetched the console still renders, in keys, rather than stay blank.
void i18nReady
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <AppProviders>
          <StartGate>{() => <RouterProvider router={(router ??= createAppRouter())} />}</StartGate>
        </AppProviders>
      </StrictMode>,
    ),
  );
