import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { adoptHashToken } from './app/guard';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import './i18n';
import './styles.css';

// §2.2: a token handed over in the URL hash is stored before the first guard decision.
adoptHashToken();
const router = createAppRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
