import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { callKeys, ENCRYPTED_FIELD, Header, imageKey, isEncryptedText, type Lang, openData, parseCredential, SENSOR_KIND_NAMES, SENSOR_KINDS, type SensorKindRow, SESSION_CREDENTIAL_KEY, signingKey, TOKEN_COOKIE } from '@wildtrack/contract';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Request, type Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { screenshotDir, serverCli, serverMain } from './paths';

const run = promisify(execFile);

export interface Account {
  account: string;
  password: string;
}

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  admin: Account & { email: string };
  createUser(opts: { org: string; name: string; password: string; email?: string; phone?: string; nick?: string }): Promise<Account>;
  /** Ends every session (or one user's) on the server, as `wildtrack end-sessions` does. */
  endSessions(user?: string): Promise<void>;
  /** Runs an operator command (`wildtrack <args>`) on this server's data; answers its standard output. */
  cli(...args: string[]): Promise<string>;
  /** The server's SQLite file. */
  databaseFile: string;
  stop(): Promise<void>;
}

/** The day the browser specs' sample devices are simulated as of (a stork on its spring migration). */
export const SAMPLES_AS_OF = '2026-04-20';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function readAdmin(dataDir: string): (Account & { email: string }) | null {
  const file = join(dataDir, 'initial-admin.txt');
  if (!existsSync(file)) return null;
  const fields: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([\w-]+):\s*(.+)$/.exec(line.trim());
    if (m) fields[m[1]!] = m[2]!;
  }
  if (!fields.account || !fields.password) return null;
  return { account: fields.account, password: fields.password, email: fields['e-mail'] ?? '' };
}

/** The spawned server once it answers, with the first account it wrote (initial-admin.txt). */
interface Spawned {
  child: ChildProcess;
  admin: Account & { email: string };
  output: () => string;
}

/** Spawns the built server on `port` with `env` and waits until it answers /login and its first account is written. */
async function spawnServer(env: Record<string, string | undefined>, dataDir: string, port: number): Promise<Spawned> {
  const child: ChildProcess = spawn(process.execPath, [serverMain], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  // The first start also creates the sample devices (a few seconds, longer on a busy machine).
  const deadline = Date.now() + 90_000;
  let admin = null as ReturnType<typeof readAdmin>;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/login`);
      admin ??= readAdmin(dataDir);
      if (res.ok && admin) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error(`the server did not start within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return { child, admin, output: () => output };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/**
 * Prepared data folders (global-setup.ts provides their directory for the run). A server's first start
 * migrates and makes the sample devices: ~5 s of CPU, ~7 s to answering on a busy 2-core machine, against
 * ~2 s for a start on a folder that has them. So the first startServer of a kind builds a folder once (a
 * server started and stopped on it: its database, first account, media, field files) and later ones copy
 * it into their fresh directory. The sample data ends when its folder was built (shifted to end "now"),
 * so a folder is used for TEMPLATE_MAX_AGE_MS only: a copy's data is at most that much older than a
 * fresh start's, as if the spec had run that much longer; a spec that reads how recent the sample data
 * is asks for `freshData`. Only env vars known not to change what the first start writes may differ
 * from the template's (RUNTIME_ONLY); a spec passing another gets the plain first start.
 */
const TEMPLATE_MAX_AGE_MS = 120_000;
const RUNTIME_ONLY = new Set([
  'SMTP_URL', 'MAIL_FROM', 'EVENT_MAIL_INTERVAL_SECONDS', 'DOWNLOAD_TASKS', 'DOWNLOAD_KEEP_DAYS', 'WEATHER_URL',
  'VERSION_DOWNLOAD_HOST_EN', 'VERSION_DOWNLOAD_HOST_NA', 'VERSION_DOWNLOAD_HOST_OTHER',
]);

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this run's prepared data folders are kept (global-setup.ts); '' when none. */
    e2eTemplates: string;
  }
}

/**
 * A prepared data folder for a server of `env` (built now if none younger than TEMPLATE_MAX_AGE_MS), or
 * null when there is none to use. Workers share it: the first to take `<key>.lock` builds into a folder of
 * its own and renames it into place (`<key>@<built at>`); the others wait for that name.
 */
