import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { newContext, screenshot, serverAndBrowser, signIn } from './harness';
import { measureStep, observeLongTasks, pixelsOfColour, type StepFigures } from './perf';

/**
 * A 1,000,000-point track on the 2D map (issue 5 budget: drawing it leaves no main-thread task over
 * 200 ms). The track is fetched as protobuf, decoded in a worker and drawn by deck.gl from its typed
 * arrays. Machines are noisy (CI shares two cores), so the spec prints the longest task of each step and
 * asserts a ceiling on CPU time only (below); the wall figures mean something when the spec runs alone:
 * npm run test -w @wildtrack/e2e -- map2d-performance
 */

const POINTS = 1_000_000;
/**
 * The issue's budget for a main-thread task while the track is drawn and replayed, ms. The spec fails at
 * three times it, on the CPU time of the busiest task (the wall time also counts waiting for a core on
 * a shared machine): a step change fails, a busy machine does not.
 */
const BUDGET_MS = 200;
const CEILING_MS = 3 * BUDGET_MS;
/** Replay frames played in the replay step (about two seconds on a quiet machine). */
const REPLAY_FRAMES = 60;
const STEP_MS = 60_000;
const IMEI = '869000000000001';
const account = { account: 'flyway1', password: 'Flyway12345' };

/** A bird's wandering, a fix a minute up to now, written straight into the server's SQLite file. */
function seed(file: string): void {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    const device = db.prepare('SELECT id FROM devices WHERE imei = ?').get(IMEI) as { id: number };
    const insert = db.prepare(
      `INSERT INTO fixes (device_id, pick_time, lon, lat, alt, speed, grade, valid, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)`,
    );
    let s = 12345;
    const rnd = (): number => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return s / 4294967296;
    };
    const end = Math.floor(Date.now() / STEP_MS) * STEP_MS - STEP_MS;
    const start = end - (POINTS - 1) * STEP_MS;
    let lon = 118;
    let lat = 34;
    let heading = 0;
    db.transaction(() => {
      for (let i = 0; i < POINTS; i++) {
        heading += (rnd() - 0.5) * 0.6;
        const d = rnd() < 0.1 ? 0.004 : 0.0002;
        lon = Math.min(135, Math.max(100, lon + Math.sin(heading) * d));
        lat = Math.min(50, Math.max(20, lat + Math.cos(heading) * d));
        const t = start + i * STEP_MS;
        insert.run(device.id, t, +lon.toFixed(6), +lat.toFixed(6), 20 + rnd() * 100, rnd() * 40, 1 + Math.floor(rnd() * 6), t);
      }
    })();
  } finally {
    db.close();
  }
}

const setup = serverAndBrowser();

beforeAll(async () => {
  await setup.server.createUser({ org: 'Flyway Study', name: account.account, password: account.password, email: 'flyway@example.org' });
  await setup.server.cli('register-device', '--org', 'Flyway Study', '--imei', IMEI, '--caption', 'Stork 1M', '--sensors', 'GNSS', '--species', 'bird');
  seed(setup.server.databaseFile);
}, 300_000);

