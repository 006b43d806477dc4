import AxeBuilder from '@axe-core/playwright';
import { GetFenceList, GetRuleListByType, type Fence } from '@wildtrack/contract';
import { IngestClient } from '@wildtrack/simulator';
import Database from 'better-sqlite3';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSignIn, type ApiUser } from './api';
import { animationsSettled, catalogue, lookup, newContext, onScreen, pollUntil, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * Geofences on /fence (issue 15 item 1) in both languages, no network beyond the local server. A tag of
 * the organisation flies a part of the sample stork's route (its fixes copied from the sample, as of
 * now); on /fence a new fence is given that tag, its track shows under the map, a polygon is drawn around
 * the middle of it with clicks and finished with a double-click (the area shows while drawing and after),
 * saved with an enter rule, and listed with its area; the saved ring holds some of the route's fixes.
 * Then a small .shp (its bytes written here: one polygon) is imported as a fence with the same settings,
 * a file that is no shapefile is refused with "geofence file import failed" and the server's reason, and
 * a file that is not .shp is refused before upload.
 */
const setup = serverAndBrowser();

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', texts: catalogue('zh-CN.json'), imei: '861500000000101', unit: /平方公里|公顷|平方米/ },
  { locale: 'en-US' as const, tag: 'en', texts: catalogue('en-US.json'), imei: '861500000000201', unit: /km²|ha|m²/ },
];

let api: ApiUser;
const dir = mkdtempSync(join(tmpdir(), 'wildtrack-fence-'));
/** The stork's route slice: [lon, lat] of each fix sent. */
let route: [number, number][] = [];
/** The sample stork's IMEI (an experience device: no fence may be put on it). */
let storkImei = '';
/** Each registered tag's ingest secret, by IMEI. */
const secrets = new Map<string, string>();

/**
 * A shapefile (.shp, ESRI 1998) of one polygon record with one ring (clockwise, as the format's outer
 * rings are), written byte by byte.
 */
function polygonShp(ring: [number, number][]): Buffer {
  const closed = [...ring, ring[0]!];
  const xs = closed.map((p) => p[0]);
  const ys = closed.map((p) => p[1]);
  const box = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  const content = 4 + 32 + 4 + 4 + 4 + 16 * closed.length;
  const total = 100 + 8 + content;
  const b = Buffer.alloc(total);
  b.writeInt32BE(9994, 0);
  b.writeInt32BE(total / 2, 24);
  b.writeInt32LE(1000, 28);
  b.writeInt32LE(5, 32);
  box.forEach((v, i) => b.writeDoubleLE(v, 36 + 8 * i));
  let o = 100;
  b.writeInt32BE(1, o);
  b.writeInt32BE(content / 2, o + 4);
  o += 8;
  b.writeInt32LE(5, o);
  box.forEach((v, i) => b.writeDoubleLE(v, o + 4 + 8 * i));
  b.writeInt32LE(1, o + 36);
  b.writeInt32LE(closed.length, o + 40);
  b.writeInt32LE(0, o + 44);
  closed.forEach(([x, y], i) => {
    b.writeDoubleLE(x, o + 48 + 16 * i);
    b.writeDoubleLE(y, o + 56 + 16 * i);
  });
  return b;
}