async function template(env: Record<string, string | undefined>, specEnv: Record<string, string>): Promise<string | null> {
  let root = '';
  try {
    root = inject('e2eTemplates');
  } catch {
    return null; // outside a vitest run with the global setup
  }
  if (!root || Object.keys(specEnv).some((name) => !RUNTIME_ONLY.has(name))) return null;
  // Everything but the runtime-only variables, the per-server ones and the per-worker ones (vitest's, and
  // trail.ts's DEBUG_FILE) names the kind of folder: a variable missed here only keeps workers from sharing.
  const kind = Object.entries(env)
    .filter(([name]) => !RUNTIME_ONLY.has(name) && name !== 'PORT' && name !== 'WILDTRACK_DATA' && !/^(VITEST|TINYPOOL|DEBUG_FILE$)/.test(name))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const key = createHash('sha256').update(JSON.stringify(kind)).digest('hex').slice(0, 16);
  const lock = join(root, `${key}.lock`);
  const deadline = Date.now() + 110_000;
  for (;;) {
    const ready = readdirSync(root)
      .filter((name) => name.startsWith(`${key}@`))
      .map((name) => ({ name, builtAt: Number(name.slice(key.length + 1)) }))
      .sort((a, b) => b.builtAt - a.builtAt);
    const newest = ready[0];
    if (newest && Date.now() - newest.builtAt < TEMPLATE_MAX_AGE_MS) return join(root, newest.name);
    let mine = false;
    try {
      mkdirSync(lock);
      mine = true;
    } catch {
      // another worker is building it; a lock older than any build (its worker died) is taken away
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 100_000) rmSync(lock, { recursive: true, force: true });
    }
    if (mine) {
      let building = '';
      try {
        // Folders too old for anyone to be choosing (or still copying) now.
        for (const old of ready) if (Date.now() - old.builtAt > TEMPLATE_MAX_AGE_MS + 60_000) rmSync(join(root, old.name), { recursive: true, force: true });
        building = mkdtempSync(join(root, `${key}.building-`));
        const builtAt = Date.now();
        const port = await freePort();
        const { child, output } = await spawnServer({ ...env, PORT: String(port), WILDTRACK_DATA: building }, building, port);
        await stopChild(child);
        if (child.exitCode !== 0) throw new Error(`the template server did not stop cleanly (${child.exitCode ?? child.signalCode}):\n${output()}`);
        rmSync(join(building, 'server.lock'), { force: true });
        const done = join(root, `${key}@${builtAt}`);
        renameSync(building, done);
        return done;
      } catch (e) {
        // The spec's own server then makes its data itself, and says what is wrong if it cannot.
        console.warn(`no prepared data folder: ${e instanceof Error ? e.message : String(e)}`);
        if (building) rmSync(building, { recursive: true, force: true });
        return null;
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    }
    if (Date.now() > deadline) return null;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * Starts the built server on a free port with a fresh data directory and waits until it answers. The
 * directory starts as a copy of a prepared one (see template) unless `freshData` or an env var the
 * template does not cover asks for the server's own first start.
 */
export async function startServer(env: Record<string, string> = {}, options: { freshData?: boolean } = {}): Promise<RunningServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'wildtrack-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  // Always a fresh SQLite database in the temp directory, whatever the calling shell has configured.
  // The sample devices are made as of a fixed day (shifted to end now), so a spec sees the same tracks
  // on any date; E2E_SAMPLES_AS_OF runs the specs on another season's data.
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    WILDTRACK_DATA: dataDir,
    WILDTRACK_SAMPLES_AS_OF: process.env.E2E_SAMPLES_AS_OF ?? SAMPLES_AS_OF,
    // The sample devices stay as made (specs count their records); a spec that wants them live sets it.
    WILDTRACK_SAMPLES_LIVE: 'false',
    // Passwords hashed with argon2id at 1 MiB, not the product's 64 MiB: each sign-in verified the first
    // account's 64 MiB hash in ~0.2 s of CPU, and the browser specs sign in and make accounts ~100 times.
    // The hashing and checking are the same code either way (argon2.verify reads the cost from the hash).
    PASSWORD_HASH_MEMORY_KIB: '1024',
    ...env,
  };
  delete childEnv.DATABASE_URL;
  const prepared = options.freshData ? null : await template(childEnv, env);
  if (prepared) cpSync(prepared, dataDir, { recursive: true });
  const { child, admin } = await spawnServer(childEnv, dataDir, port);

  return {
    baseUrl,
    dataDir,
    admin,
    async createUser({ org, name, password, email, phone, nick }) {
      const args = [serverCli, 'create-user', '--org', org, '--name', name, '--password', password];
      if (email) args.push('--email', email);
      if (phone) args.push('--phone', phone);
      if (nick) args.push('--nick', nick);
      await run(process.execPath, args, { env: childEnv });
      return { account: name, password };
    },
    databaseFile: join(dataDir, 'wildtrack.db'),
    async cli(...args: string[]) {
      const { stdout } = await run(process.execPath, [serverCli, ...args], { env: childEnv });
      return stdout;
    },
    async endSessions(user?: string) {
      await run(process.execPath, [serverCli, 'end-sessions', ...(user ? ['--user', user] : [])], { env: childEnv });
    },
    async stop() {
      await stopChild(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium with a GPU process whose GL is SwiftShader (no GPU on CI machines), as a user's
 * browser has one. With --disable-gpu the compositor rasterises in software and the page's main thread
 * waits on every frame's commit: a map frame then showed as a 100-380 ms main-thread task holding
 * 1-9 ms of script (map2d-performance spec, PERF_TRACE_DIR traces).
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
    ],
  });
}

