import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, type CallDef, calls, LanguageId, signedHeaders } from '@wildtrack/contract';
import { DIALECTS } from '../helper.js';
import { bodyFor } from './bodies.js';
import { buildWorld, type World } from './world.js';
import { now as clockNow, useFixedClock } from '../clock.js';
import { NOW } from '../fixed-time.js';

/**
 * Multipart cuts and slow bodies per upload call (issue 26, "Deliver as well" 2): every call that takes an
 * upload, found from the registered routes (a call whose route takes a multipart body: the others answer
 * 415 before anything else), so a new upload call is covered without a case written for it. Over a real
 * socket, as the owner of everything its fields name:
 *
 * - a body cut mid-way (the client ends its side before the declared length) is answered or its
 *   connection closed promptly, and leaves no file and no open descriptor;
 * - a client gone mid-body leaves no file and no descriptor;
 * - a body slower than the minimum rate (here 200 bytes a second over half a second) is cut.
 *
 * "Promptly" is a bounded poll (5 s), not a budget. Descriptors are counted in /proc/self/fd (the server
 * runs in this process); each case runs REPEATS times and may grow the count by less than that (a pool's
 * database connection opened on the way is not a leak, one per request is).
 */

const REPEATS = 3;
/** How long "promptly" may take: a bound for a busy machine, not a budget (the minimum rate's window is 0.5 s). */
const PROMPTLY = { timeout: 5_000, interval: 50 };
/** Each kind of case walks every upload call × file name; a failing one waits out its bound. */
const CASE_TIMEOUT = 300_000;
const BOUNDARY = '----wildtrack-harness-cut';
const DECLARED = 4 * 1024 * 1024;
/** The part of the file sent before the cut: enough for a reader to have started writing it. */
const SENT_OF_FILE = 256 * 1024;
const ALL_CALLS = Object.entries(calls as unknown as Record<string, CallDef>).sort(([a], [b]) => a.localeCompare(b));

type CaseKind = 'cut' | 'gone' | 'slow';
/**
 * Findings other helpers own, tolerated here until fixed (issue 26 M1: a Movebank upload cut mid-body is never
 * answered and leaks a descriptor and a file in imports/); an entry that no longer happens fails the test,
 * so the list only shrinks.
 */
const KNOWN_FINDINGS: { path: string; kind: CaseKind; note: string }[] = [];

/** Runs a check, its failure's message prefixed with what was checked (expect.poll's message is not in it). */
async function step(what: string, check: () => Promise<unknown>): Promise<void> {
  try {
    await check();
  } catch (err) {
    throw new Error(`${what}: ${(err as Error).message.split('\n')[0]}`);
  }
}

function openDescriptors(): number {
  return fs.readdirSync('/proc/self/fd').length;
}

/** Every file under the data folder, but the database's own. */
function filesUnder(dir: string): Set<string> {
  const out = new Set<string>();
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!/^test\.db/.test(entry.name)) out.add(path.relative(dir, full));
    }
  };
  walk(dir);
  return out;
}

/**
 * The file names each case is sent with: whatever kind of file a call reads (a picture, a Movebank CSV, a
 * shapefile), one of them is its own and gets read, the others may be refused before the file is.
 */
const FILE_NAMES = ['harness.png', 'harness.csv', 'harness.shp'];

/** The call's multipart head: its text fields, then the start of its first file part. */
function multipartHead(def: CallDef, fields: Record<string, unknown>, fileName: string): Buffer {
  const text = Object.entries(fields)
    .map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${typeof v === 'string' ? v : JSON.stringify(v)}\r\n`)
    .join('');
  const file = def.multipart?.files[0] ?? 'file';
  return Buffer.from(`${text}--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
}

