import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser, newContext, otherHosts } from './harness';

/**
 * The harness's offline profile (newContext's `offline`, offlineOptions), which most specs stand on: the
 * server it names answers, and every other host fails, another port of the same machine included.
 */
let browser: Browser;
const servers: Server[] = [];
async function listening(): Promise<string> {
  const server = createServer((_, res) => res.end('<p>answered</p>'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  for (const server of servers) server.close();
});

it('answers from the named server only; the others are refused and listed', async () => {
  const [own, other] = [await listening(), await listening()];
  // without it the other server answers: what refuses it below is the profile
  const open = await newContext(browser, 'en-US');
  expect((await (await open.newPage()).goto(`${other}/`))?.status()).toBe(200);
  await open.close();
  const context = await newContext(browser, 'en-US', { offline: own });
  const hosts = otherHosts(context, own);
  const page = await context.newPage();
  expect((await page.goto(`${own}/`))?.status()).toBe(200);
  await expect(page.goto(`${other}/`)).rejects.toThrow(/ERR_PROXY_CONNECTION_FAILED/);
  await expect(page.goto('https://t0.tianditu.gov.cn/tile.png')).rejects.toThrow(/ERR_PROXY_CONNECTION_FAILED/);
  expect(hosts).toEqual([new URL(other).host, 't0.tianditu.gov.cn']);
  await context.close();
});