/** The server and browser a spec file drives; each throws when read before its hook has started it. */
export interface SpecSetup {
  readonly server: RunningServer;
  readonly browser: Browser;
}

/**
 * The hook that starts a server waits as long as startServer may take: building a prepared folder (a
 * first start, up to 90 s, after waiting up to 110 s for another worker's) and then its own start (90 s),
 * so that startServer's own deadlines, which say what went wrong, fire before Vitest's 120 s hookTimeout
 * (at load 25 on the 2 cores a serverPerTest spec's second test timed out in the hook, its server
 * started later and outlived the run).
 */
const SERVER_START_MS = 300_000;

/**
 * Every spec's preamble: registers the hooks that start a server (fresh data directory, free port) and a
 * browser before the spec's tests and stop both after them. `serverPerTest` gives each test a server of
 * its own (a test that changes much of the data must not meet another's); `freshData`, a data folder made by
 * the server's own first start rather than copied from a prepared one (startServer). A spec's own beforeAll or
 * beforeEach, registered after this call, runs after these and may seed `setup.server`.
 */
export function serverAndBrowser(options: { serverPerTest?: boolean; env?: Record<string, string>; freshData?: boolean } = {}): SpecSetup {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  if (options.serverPerTest) {
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    beforeEach(async () => {
      server = await startServer(options.env, { freshData: options.freshData });
    }, SERVER_START_MS);
    afterEach(async () => {
      await server?.stop();
      server = undefined;
    });
  } else {
    beforeAll(async () => {
      [server, browser] = await Promise.all([startServer(options.env, { freshData: options.freshData }), launchBrowser()]);
    }, SERVER_START_MS);
    afterAll(async () => {
      await server?.stop();
    });
  }
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get server() {
      if (!server) throw new Error('no server: read setup.server inside a test or a hook');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('no browser: read setup.browser inside a test or a hook');
      return browser;
    },
  };
}

/**
 * Waits until nothing on the page is in motion (a dialog has opened, a drawer slid in, a notice settled):
 * no antd/rc-motion enter, appear or leave class left on an element that has a size, and no finite CSS
 * animation or transition running. Endless ones (spinners) are left out. Before a screenshot, and before
 * asserting that something did not close: a closing dialog is in motion from the event that closes it.
 */
/**
 * Waits until the page is on a screen, whatever its search params: a screen's URL carries the kept
 * device, tab and range once one was chosen (issue 12 item 3), and under load the tree's first
 * selection can land before or after the screen's own, so an exact URL is a race.
 */
export async function onScreen(page: Page, path: string, timeout?: number): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, timeout === undefined ? undefined : { timeout });
}

/** A step's promise, rejected with `what` when it has not settled within `ms` (for calls that have no timeout). */
export function bounded<T>(step: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([step, late]).finally(() => clearTimeout(timer));
}

