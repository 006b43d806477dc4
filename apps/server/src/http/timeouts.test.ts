import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls } from '@wildtrack/contract';
import { createTestApp, type TestApp } from '../test/helper.js';

/**
 * The server's own timeouts (issue 26 H3, M3: none were set, and Node's are 60 s for headers and 300 s
 * for a request): a connection that never finishes its headers, and a request whose body never ends
 * (slowly enough to pass no minimum rate: the rate is off here), are answered 408 and closed.
 */
describe('request and headers timeouts', () => {
  let t: TestApp;
  let port = 0;
  const open: net.Socket[] = [];

  /** A raw connection sending `text` and then nothing; what the server wrote and whether it closed. */
  const hold = (text: string, drip?: string) => {
    const socket = net.connect(port, '127.0.0.1');
    open.push(socket);
    let answer = '';
    let closed = false;
    socket.setEncoding('utf8').on('data', (c: string) => (answer += c));
    socket.on('close', () => (closed = true)).on('error', () => {});
    socket.write(text);
    // a byte every 200 ms: the body goes on, never ends
    const timer = drip ? setInterval(() => socket.writable && socket.write(drip), 200) : undefined;
    socket.on('close', () => clearInterval(timer));
    return { answer: () => answer, closed: () => closed };
  };

  beforeAll(async () => {
    t = await createTestApp('sqlite', { HEADERS_TIMEOUT_SECONDS: '1', REQUEST_TIMEOUT_SECONDS: '2', MIN_BODY_RATE_BYTES: '0' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of open) s.destroy();
    await t.close();
  });

  it('answers 408 and closes a connection whose headers never end', async () => {
    const c = hold(`POST ${calls.Heartbeat.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n`);
    await expect.poll(c.closed, { timeout: 15_000, interval: 100 }).toBe(true);
    expect(c.answer()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 and closes a request whose body never ends', async () => {
    const c = hold(`POST ${calls.Heartbeat.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`, ' ');
    await expect.poll(c.closed, { timeout: 15_000, interval: 100 }).toBe(true);
    expect(c.answer()).toMatch(/^HTTP\/1\.1 408 /);
  });
});