/** Ray casting: whether [x, y] is inside the ring. */
function inside([x, y]: [number, number], ring: readonly [number, number][]): boolean {
  let hit = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

beforeAll(async () => {
  // a slice of the sample stork's route: 40 valid fixes from the middle of its days
  const db = new Database(setup.server.databaseFile, { readonly: true });
  let fixes: { lon: number; lat: number }[];
  try {
    const stork = db.prepare("select id, imei from devices where caption like '%stork%' order by id limit 1").get() as { id: number; imei: string } | undefined;
    expect(stork, 'the sample stork').toBeTruthy();
    storkImei = stork!.imei;
    const all = db.prepare('select lon, lat from fixes where device_id = ? and valid = 1 and lon is not null order by pick_time').all(stork!.id) as { lon: number; lat: number }[];
    // the 40 fixes (every 3rd of 120) that travel furthest from first to last: a leg of its flight
    let best = 0;
    let bestFrom = 0;
    for (let from = 0; from + 120 <= all.length; from += 20) {
      const a = all[from]!;
      const b = all[from + 119]!;
      const d = Math.hypot(b.lon - a.lon, b.lat - a.lat);
      if (d > best) [best, bestFrom] = [d, from];
    }
    fixes = all.slice(bestFrom, bestFrom + 120).filter((_, i) => i % 3 === 0);
  } finally {
    db.close();
  }
  expect(fixes.length).toBe(40);
  route = fixes.map((f) => [f.lon, f.lat]);
  const now = Date.now();
  for (const c of cases) {
    const out = await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', c.imei, '--caption', `Stork ${c.tag}`, '--sensors', 'GNSS', '--species', 'bird', '--battery', 'li');
    const { secret } = JSON.parse(out) as { secret: string };
    secrets.set(c.imei, secret);
    await new IngestClient(setup.server.baseUrl, { imei: c.imei, secret }).sendBatch({
      fixes: {
        t: fixes.map((_, i) => now - (fixes.length - i) * 10 * 60_000),
        lon: fixes.map((f) => f.lon),
        lat: fixes.map((f) => f.lat),
        voltage: fixes.map(() => 3.95),
        sats: fixes.map(() => 9),
        hdop: fixes.map(() => 1.1),
        grade: fixes.map(() => 1),
      },
    });
  }
  api = await apiSignIn(setup.server.baseUrl, setup.server.admin.account, setup.server.admin.password);
});

async function fenceNamed(label: string): Promise<Fence | undefined> {
  const list = await api.call(GetFenceList, { currentPage: 1, pageSize: 100, timeZone: '+08:00' });
  return list.List.find((f) => f.Label === label);
}

/** Serious or critical axe-core violations on /fence (the list or the form beside the map). */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('[data-testid=fence]').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} [${v.impact}] ${v.help} -> ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Chooses the device in the form's device picker (typed, then its option), verified and retried. */
async function chooseDevice(page: Page, name: string): Promise<void> {
  const picker = page.getByTestId('fence-devices');
  for (let attempt = 0; attempt < 4; attempt++) {
    await picker.click();
    await picker.locator('input').fill(name);
    const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: name }).first();
    await option.waitFor();
    await option.click();
    await page.keyboard.press('Escape');
    if ((await picker.locator('.ant-select-selection-item', { hasText: name }).count()) > 0) return;
  }
  throw new Error(`could not choose ${name}`);
}

/** Fills the schedule: a fix every 5 minutes; postback by packets of 10 fixes, 512 bytes. */
async function fillSchedule(page: Page): Promise<void> {
  await page.locator('[data-testid=fence-collection-minutes] input, input[data-testid=fence-collection-minutes]').first().fill('5');
  await page.getByTestId('fence-postback-mode').locator('input[value=DATA_CNT]').check();
  const numbers = page.getByTestId('fence-form').locator('.wt-fence-row input');
  await numbers.nth(0).fill('10');
  await numbers.nth(1).fill('512');
}

