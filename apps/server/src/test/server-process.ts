import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { API_BASE, calls, Code, LanguageId, newRequestCode, prepareCall, prepareSignIn, signedHeaders } from '@wildtrack/contract';

const serverDir = path.resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the real server (src/main.ts through tsx) as its own process on a free port, without sample
 * devices; resolves once it prints that it is running. The caller's env decides the data folder and
 * database (DATABASE_URL is dropped unless given).
 */
export function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const childEnv: Record<string, string | undefined> = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', WILDTRACK_SAMPLES: '0', ...env };
  if (env.DATABASE_URL === undefined) delete childEnv.DATABASE_URL;
  if (env.REDIS_URL === undefined) delete childEnv.REDIS_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: serverDir, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /running: https?:\/\/localhost:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        const port = Number(m[1]);
        resolve({ child, port, baseUrl: `http://127.0.0.1:${port}`, output: () => out, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${out}`));
    });
  });
}

/** A signed console call to a server process over HTTP, as the web client makes it (encrypted when signed in): the envelope. */
export async function callProcess(server: ServerProcess, p: string, body: unknown, opts: { credential?: string; requestCode?: string } = {}): Promise<{ Code: number; Msg: string; Data: unknown }> {
  if (opts.credential) {
    const prepared = prepareCall({ credential: opts.credential, path: p, body, lcid: LanguageId.en, ...(opts.requestCode ? { requestCode: opts.requestCode } : {}) });
    const res = await fetch(server.baseUrl + API_BASE + p, { method: 'POST', headers: prepared.headers, body: prepared.payload });
    const { Code: code, Msg, Data } = await prepared.open(await res.text());
    return { Code: code, Msg, Data };
  }
  const payload = JSON.stringify(body);
  const headers = { ...signedHeaders({ token: opts.credential, path: p, body: payload, lcid: LanguageId.en, ...(opts.requestCode ? { requestCode: opts.requestCode } : {}) }), 'content-type': 'application/json' };
  const res = await fetch(server.baseUrl + API_BASE + p, { method: 'POST', headers, body: payload });
  return (await res.json()) as { Code: number; Msg: string; Data: unknown };
}

/** Signs in to a server process as the web client does; the session credential (`<SessionId>.<Token>`). */
export async function signInProcess(server: ServerProcess, account: string, password: string): Promise<string> {
  const key = await callProcess(server, calls.GetPublicKey.path, {});
  const requestCode = newRequestCode();
  const prepared = prepareSignIn((key.Data as { PublicKey: string }).PublicKey, password, requestCode);
  const answer = await callProcess(server, calls.PasswordLogin.path, { account, pwd: prepared.pwd, clientKey: prepared.clientKey, timeZone: '+08:00' }, { requestCode });
  if (answer.Code !== Code.Success) throw new Error(`sign-in of ${account} refused: ${answer.Msg}`);
  return prepared.credential(answer.Data as { Token: string; SessionId: string });
}