export async function animationsSettled(page: Page): Promise<void> {
  const moving = (): string[] => {
    const motion = /-(enter|appear|leave)(-(prepare|start|active))?$/;
    // An element of no size keeps its motion class when the motion never ends (a button's loading icon).
    const classes = Array.from(document.querySelectorAll('[class*="-enter"], [class*="-appear"], [class*="-leave"]'))
      .filter((el) => el.getBoundingClientRect().width * el.getBoundingClientRect().height > 0)
      .flatMap((el) => Array.from(el.classList).filter((name) => motion.test(name)));
    const animations = document
      .getAnimations()
      .filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity)
      .map((a) => `${a.constructor.name} ${(a as CSSAnimation).animationName ?? (a as CSSTransition).transitionProperty ?? ''} on ${(a.effect as KeyframeEffect | null)?.target?.className ?? '?'}`);
    return [...classes, ...animations];
  };
  // Polled by evaluate, not waitForFunction: the console's CSP has no 'unsafe-eval', and waitForFunction
  // compiles a string predicate in the page with eval (refused there).
  // page.evaluate has no timeout of its own: bounded here, so a page that stopped answering fails this
  // step instead of hanging the test.
  const look = (): Promise<string[]> => bounded(page.evaluate(`(${moving.toString()})()`) as Promise<string[]>, 10_000, 'the page did not answer (evaluate)');
  await pollUntil(look, (still) => still.length === 0, 30_000, (still) => `still in motion: ${still.join(', ')}`);
}

/**
 * Calls `read` every 50 ms until `done` holds for its answer, then returns it; throws `why(last answer)` after
 * `timeoutMs`. The harness's own poll: vitest's global expect.poll refuses to run in a concurrent test
 * ("expect.poll() must be called inside a test": settings.spec, describe.concurrent, failed so in CI).
 */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, why: (last: T) => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(why(value));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What a browser profile keeps between pages (cookies, localStorage): BrowserContext.storageState's answer. */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * A fresh browser profile with a browser language, so the console's default language follows it; with
 * `storageState`, starting from that kept state (a profile signed in once, so that the next one need not be).
 * The profile asks for reduced motion unless `motion` says otherwise: the console then draws antd's dialogs,
 * menus and tooltips without their animations (as for a user who set that in the system), so that a spec
 * waits for no animation and the software-rendered browser draws fewer frames. accessibility.spec keeps one
 * language with motion, as most users see the console. With `offline` (a server's base URL), only that
 * server answers (offlineOptions).
 */
export async function newContext(
  browser: Browser,
  locale: 'zh-CN' | 'en-US',
  options: { storageState?: StorageState; motion?: 'reduce' | 'no-preference'; offline?: string } = {},
): Promise<BrowserContext> {
  const { storageState, motion = 'reduce', offline } = options;
  const context = await browser.newContext({
    locale, viewport: { width: 1366, height: 820 }, timezoneId: 'Asia/Shanghai', reducedMotion: motion,
    ...(storageState ? { storageState } : {}), ...(offline ? offlineOptions(offline) : {}),
  });
  // 30 s per step: on a busy 2-core machine (CI with other work beside it) a click or a SwiftShader
  // screenshot took over 10 s; a step that never happens still fails, only later.
  context.setDefaultTimeout(30_000);
  return context;
}

/** The port a proxy is sent to that nothing listens on (the discard port). */
const NO_PROXY_THERE = 'http://127.0.0.1:9';

/**
 * Browser-context options under which only the server at `baseUrl` answers and every other host fails
 * (net::ERR_PROXY_CONNECTION_FAILED), as on a field laptop without a network: every request goes to a proxy
 * that is not there, but those to the server's own host and port. Not context.route: any route makes
 * Playwright intercept every request of the context and turns the browser's HTTP cache off (crNetworkManager),
 * so each page load fetched and compiled the console's bundles again (cesium 3.8 MB, maplibre 1.1 MB); six
 * screen loads took 26.9 s with a route against 17-19 s without (three rounds each, back to back).
 * otherHosts lists what the pages asked of other hosts.
 */
export function offlineOptions(baseUrl: string): { proxy: { server: string; bypass: string } } {
  return { proxy: { server: NO_PROXY_THERE, bypass: new URL(baseUrl).host } };
}

/** The hosts other than `baseUrl`'s that the context's pages sent requests to (refused under offlineOptions), as they are sent. */
export function otherHosts(context: BrowserContext, baseUrl: string): string[] {
  const own = new URL(baseUrl).host;
  const hosts: string[] = [];
  context.on('request', (req) => {
    const { host } = new URL(req.url());
    if (host !== own && !req.url().startsWith('data:') && !req.url().startsWith('blob:')) hosts.push(host);
  });
  return hosts;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: false });
}