/** An upload over its own socket: headers declaring DECLARED bytes, the head and the first bytes of the file. */
function startUpload(port: number, def: CallDef, token: string | undefined, fields: Record<string, unknown>, fileName: string) {
  const socket = net.connect({ port, host: '127.0.0.1' });
  let answer = '';
  let closed = false;
  socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
  socket.on('close', () => (closed = true));
  socket.on('error', () => undefined);
  const headers = {
    ...signedHeaders({ token, path: def.path, body: undefined, lcid: LanguageId.en, now: clockNow() }),
    host: '127.0.0.1',
    'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    'content-length': String(DECLARED),
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  socket.write(`POST ${API_BASE}${def.path} HTTP/1.1\r\n${lines.join('')}\r\n`);
  socket.write(multipartHead(def, fields, fileName));
  socket.write(Buffer.alloc(SENT_OF_FILE, 0x41));
  return { socket, answer: () => answer, closed: () => closed };
}

describe.each(DIALECTS)('multipart cuts and slow bodies per upload call on %s', (dialect) => {
  let world: World;
  // The world's shares are made around the server's clock, and read against it: fixed at NOW.
  useFixedClock(NOW);
  let port: number;
  const uploads: [string, CallDef][] = [];
  const found: { path: string; kind: CaseKind }[] = [];

  beforeAll(async () => {
    world = await buildWorld(dialect, { MIN_BODY_RATE_BYTES: '200', MIN_BODY_RATE_WINDOW_SECONDS: '0.5', UPLOADS_PER_USER: '50' });
    await world.t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (world.t.app.server.address() as AddressInfo).port;
    // The upload calls, from the routes: a signed multipart body to every POST call; the ones that do not
    // take multipart refuse it by its content type (415) before anything else is done.
    for (const [name, def] of ALL_CALLS) {
      if (def.method === 'GET') continue;
      const res = await world.t.app.inject({
        method: 'POST',
        url: API_BASE + def.path,
        headers: { ...signedHeaders({ token: world.owner.token, path: def.path, body: undefined, lcid: LanguageId.en, now: clockNow() }), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: `--${BOUNDARY}--\r\n`,
      });
      if (res.statusCode !== 415) uploads.push([name, def]);
    }
  }, 120_000);
  afterAll(async () => world.close());

  it('finds every upload call: those the contract declares multipart and the picture upload', () => {
    const names = uploads.map(([n]) => n);
    for (const [name, def] of ALL_CALLS) if (def.multipart) expect(names, `${name} declares a multipart body`).toContain(name);
    expect(names).toContain('ImageUpload');
  });

  const fieldsOf = (def: CallDef) => (def.multipart ? bodyFor(def, world.owner, world.range) : {});

  /** Runs one kind of case on every upload call; a call it fails on is a finding (KNOWN_FINDINGS) or a failure. */
  const everyUpload = async (kind: CaseKind, run: (def: CallDef, fileName: string) => Promise<void>) => {
    const failures: string[] = [];
    for (const [, def] of uploads) {
      for (const fileName of FILE_NAMES) {
        try {
          await run(def, fileName);
        } catch (err) {
          found.push({ path: def.path, kind });
          if (!KNOWN_FINDINGS.some((f) => f.path === def.path && f.kind === kind)) failures.push(`${def.path} (${fileName}): ${(err as Error).message.split('\n')[0]}`);
        }
      }
    }
    for (const f of KNOWN_FINDINGS.filter((k) => k.kind === kind)) {
      if (!found.some((x) => x.path === f.path && x.kind === kind)) failures.push(`${f.path} (${kind}) no longer fails: remove it from KNOWN_FINDINGS`);
    }
    expect(failures).toEqual([]);
  };

  /** After the cases: no new file under the data folder, and descriptors back (less than one per request). */
  const leavesNothing = async (filesBefore: Set<string>, fdsBefore: number, label: string) => {
    await step(`${label}: files left`, () => expect.poll(() => [...filesUnder(world.t.dataDir)].filter((f) => !filesBefore.has(f)), PROMPTLY).toEqual([]));
    await step(`${label}: descriptors left`, () => expect.poll(() => openDescriptors() - fdsBefore, PROMPTLY).toBeLessThan(REPEATS));
  };

  it('answers a body cut mid-way promptly (or closes), leaving no file and no descriptor', async () => {
    await everyUpload('cut', async (def, fileName) => {
      const files = filesUnder(world.t.dataDir);
      const fds = openDescriptors();
      for (let i = 0; i < REPEATS; i++) {
        const u = startUpload(port, def, world.owner.token, fieldsOf(def), fileName);
        // the client's side ends before the declared length
        u.socket.end();
        await step('answered or closed', () => expect.poll(() => u.closed() || /^HTTP\/1\.1 \d{3} /.test(u.answer()), PROMPTLY).toBe(true));
        expect(u.answer()).not.toMatch(/^HTTP\/1\.1 5\d\d /);
        u.socket.destroy();
      }
      await leavesNothing(files, fds, 'after');
    });
  }, CASE_TIMEOUT);

  it('leaves no file and no descriptor when the client goes mid-body', async () => {
    await everyUpload('gone', async (def, fileName) => {
      const files = filesUnder(world.t.dataDir);
      const fds = openDescriptors();
      for (let i = 0; i < REPEATS; i++) {
        const u = startUpload(port, def, world.owner.token, fieldsOf(def), fileName);
        await new Promise<void>((resolve) => u.socket.write(Buffer.alloc(1024, 0x42), () => resolve()));
        u.socket.destroy();
      }
      await leavesNothing(files, fds, 'after');
    });
  }, CASE_TIMEOUT);

  it('cuts a body slower than the minimum rate', async () => {
    await everyUpload('slow', async (def, fileName) => {
      const files = filesUnder(world.t.dataDir);
      const fds = openDescriptors();
      const u = startUpload(port, def, world.owner.token, fieldsOf(def), fileName);
      // a byte every 100 ms: 10 bytes a second, under the 200 the server asks
      const trickle = setInterval(() => {
        if (!u.socket.destroyed) u.socket.write('x');
      }, 100);
      try {
        await step('cut', () => expect.poll(() => u.closed(), PROMPTLY).toBe(true));
      } finally {
        clearInterval(trickle);
        u.socket.destroy();
      }
      // cut (408, or closed), or refused on its fields before the file and closed: never a 5xx
      expect(u.answer()).not.toMatch(/^HTTP\/1\.1 5\d\d /);
      await leavesNothing(files, fds, 'after');
    });
  }, CASE_TIMEOUT);
});
