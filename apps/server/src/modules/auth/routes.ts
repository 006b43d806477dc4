import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { calls, Header, type LoginResult } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { AuthService, SignInMeta } from './service.js';
import { now } from '../../lib/clock.js';

/** Who signs in from where; the request code is the sealed token's associated data (the answer opens for this request only). */
export function signInMeta(request: FastifyRequest): SignInMeta {
  return { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? ''), requestCode: String(request.headers[Header.requestCode]) };
}

/**
 * Marks the browser of a sign-in as known to the account (known-browser.ts), Secure when the request came
 * over TLS (directly, or through a proxy's X-Forwarded-Proto with TRUST_PROXY=1); answers the result.
 */
export async function markSignedIn<R extends LoginResult>(auth: AuthService, request: FastifyRequest, reply: FastifyReply, result: R): Promise<R> {
  void reply.header('set-cookie', await auth.markBrowser(request.headers.cookie, result.User.UserId, request.protocol === 'https'));
  return result;
}

/** Signing in and out, and keeping a session alive. */
export function authRoutes(app: FastifyInstance, hooks: CallHooks, auth: AuthService): void {
  registerCall(app, hooks, calls.GetPublicKey, async () => ({
    Algorithm: 'X25519-HKDF-SHA256-XChaCha20Poly1305' as const,
    PublicKey: (await auth.publicKey()).publicKey,
  }));
  registerCall(app, hooks, calls.PasswordLogin, async ({ body, request, reply }) =>
    markSignedIn(auth, request, reply, await auth.login({ account: body.account, password: body.pwd, timeZone: body.timeZone, clientKey: body.clientKey }, signInMeta(request))),
  );
  // QR sign-in: the waiting page asks for a code and polls; a console signed in elsewhere confirms it.
  registerCall(app, hooks, calls.GetLoginQRCode, async ({ request }) => auth.createQrLogin(signInMeta(request)));
  registerCall(app, hooks, calls.QRCodeLogin, async ({ body, request, reply }) => {
    const r = await auth.loginByQr(body, signInMeta(request));
    return r.Status === 'Confirmed' ? markSignedIn(auth, request, reply, r) : r;
  });
  registerCall(app, hooks, calls.GetQRCodeLoginRequest, async ({ body, caller }) => auth.qrLoginRequest(body.code, caller.session.userId));
  registerCall(app, hooks, calls.ConfirmQRCodeLogin, async ({ body, caller }) => {
    await auth.confirmQrLogin(body.code, body.accept, caller.session.userId);
    return null;
  });
  registerCall(app, hooks, calls.Heartbeat, async () => ({ ServerTime: now() }));
  registerCall(app, hooks, calls.Exit, async ({ caller }) => {
    await auth.exit(caller.session.sessionId);
    return null;
  });
}