describe('2D map performance', () => {
  it('draws and replays a 1,000,000-point track', async () => {
    // only the local server answers: every other host fails, as on a field laptop without a network
    const context = await newContext(setup.browser, 'en-US', { offline: setup.server.baseUrl });
    await observeLongTasks(context);
    await context.addInitScript(() => {
      // The offline basemap from the start: no tile requests to wait for.
      localStorage.setItem('wildtrack_base_layer', 'offline');
    });
    const page = await context.newPage();
    context.setDefaultTimeout(120_000);
    const report: string[] = [];
    const map = page.getByTestId('map');
    try {
      await signIn(page, setup.server.baseUrl, account);
      await page.waitForURL(`${setup.server.baseUrl}/device`);
      await page.goto(`${setup.server.baseUrl}/map2d`);
      await map.and(page.locator('[data-state="ready"]')).waitFor();
      const span = async (label: string) => {
        await page.getByTestId('time-span').click();
        await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: new RegExp(`^${label}$`) }).click();
      };
      const drawn = (count: number, timeout = 120_000) =>
        page.waitForFunction((expected) => document.querySelector('[data-testid="map"]')?.getAttribute('data-tracks') === expected, `${IMEI}:${count}`, { timeout });
      const picker = page.getByTestId('device-picker');
      // An option clicked while the dropdown is still opening can choose nothing (seen with both cores
      // busy): the device is chosen when the picker shows its tag, else it is picked again.
      const choose = async () => {
        for (let attempt = 1; ; attempt++) {
          await picker.click();
          await picker.locator('input').fill(IMEI);
          await page.getByTestId('device-picker-tree').getByTestId(`tree-device-${IMEI}`).click();
          await page.keyboard.press('Escape');
          try {
            await picker.locator('.ant-select-selection-item').filter({ hasText: 'Stork 1M' }).waitFor({ timeout: 10_000 });
            return;
          } catch (e) {
            if (attempt >= 3) throw e;
          }
        }
      };
      // The fixes were written straight into the database, so the server has no day segments yet: a
      // first look over three years builds them (the server's own work, seconds of CPU on the same two
      // cores), then the device is put aside and the measured step asks for two years afresh.
      await span('3 years');
      await choose();
      // Not measured: a minute or more when both cores are busy with other work.
      await drawn(POINTS, 300_000);
      await picker.locator('.ant-select-selection-item-remove').first().click();
      await page.waitForFunction(() => !document.querySelector('[data-testid="map"]')?.getAttribute('data-tracks'));
      // Two years: the track spans 694 days.
      await span('2 years');

      const longest: StepFigures[] = [];
      longest.push(
        await measureStep(setup.browser, page, 'choose the device: fetch, decode, draw', async () => {
          await choose();
          await drawn(POINTS);
        }, report),
      );
      await screenshot(page, 'map2d-performance-1m');
      // Drawn, not only loaded: the map shows the track in the first device colour (far more pixels
      // than the last-position marker's ~100).
      expect(await pixelsOfColour(page, '[data-testid="map"]', [22, 119, 255])).toBeGreaterThan(2000);

      longest.push(
        await measureStep(setup.browser, page, 'dots coloured by precision grade', async () => {
          await page.getByText('By grade', { exact: true }).click();
          // chosen; the recolouring and its frames are what the step then waits out (main thread quiet)
          await page.locator('.ant-segmented-item-selected').filter({ hasText: 'By grade' }).waitFor();
        }, report),
      );

      longest.push(
        await measureStep(setup.browser, page, 'replay: seek to the middle', async () => {
          const rail = page.getByTestId('replay').locator('.ant-slider');
          const box = (await rail.boundingBox())!;
          await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
          await page.waitForFunction(() => document.querySelector('[data-testid="replay"]')?.getAttribute('data-time') !== '');
        }, report),
      );

      // The replay's clock shows on its element (data-time): counted from here, each change a frame.
      await page.evaluate(() => {
        const w = window as unknown as { __replayFrames: number };
        w.__replayFrames = 0;
        const el = document.querySelector('[data-testid="replay"]')!;
        new MutationObserver(() => w.__replayFrames++).observe(el, { attributes: true, attributeFilter: ['data-time'] });
      });
      longest.push(
        await measureStep(setup.browser, page, `replay: play ${REPLAY_FRAMES} frames at 4x`, async () => {
          await page.getByTestId('replay').getByRole('combobox').click();
          await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: '4×' }).click();
          await page.getByRole('button', { name: 'Play' }).click();
          // Played for as many frames as about two seconds give on a quiet machine, or to the end.
          await page.waitForFunction(
            (frames) =>
            {
              const played = (window as unknown as { __replayFrames: number }).__replayFrames;
              return played >= frames || (played > 0 && document.querySelector('[data-testid="replay"]')?.getAttribute('data-playing') === '0');
            },
            REPLAY_FRAMES,
          );
          // Paused here unless the replay reached the end already (a slow machine plays few frames).
          if ((await page.getByTestId('replay').getAttribute('data-playing')) === '1') await page.getByTestId('replay').getByRole('button').first().click();
        }, report),
      );
      await screenshot(page, 'map2d-performance-1m-replay');

      const row = page.locator(`[data-testid="map2d-legend"] .wt-map-legend-row[data-imei="${IMEI}"]`);
      expect(Number(await row.getAttribute('data-count'))).toBe(POINTS);
      expect(Number(await row.getAttribute('data-index'))).toBeGreaterThan(POINTS / 2);

      const worst = Math.max(...longest.map((l) => l.wall));
      const busiest = Math.max(...longest.map((l) => l.cpu));
      report.push(`longest main-thread task: ${worst ? `${Math.round(worst)} ms` : 'none over 50 ms'}; busiest ${Math.round(busiest)} ms CPU (budget ${BUDGET_MS} ms, fails over ${CEILING_MS})`);
      console.log(`\n2D map, one ${POINTS.toLocaleString('en-US')}-point track (Chromium, long tasks ≥ 50 ms; CPU time from a trace):\n  ${report.join('\n  ')}\n`);
      // The trace saw the page's work (a broken trace reads 0 and would pass any ceiling).
      expect(busiest).toBeGreaterThan(0);
      expect(busiest).toBeLessThan(CEILING_MS);
    } catch (e) {
      await screenshot(page, 'debug-map2d-performance');
      throw e;
    } finally {
      await context.close();
    }
  }, 600_000);
});
