import { Exit } from '@wildtrack/contract';
import { call } from './api';
import { navigateTo } from './navigation';
import { queryClient } from './queryClient';
import { clearSession, hasToken } from './session';
import { flushUserLog, recordAction } from './userlog';

/**
 * Signs out (§2.4 Logout): ends the session on the server, then clears the token cookie and every kept
 * user value and goes to /login. The local sign-out happens even when the server cannot be reached.
 */
export async function logout(): Promise<void> {
  try {
    recordAction('logout');
    await flushUserLog();
    if (hasToken()) await call(Exit, undefined, { notify: false, repeatCheck: false });
  } catch {
    // already reported by the client (network, timeout); the browser signs out regardless
  } finally {
    clearSession();
    queryClient.clear();
    navigateTo('/login', { replace: true });
  }
}