describe.each(cases)('geofences ($tag)', ({ locale, tag, texts, imei, unit }) => {
  const t = (key: string, vars?: Record<string, string | number>) => lookup(texts, key, vars);

  it('draws a polygon around part of the stork route with an enter rule, lists it with its area, imports a .shp and refuses a bad one', { timeout: 240_000 }, async () => {
    // only the local server answers: every other host fails, as on a field laptop without a network
    const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
    const page = await context.newPage();
    try {
      // signed in from /fence's own URL, and back on it
      await signIn(page, setup.server.baseUrl, setup.server.admin, '/fence');
      await onScreen(page, '/fence', 90_000);
      const map = page.getByTestId('map');
      await expect.poll(() => map.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
      // the list (empty in the first language's run, the first run's fences in the second's)
      await page.locator('[data-testid=fence-empty], [data-testid=fence-list]').first().waitFor({ timeout: 30_000 });
      await screenshot(page, `fence-${tag}-list-before`);

      // ---- a new fence: its device first, whose track then shows and the map fits to it ----
      await page.getByTestId('fence-new').click();
      await page.getByTestId('fence-form').waitFor();
      const label = `Stopover ${tag}`;
      await page.getByTestId('fence-label').fill(label);
      // the sample stork (an experience device) is offered greyed, with the reason
      const picker = page.getByTestId('fence-devices');
      await picker.click();
      await picker.locator('input').fill(storkImei);
      const offered = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
      // the list filtered down to the one device with that IMEI
      await expect.poll(() => offered.count()).toBe(1);
      const sample = offered.first();
      expect(await sample.textContent()).toContain(t('fence.reason.example'));
      expect(await sample.getAttribute('class')).toContain('ant-select-item-option-disabled');
      await picker.locator('input').fill('');
      await page.keyboard.press('Escape');
      await chooseDevice(page, `Stork ${tag}`);
      // its track drawn (all 40 fixes) and the view come to rest on it
      await pollUntil(
        async () => ({ tracks: await map.getAttribute('data-tracks'), moving: await map.getAttribute('data-moving') }),
        (s) => s.moving === '0' && s.tracks === `${imei}:40`,
        60_000,
        (s) => `the track is not shown (${s.tracks}, moving ${s.moving})`,
      );
      await animationsSettled(page);
      await expect.poll(() => map.getAttribute('data-moving')).toBe('0');
      expect(await map.getAttribute('data-fence-tool')).toBe('polygon');

      // ---- the polygon: four clicks around the middle of the view, the last one a double-click ----
      const box = (await map.boundingBox())!;
      const at = (fx: number, fy: number) => ({ x: box.x + box.width * fx, y: box.y + box.height * fy });
      const corners = [at(0.3, 0.25), at(0.7, 0.25), at(0.7, 0.75)];
      for (const p of corners) await page.mouse.click(p.x, p.y);
      const last = at(0.3, 0.75);
      await page.mouse.move(last.x, last.y);
      // while drawing: the area of the ring so far (with the cursor's vertex)
      await expect.poll(() => map.getAttribute('data-fence-drawing')).toBe('1');
      await page.getByTestId('fence-area').waitFor();
      expect(await page.getByTestId('fence-area').textContent()).toContain(t('fence.stillDrawing'));
      await screenshot(page, `fence-${tag}-drawing`);
      await page.mouse.dblclick(last.x, last.y);
      await expect.poll(() => map.getAttribute('data-fence-drawing')).toBe('0');
      await expect.poll(() => map.getAttribute('data-fence-tool')).toBe('select');
      const drawnArea = (await page.getByTestId('fence-area').textContent()) ?? '';
      expect(drawnArea).toMatch(unit);
      expect(drawnArea).not.toContain(t('fence.stillDrawing'));

      // ---- its vertices can be edited: a corner dragged outwards makes the area larger ----
      const corner = at(0.7, 0.75);
      const further = at(0.8, 0.88);
      await page.mouse.move(corner.x, corner.y);
      await page.mouse.down();
      await page.mouse.move(further.x, further.y, { steps: 8 });
      await page.mouse.up();
      await expect.poll(() => page.getByTestId('fence-area').textContent()).not.toBe(drawnArea);
      const areaText = (await page.getByTestId('fence-area').textContent()) ?? '';
      const figure = (text: string) => Number(text.replace(/[^\d.]/g, ''));
      expect(figure(areaText)).toBeGreaterThan(figure(drawnArea));

      // ---- the rule: on entering (the default), evaluated by the server; the schedule ----
      expect(await page.getByTestId('fence-in-or-out').locator('input[value=ENTER]').isChecked()).toBe(true);
      expect(await page.getByTestId('fence-in-or-out').locator('input[value=LEAVE]').isChecked()).toBe(false);
      // saving without the schedule: the contract's sentences beside the fields, nothing stored
      await page.getByTestId('fence-save').click();
      await page.getByTestId('fence-form').locator('.ant-form-item-explain-error').first().waitFor();
      expect(await fenceNamed(label)).toBeUndefined();
      await fillSchedule(page);
      await animationsSettled(page);
      await screenshot(page, `fence-${tag}-form`);
      expect(await violations(page)).toEqual([]);
      await page.getByTestId('fence-save').click();

      // ---- listed with its area; the stored ring holds part of the route ----
      const item = page.locator(`[data-testid=fence-item][data-fence="${label}"]`);
      await item.waitFor({ timeout: 30_000 });
      const stored = await fenceNamed(label);
      expect(stored).toBeTruthy();
      expect(stored!.InOrOut).toBe('ENTER');
      expect(stored!.Devices.map((d) => d.IMEI)).toEqual([imei]);
      expect(stored!.Shape.Type).toBe('Polygon');
      const ring = stored!.Shape.Type === 'Polygon' ? (stored!.Shape.Coordinates as [number, number][]) : [];
      const within = route.filter((p) => inside(p, ring)).length;
      expect(within, 'fixes of the route inside the fence').toBeGreaterThan(0);
      expect(within, 'the fence holds only part of the route').toBeLessThan(route.length);
      const listed = (await item.getByTestId('fence-item-area').textContent()) ?? '';
      expect(listed).toMatch(unit);
      expect(listed).toBe(areaText.replace(t('fence.areaIs', { area: '' }), '').trim());
      await animationsSettled(page);
      await screenshot(page, `fence-${tag}-saved`);
      expect(await violations(page)).toEqual([]);

      // ---- a new fix inside: the server tests it (its rule's last side becomes inside); the fence opens with that rule ----
      const mid = route.find((p) => inside(p, ring))!;
      await new IngestClient(setup.server.baseUrl, { imei, secret: secrets.get(imei)! }).sendBatch({
        fixes: { t: [Date.now() - 30_000], lon: [mid[0]], lat: [mid[1]], voltage: [3.95], sats: [9], hdop: [1.1], grade: [1] },
      });
      await pollUntil(
        () => api.call(GetRuleListByType, { fenceId: stored!.IdStr, timeZone: '+08:00' }),
        (r) => r.List.some((rule) => rule.IMEI === imei && rule.Inside === true),
        30_000,
        (r) => `the rule did not become inside: ${JSON.stringify(r.List)}`,
      );
      await item.getByTestId('fence-item-open').click();
      const rules = page.getByTestId('fence-rules');
      await rules.waitFor();
      await expect.poll(() => rules.textContent()).toContain(t('fence.inside'));
      expect(await rules.textContent()).toContain(t('fence.sync.synchronized'));
      expect(await rules.textContent()).toContain(t('fence.ruleType.remote'));
      await rules.scrollIntoViewIfNeeded();
      await animationsSettled(page);
      await screenshot(page, `fence-${tag}-rules`);
      await page.getByTestId('fence-cancel').click();

      // ---- import a .shp (one polygon near the route's start) with a new fence's settings ----
      await page.getByTestId('fence-new').click();
      await page.getByTestId('fence-form').waitFor();
      await chooseDevice(page, `Stork ${tag}`);
      // a circle: its centre, then its edge; the area shows (a circle's is πr²)
      await page.getByTestId('fence-tool').getByText(t('fence.tool.circle'), { exact: true }).click();
      await expect.poll(() => map.getAttribute('data-fence-tool')).toBe('circle');
      const centre = at(0.5, 0.5);
      const edge = at(0.6, 0.5);
      await page.mouse.click(centre.x, centre.y);
      await page.mouse.move(edge.x, edge.y, { steps: 5 });
      await page.mouse.click(edge.x, edge.y);
      await expect.poll(() => map.getAttribute('data-fence-tool')).toBe('select');
      expect(await page.getByTestId('fence-area').textContent()).toMatch(unit);
      await animationsSettled(page);
      await screenshot(page, `fence-${tag}-circle`);
      await fillSchedule(page);
      await page.getByTestId('fence-import-open').click();
      const dialog = page.getByTestId('fence-import');
      await dialog.waitFor();
      const [x0, y0] = route[0]!;
      const good = join(dir, `wetland-${tag}.shp`);
      writeFileSync(good, polygonShp([[x0 - 0.01, y0 - 0.01], [x0 - 0.01, y0 + 0.01], [x0 + 0.01, y0 + 0.01], [x0 + 0.01, y0 - 0.01]]));
      const chooser = dialog.locator('input[type=file]');
      await chooser.setInputFiles(good);
      const imported = page.locator(`[data-testid=fence-item][data-fence="wetland-${tag} 1"]`);
      await imported.waitFor({ timeout: 60_000 });
      expect((await fenceNamed(`wetland-${tag} 1`))?.Shape.Type).toBe('Polygon');
      await screenshot(page, `fence-${tag}-imported`);

      // ---- a file that is no shapefile: refused with the reason, nothing stored ----
      const before = (await api.call(GetFenceList, { currentPage: 1, pageSize: 100, timeZone: '+08:00' })).Total;
      await page.getByTestId('fence-new').click();
      await chooseDevice(page, `Stork ${tag}`);
      await fillSchedule(page);
      await page.getByTestId('fence-import-open').click();
      await dialog.waitFor();
      const bad = join(dir, `broken-${tag}.shp`);
      writeFileSync(bad, Buffer.from('this is not a shapefile at all, just some text '.repeat(10)));
      await dialog.locator('input[type=file]').setInputFiles(bad);
      const failed = page.getByTestId('fence-import-failed');
      await failed.waitFor({ timeout: 60_000 });
      const said = (await failed.textContent()) ?? '';
      expect(said).toContain(t('fence.import.failed'));
      expect(said.length).toBeGreaterThan(t('fence.import.failed').length + 5);
      await animationsSettled(page);
      await screenshot(page, `fence-${tag}-import-failed`);
      expect((await api.call(GetFenceList, { currentPage: 1, pageSize: 100, timeZone: '+08:00' })).Total).toBe(before);

      // ---- not a .shp: refused before upload ----
      const text = join(dir, `notes-${tag}.txt`);
      writeFileSync(text, 'not a shapefile');
      await dialog.locator('input[type=file]').setInputFiles(text);
      await expect.poll(() => failed.textContent()).toContain(t('fence.import.onlyShp'));
    } catch (e) {
      await screenshot(page, `fence-${tag}-failure`).catch(() => undefined);
      throw e;
    } finally {
      await context.close();
    }
  });
});