export async function signIn(page: Page, baseUrl: string, who: Account, path = '/login'): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.locator('#account').fill(who.account);
  await page.locator('#pwd').fill(who.password);
  await page.locator('button[type=submit]').click();
}

/**
 * The session cookie (`<SessionId>.<image key>`, docs/api.md "Pictures"): set while signed in, gone
 * after sign-out. It never holds the token; sessionCredential() reads what the client signs with.
 */
export async function tokenCookie(context: BrowserContext): Promise<string | undefined> {
  const cookies = await context.cookies();
  return cookies.find((c) => c.name === TOKEN_COOKIE)?.value;
}

/** The session credential the web client keeps (`<SessionId>.<Token>`, localStorage), or null. */
export async function sessionCredential(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), SESSION_CREDENTIAL_KEY);
}

/** The keys of a console call the page made (docs/api.md "Encrypted bodies and answers"): its session's and request code's. */
async function keysOf(page: Page, request: Request) {
  const credential = await sessionCredential(page);
  if (!credential) throw new Error('the page has no session to open its calls with');
  return callKeys(signingKey(parseCredential(credential).token), request.headers()[Header.requestCode.toLowerCase()] ?? '');
}

/** A console call's answer as the console reads it: its Data opened with the page's session keys when it came encrypted. */
export async function openedAnswer(page: Page, response: Response): Promise<{ Code: number; Msg: string; Data: unknown }> {
  const body = (await response.json()) as { Code: number; Msg: string; Data: unknown };
  if (!isEncryptedText(body.Data)) return body;
  const keys = await keysOf(page, response.request());
  return { ...body, Data: (await openData(keys.answer, keys.aad, body.Data)).value };
}

/** A console call's body as the console meant it: opened with the page's session keys when it went encrypted. */
export async function openedBody(page: Page, request: Request): Promise<unknown> {
  const body = request.postDataJSON() as Record<string, unknown> | null;
  const sealed = body?.[ENCRYPTED_FIELD];
  if (!isEncryptedText(sealed)) return body;
  const keys = await keysOf(page, request);
  return (await openData(keys.request, keys.aad, sealed)).value;
}

/**
 * Records the bodies of the page's console calls that `pathOf` names (a name, or null to skip), opened as the
 * console meant them (openedBody), in the order they were sent. An entry appears once its body is opened: poll
 * the list for what you wait for, or await `settled()` (every call sent so far opened) before reading it. A
 * body that can't be read (no session yet, a page gone) is recorded as {}.
 */
export interface RecordedBody {
  path: string;
  body: Record<string, unknown>;
}
export function recordBodies(page: Page, pathOf: (url: URL) => string | null): RecordedBody[] & { settled(): Promise<void> } {
  const list: RecordedBody[] = [];
  let chain = Promise.resolve();
  page.on('request', (r: Request) => {
    const path = pathOf(new URL(r.url()));
    if (path === null) return;
    // opened one after another, so the list keeps the order of sending
    chain = chain.then(async () => {
      let body: Record<string, unknown> = {};
      try {
        body = ((await openedBody(page, r)) ?? {}) as Record<string, unknown>;
      } catch {
        // not JSON, or no session to open it with
      }
      list.push({ path, body });
    });
  });
  return Object.assign(list, { settled: () => chain });
}

/**
 * Puts a session credential into the browser as the web client keeps it (localStorage and the session
 * cookie), e.g. one the server does not know. Leaves the page on /login.
 */
export async function plantSession(page: Page, baseUrl: string, credential: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [SESSION_CREDENTIAL_KEY, credential]);
  const { id, token } = parseCredential(credential);
  const { hostname } = new URL(baseUrl);
  await page.context().addCookies([{ name: TOKEN_COOKIE, value: `${id}.${imageKey(signingKey(token))}`, domain: hostname, path: '/' }]);
}

/**
 * Chooses an entry of the user menu and waits for what it opens; a click that landed during the menu's
 * animation (and so chose nothing) is made again, at most three times.
 */
