import { setLang } from '../i18n';
import { resetClientForTests } from '../lib/api/client';
import { queryClient } from '../lib/queryClient';
import { setToken, writeStoredUser } from '../lib/session';

/** A fresh signed-in state for a test: English, an empty query cache, a token and the zone +08:00. */
export function signInForTest(): void {
  setLang('en');
  resetClientForTests();
  queryClient.clear();
  setToken('token-abc');
  writeStoredUser({ timeZone: '+08:00' });
}
