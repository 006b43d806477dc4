import { readFileSync } from 'node:fs';
import { sampleFleet } from '@wildtrack/sample-fleet';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsSettled, bounded, catalogue, lookup, newContext, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * /media (issue 13 item 4) in both languages, with no network beyond the local server: the sample field
 * phone's photos as server-made thumbnails, the viewer (time, small map, arrow keys, Escape), the deer
 * collar's video played in the page, a PDM recording converted and played with its waveform and
 * spectrogram drawn, and a batch WAV download.
 */

const setup = serverAndBrowser();
const phone = sampleFleet().find((d) => d.profile.id === 'phone')!;
const deer = sampleFleet().find((d) => d.profile.id === 'deer')!;

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', texts: catalogue('zh-CN.json') },
  { locale: 'en-US' as const, tag: 'en', texts: catalogue('en-US.json') },
];

const evaluate = <T>(page: Page, fn: string, what: string): Promise<T> => bounded(page.evaluate(fn) as Promise<T>, 10_000, what);

describe.each(cases)('media ($tag)', ({ locale, tag, texts }) => {
  const t = (key: string, vars?: Record<string, string | number>) => lookup(texts, key, vars);

  it('shows thumbnails and the viewer, plays a video, converts a PDM recording and plays it, downloads a zip', { timeout: 300_000 }, async () => {
    // only the local server answers: every other host fails, as on a field laptop without a network
    const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, setup.server.admin);
      await page.waitForURL(`${setup.server.baseUrl}/device`, { timeout: 90_000 });

      // ---- the menu leads here; the devices and range come in the link ----
      await page.goto(`${setup.server.baseUrl}/media?devices=${phone.imei},${deer.imei}&span=30`);
      const screen = page.getByTestId('media-page');
      await screen.waitFor({ timeout: 60_000 });
      await expect.poll(() => page.title()).toContain(t('route.media'));
      const kinds = page.getByTestId('media-kinds');
      for (const k of ['image', 'video', 'audio']) await kinds.getByText(t(`media.kind.${k}`), { exact: true }).waitFor();

      // ---- images: thumbnails made by the server, loaded through the session cookie ----
      const thumbs = page.getByTestId('media-thumb');
      await thumbs.first().waitFor({ timeout: 60_000 });
      expect(await thumbs.count()).toBe(20);
      const thumb = thumbs.first().locator('img');
      await expect.poll(() => bounded(thumb.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth), 10_000, 'thumb'), { timeout: 20_000 }).toBeGreaterThan(0);
      const total = Number(await page.getByTestId('media-images').getAttribute('data-total'));
      expect(total).toBeGreaterThan(20);
      await animationsSettled(page);
      await screenshot(page, `media-${tag}-grid`);

      // ---- the viewer: the first (newest) image, its time and map; arrows step, Escape closes ----
      const firstTime = (await thumbs.first().locator('.wt-media-thumb-time').textContent())!;
      const secondTime = (await thumbs.nth(1).locator('.wt-media-thumb-time').textContent())!;
      await thumbs.first().click();
      const viewer = page.getByTestId('media-viewer-body');
      await viewer.waitFor();
      expect(await viewer.getAttribute('data-time')).toBe(firstTime);
      expect(await viewer.textContent()).toContain(firstTime);
      const image = page.getByTestId('media-viewer-image');
      await expect.poll(() => bounded(image.evaluate((img) => (img as HTMLImageElement).naturalWidth), 10_000, 'image'), { timeout: 20_000 }).toBeGreaterThan(0);
      // The map is drawn with its point once the detailed coast has come (the offline basemap, no network).
      await page.getByTestId('media-viewer-map').locator('[data-testid="map"][data-state="ready"][data-coast="10m"][data-moving="0"]').waitFor({ timeout: 30_000 });
      await animationsSettled(page);
      await screenshot(page, `media-${tag}-viewer`);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => viewer.getAttribute('data-time'), { timeout: 10_000 }).toBe(secondTime);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => viewer.getAttribute('data-time'), { timeout: 10_000 }).toBe(firstTime);
      await page.keyboard.press('Escape');
      await viewer.waitFor({ state: 'detached', timeout: 10_000 });

      // ---- video: the deer collar's clip plays in the page ----
      await kinds.getByText(t('media.kind.video'), { exact: true }).click();
      const play = page.getByTestId('media-video-play');
      await play.first().waitFor({ timeout: 30_000 });
      await play.first().click();
      const video = page.getByTestId('media-video');
      await video.waitFor();
      await expect
        .poll(() => bounded(video.evaluate((v) => ({ error: (v as HTMLVideoElement).error?.code ?? 0, playing: (v as HTMLVideoElement).currentTime > 0 })), 10_000, 'video'), { timeout: 30_000 })
        .toEqual({ error: 0, playing: true });
      await screenshot(page, `media-${tag}-video`);

      // ---- audio: a PDM recording converted on the server, then played, its pictures drawn ----
      await kinds.getByText(t('media.kind.audio'), { exact: true }).click();
      const convert = page.getByTestId('media-audio-convert');
      await convert.first().waitFor({ timeout: 30_000 });
      expect(await convert.first().textContent()).toContain(t('media.convert'));
      await convert.first().click();
      const player = page.getByTestId('media-audio-element');
      await player.waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('media-audio-player').getAttribute('data-url')).toMatch(/\/audio-\d+\.wav$/);
      await expect
        .poll(() => bounded(player.evaluate((a) => ({ error: (a as HTMLAudioElement).error?.code ?? 0, ready: (a as HTMLAudioElement).readyState >= 1, duration: Math.round((a as HTMLAudioElement).duration * 10) / 10 })), 10_000, 'audio'), { timeout: 30_000 })
        .toEqual({ error: 0, ready: true, duration: 0.8 });
      await page.getByTestId('media-wave').and(page.locator('[data-state="drawn"]')).waitFor({ timeout: 30_000 });
      // The spectrogram is not blank: a bird call's bins are bright somewhere.
      const lit = await evaluate<number>(
        page,
        `(() => { const c = document.querySelector('[data-testid="media-spectrogram"]'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i + 1] > 180) n++; return n; })()`,
        'spectrogram',
      );
      expect(lit).toBeGreaterThan(50);
      // Converted once: the row now plays, and the list says so.
      await page.getByTestId('media-audio-play').first().waitFor({ timeout: 30_000 });
      await animationsSettled(page);
      await screenshot(page, `media-${tag}-audio`);

      // ---- batch: two recordings as a zip of WAVs ----
      const batch = page.getByTestId('media-audio-batch');
      // The rows come below the sticky header first (a row at the top edge lies under it for the pointer).
      await batch.scrollIntoViewIfNeeded();
      const rows = page.getByTestId('media-audio').locator('tbody tr.ant-table-row');
      for (const i of [0, 1]) {
        await rows.nth(i).locator('td.ant-table-selection-column .ant-checkbox').click();
        await expect.poll(() => rows.nth(i).locator('input[type="checkbox"]').isChecked(), { timeout: 10_000 }).toBe(true);
      }
      expect(await rows.nth(2).locator('input[type="checkbox"]').isChecked()).toBe(false);
      expect(await batch.textContent()).toBe(t('media.downloadWav_other', { count: 2 }));
      const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), batch.click()]);
      expect(file.suggestedFilename()).toBe(`audio-wav(${phone.imei}).zip`);
      const path = await file.path();
      const zip = readFileSync(path);
      expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
      expect((zip.toString('latin1').match(/\.wav/g) ?? []).length).toBe(4); // two entries, each named twice (local header, directory)
    } catch (e) {
      await screenshot(page, `debug-media-${tag}`);
      throw e;
    } finally {
      await context.close();
    }
  });
});