export async function chooseUserMenuItem(page: Page, item: string | RegExp, opens: Locator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: item }).click();
    try {
      await opens.waitFor({ timeout: 5_000 });
      break;
    } catch (e) {
      if (attempt >= 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
  // What opened may still be zooming in: a click on it now can land where a control is not yet (a
  // settings switch clicked mid-animation stayed off, seen once on a busy machine).
  await animationsSettled(page);
}

/** Picks a zone in the settings dialog's select by searching for it; a pick lost in the dropdown's animation is made again. */
export async function pickZone(page: Page, zone: string): Promise<void> {
  const select = page.getByTestId('settings-time-zone');
  for (let attempt = 1; ; attempt++) {
    await select.click();
    await select.getByRole('combobox').fill(zone.slice(0, 3));
    await page.locator(`.ant-select-item-option[title="${zone}"]`).click();
    try {
      await select.filter({ hasText: zone }).waitFor({ timeout: 5_000 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
}

/**
 * Chooses a base layer in a map screen's layer switcher (its list item titled `title`) and waits until the
 * switcher holds it (`data-layer` = `layer`). A click that landed while the list was still opening or
 * closing chose nothing (seen once in CI: the map kept the street layer's notice); it is made again, at
 * most three times.
 */
export async function chooseBaseLayer(page: Page, title: string, layer: string): Promise<void> {
  const switcher = page.getByTestId('layer-switcher');
  const list = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  for (let attempt = 1; ; attempt++) {
    // A list still closing from an earlier choice would take this click.
    await list.waitFor({ state: 'hidden' });
    await switcher.click();
    await list.getByTitle(title, { exact: true }).click();
    try {
      await pollUntil(() => switcher.getAttribute('data-layer'), (held) => held === layer, 5_000, (held) => `the layer switcher holds ${held}, not ${layer}`);
      break;
    } catch (e) {
      if (attempt >= 3) throw e;
      console.warn(`chooseBaseLayer(${layer}): click ${attempt} chose nothing, clicking again`);
      if (await list.isVisible()) await page.keyboard.press('Escape');
    }
  }
  await list.waitFor({ state: 'hidden' });
}

/** The console's texts of one language (apps/web/src/i18n/<file>), as the specs read them. */
export type Texts = Record<string, unknown>;
export const catalogue = (file: string): Texts => {
  const texts = JSON.parse(readFileSync(new URL(`../../apps/web/src/i18n/${file}`, import.meta.url), 'utf8')) as Texts;
  return withSensorKinds(texts, file.startsWith('zh') ? 'zh' : 'en');
};

/**
 * The scalar sensor kinds' texts come from the contract's kinds table, not the catalogue (apps/web
 * i18n/sensor-kinds.ts): the specs find them under the keys the console names them by, a kind's
 * `trackSensors.kind.<kind>`, `download.kind.<kind>`, `export.kind.<kind>`, its flag's `sensor.<flag>` and
 * `tree.sensorFilter.<flag>`, each value's `trackSensors.field.<field>` and `trackSensors.unit.<field>`.
 */
function withSensorKinds(texts: Texts, lang: Lang): Texts {
  const into = (path: string, key: string, text: string) => {
    let node = texts as Record<string, unknown>;
    for (const part of path.split('.')) node = (node[part] ??= {}) as Record<string, unknown>;
    node[key] = text;
  };
  for (const kind of SENSOR_KIND_NAMES) {
    const row: SensorKindRow = SENSOR_KINDS[kind];
    into('trackSensors.kind', kind, row.label[lang]);
    into('download.kind', kind, row.label[lang]);
    into('export.kind', kind, row.noun[lang]);
    into('sensor', row.flag, row.label[lang]);
    into('tree.sensorFilter', row.flag, row.label[lang]);
    for (const v of row.values) {
      into('trackSensors.field', v.field, v.label[lang]);
      into('trackSensors.unit', v.field, v.unit[lang]);
    }
  }
  return texts;
}

/** One text by its dotted key, its {{name}} placeholders filled from vars (an unnamed one left empty). */
export const lookup = (texts: Texts, key: string, vars: Record<string, string | number> = {}): string => {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Texts | undefined)?.[part], texts);
  if (typeof value !== 'string') throw new Error(`no text ${key}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(vars[name] ?? ''));
};
