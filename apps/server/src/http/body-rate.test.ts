import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutSlowBodies } from './body-rate.js';

/** The minimum body rate's watch (issue 26 H3) on a keep-alive connection: each request's ends with its body. */
describe('the minimum body rate on a keep-alive connection', () => {
  const app = Fastify();
  const sockets: Socket[] = [];
  let port = 0;

  beforeAll(async () => {
    // a window longer than the test: only the body's end can stop a watch
    cutSlowBodies(app, { bytesPerSecond: 1, windowMs: 600_000 }, () => ({ status: 408, json: {} }));
    app.post('/echo', async (request) => request.body);
    app.server.on('connection', (s: Socket) => sockets.push(s));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
  });

  it("leaves no 'close' listener behind once a request's body is in (30 calls on one socket)", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = (i: number) =>
      new Promise<string>((resolve, reject) => {
        const body = JSON.stringify({ i });
        const req = http.request({ host: '127.0.0.1', port, path: '/echo', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve(text));
        });
        req.on('error', reject);
        req.end(body);
      });
    for (let i = 0; i < 30; i++) expect(await post(i)).toBe(JSON.stringify({ i }));
    agent.destroy();
    expect(sockets).toHaveLength(1);
    // Node's own listener or two stay; the watch's 30 (one per request, until its window) do not
    expect(sockets[0]!.listenerCount('close')).toBeLessThan(5);
  });
});
