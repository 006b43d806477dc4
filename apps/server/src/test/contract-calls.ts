import { expect } from 'vitest';
import { type CallDef, Code } from '@wildtrack/contract';
import type { TestApp } from './helper.js';

/**
 * A route test's two ways to send a contract call: `call` answers the envelope; `data` expects success and
 * answers the Data parsed by the call's own schema. The app and the default token are read when a call is
 * made (tests set them in beforeAll); `token: null` sends none. `defaults` go under every body.
 */
export function contractCalls(app: () => TestApp, defaultToken: () => string, defaults: Record<string, unknown> = {}) {
  const call = async (def: CallDef, body: Record<string, unknown>, opts: { token?: string | null; lang?: 'en' | 'zh' } = {}) =>
    (await app().call(def.path, { ...defaults, ...body }, { ...(opts.token === null ? {} : { token: opts.token ?? defaultToken() }), lang: opts.lang ?? 'en' })).body;
  const data = async <T,>(def: CallDef, body: Record<string, unknown>, opts: { token?: string; lang?: 'en' | 'zh' } = {}): Promise<T> => {
    const r = await call(def, body, opts);
    expect(r.Code, r.Msg).toBe(Code.Success);
    return def.data.parse(r.Data) as T;
  };
  return { call, data };
}
