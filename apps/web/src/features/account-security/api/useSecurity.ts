import { useQueryClient } from '@tanstack/react-query';
import { Authenticated, type CallDef, type CallBody, type CallData, Code } from '@wildtrack/contract';
import { call } from '../../../lib/api';
import { isApiError } from '../../../lib/api/errors';
import { safeSettingKey } from './useSafeSetting';

/** A §4 call whose 1005 (verification expired) is an answer, not a failure: `{ expired: <server message> }` then. */
export async function securityCall<C extends CallDef>(def: C, body: CallBody<C>): Promise<CallData<C> | { expired: string }> {
  try {
    return await call(def, body as never);
  } catch (error) {
    if (isApiError(error) && error.code === Code.VerificationExpired) return { expired: error.message };
    throw error;
  }
}

export function isExpired(r: unknown): r is { expired: string } {
  return typeof r === 'object' && r !== null && 'expired' in r;
}

export async function isVerified(): Promise<boolean> {
  return (await call(Authenticated, undefined, { repeatCheck: false })).result;
}

/** Re-reads the safe setting after a change. */
export function useRefreshSafeSetting(): () => Promise<void> {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: safeSettingKey });
}
