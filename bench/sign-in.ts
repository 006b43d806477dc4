import { newRequestCode, prepareSignIn } from '@wildtrack/contract';
import type { AuthService } from '../apps/server/src/modules/auth/service.js';

/**
 * Signs a benchmark's user in through the service, as the sign-in call does (docs/api.md "Sealed
 * tokens": the token comes back sealed to a key made for the call), and returns the session credential
 * `<SessionId>.<Token>` that the contract's `signedHeaders({ token })` takes.
 */
export async function benchSignIn(auth: AuthService, input: { account: string; password: string; timeZone: string }): Promise<string> {
  const { publicKey } = await auth.publicKey();
  const requestCode = newRequestCode();
  const client = prepareSignIn(publicKey, input.password, requestCode);
  const result = await auth.login({ ...input, clientKey: client.clientKey }, { ip: '127.0.0.1', userAgent: 'bench', requestCode });
  return client.credential(result);
}
