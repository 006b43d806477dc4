import { API_BASE, GetPublicKey, LanguageId, newRequestCode, PasswordLogin, prepareCall, prepareSignIn, signedHeaders, type CallBody, type CallData, type CallDef } from '@wildtrack/contract';

/**
 * A console user's calls from a spec's set-up, signed and encrypted as the web client sends them (docs/api.md): for
 * data a spec needs made through the API rather than by clicking (an instruction sent twice today).
 */
export interface ApiUser {
  /** The call's Data; a refusal rejects with its code and message. */
  call<C extends CallDef>(def: C, body: CallBody<C>): Promise<CallData<C>>;
}

async function post(baseUrl: string, path: string, body: string, headers: Record<string, string>): Promise<{ Code: number; Msg: string; Data: unknown }> {
  const res = await fetch(baseUrl + API_BASE + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return (await res.json()) as { Code: number; Msg: string; Data: unknown };
}

export async function apiSignIn(baseUrl: string, account: string, password: string, lang: 'zh' | 'en' = 'en'): Promise<ApiUser> {
  const lcid = lang === 'zh' ? LanguageId.zh : LanguageId.en;
  const keyBody = '{}';
  const key = await post(baseUrl, GetPublicKey.path, keyBody, signedHeaders({ path: GetPublicKey.path, body: keyBody, lcid }));
  const serverKey = (key.Data as { PublicKey: string }).PublicKey;
  const requestCode = newRequestCode();
  const prepared = prepareSignIn(serverKey, password, requestCode);
  const body = JSON.stringify({ account, pwd: prepared.pwd, clientKey: prepared.clientKey, timeZone: '+08:00' });
  const answer = await post(baseUrl, PasswordLogin.path, body, signedHeaders({ path: PasswordLogin.path, body, lcid, requestCode }));
  if (answer.Code !== 1000) throw new Error(`sign-in of ${account} refused: ${answer.Msg}`);
  const token = prepared.credential(answer.Data as { Token: string; SessionId: string });
  return {
    async call(def, input) {
      const prepared = prepareCall({ credential: token, path: def.path, body: input, lcid });
      const res = await fetch(baseUrl + API_BASE + def.path, { method: 'POST', headers: prepared.headers, body: prepared.payload });
      const env = await prepared.open(await res.text());
      if (env.Code !== 1000) throw new Error(`${def.path} refused (${env.Code}): ${env.Msg}`);
      return env.Data as CallData<typeof def>;
    },
  };
}
