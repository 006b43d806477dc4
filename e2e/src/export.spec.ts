import fs from 'node:fs';
import zlib from 'node:zlib';
import { sampleFleet } from '@wildtrack/sample-fleet';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsSettled, catalogue, lookup, newContext, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * Exports (issue 16 items 1-2), in both languages with the sample devices: the stork's positions on /track
 * exported as CSV and as XLSX through the Export button (the choice, the confirmation, the file saved under
 * the server's name); the files are opened here and their headers and rows checked.
 */

const setup = serverAndBrowser();
const stork = sampleFleet().find((d) => d.profile.id === 'stork')!;

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', texts: catalogue('zh-CN.json'), headers: ['IMEI', '定位时间 (UTC+08:00)', '经度', '纬度'], kind: '定位' },
  { locale: 'en-US' as const, tag: 'en', texts: catalogue('en-US.json'), headers: ['IMEI', 'PickTime (UTC+08:00)', 'Longitude', 'Latitude'], kind: 'positions' },
];

/** A zip's entries (an .xlsx is one): read from its central directory, stored or deflated. */
function zipEntries(zip: Buffer): Map<string, Buffer> {
  let eocd = zip.length - 22;
  while (eocd >= 0 && zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new Error('not a zip');
  const out = new Map<string, Buffer>();
  let p = zip.readUInt32LE(eocd + 16);
  for (let i = zip.readUInt16LE(eocd + 10); i > 0; i--) {
    const [method, size, nameLen, extraLen, commentLen, local] = [zip.readUInt16LE(p + 10), zip.readUInt32LE(p + 20), zip.readUInt16LE(p + 28), zip.readUInt16LE(p + 30), zip.readUInt16LE(p + 32), zip.readUInt32LE(p + 42)];
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const at = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    out.set(name, method === 8 ? zlib.inflateRawSync(zip.subarray(at, at + size)) : zip.subarray(at, at + size));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** A date cell's number (days since 1899-12-30, the file's local time) as the CSV writes that time ('.SSS' in style 2). */
function dateText(serial: string, style: string): string {
  const ms = Math.round((Number(serial) - 25569) * 86_400_000);
  const text = new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
  return style === '2' ? `${text}.${String(ms % 1000).padStart(3, '0')}` : text;
}

/** The rows of the first sheet, each cell's text (inline strings, numbers, and date cells as dateText). */
function sheetRows(xlsx: Buffer): string[][] {
  const xml = zipEntries(xlsx).get('xl/worksheets/sheet1.xml')!.toString('utf8');
  return [...xml.matchAll(/<row r="\d+">(.*?)<\/row>/g)].map(([, cells]) =>
    [...cells!.matchAll(/<c [^>]*?(?: s="(\d+)")?>(?:<is><t>(.*?)<\/t><\/is>|<v>(.*?)<\/v>)<\/c>/g)].map((m) => (m[1] && m[3] !== undefined ? dateText(m[3], m[1]) : (m[2] ?? m[3] ?? ''))),
  );
}

async function exportAs(page: Page, type: 'csv' | 'xls', t: (key: string, vars?: Record<string, string | number>) => string, shot: string): Promise<{ download: Download; bytes: Buffer }> {
  await page.getByTestId('export-button-fix').click();
  await page.getByTestId(`export-${type}`).click();
  const dialog = page.getByTestId('export-confirm');
  await dialog.waitFor();
  if (type === 'xls') expect(await dialog.textContent()).toContain(t('export.xlsxNote'));
  await animationsSettled(page);
  await screenshot(page, shot);
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId('export-ok').click()]);
  // the export's message (shown 3000 ms) says the file was saved
  await page.locator('.ant-message').getByText(t('export.done', { file: download.suggestedFilename() })).waitFor({ timeout: 60_000 });
  await page.locator('.ant-modal-confirm').waitFor({ state: 'detached', timeout: 30_000 });
  const path = await download.path();
  return { download, bytes: fs.readFileSync(path) };
}

describe.each(cases)('exports ($tag)', ({ locale, tag, texts, headers, kind }) => {
  const t = (key: string, vars?: Record<string, string | number>) => lookup(texts, key, vars);

  it("exports the stork's positions as CSV and XLSX with the headers of the language and the same rows", async () => {
    const context = await newContext(setup.browser, locale);
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, setup.server.admin);
      await page.waitForURL(`${setup.server.baseUrl}/device`, { timeout: 90_000 });
      // three days, not one: a span is whole days in the browser's zone (Asia/Shanghai), so "the last day" just
      // after midnight there (16:00 UTC, CI of 466364f) held the stork's first fix of the day or none
      await page.goto(`${setup.server.baseUrl}/track?device=${stork.imei}&span=3`);
      await page.locator(`[data-testid="track-page"][data-imei="${stork.imei}"]`).waitFor({ timeout: 60_000 });
      await page.getByTestId('export-button-fix').waitFor();

      const csv = await exportAs(page, 'csv', t, `export-confirm-csv-${tag}`);
      expect(csv.download.suggestedFilename()).toMatch(new RegExp(`-${kind}-CSV\\(${stork.imei}\\)\\.csv$`));
      const lines = csv.bytes.toString('utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
      expect(lines[0]!.split(',').slice(0, 4)).toEqual(headers);
      expect(lines.length).toBeGreaterThan(10);
      for (const line of lines.slice(1)) expect(line.startsWith(`${stork.imei},`)).toBe(true);

      const xlsx = await exportAs(page, 'xls', t, `export-confirm-xls-${tag}`);
      expect(xlsx.download.suggestedFilename()).toMatch(new RegExp(`-${kind}-XLS\\(${stork.imei}\\)\\.xlsx$`));
      const rows = sheetRows(xlsx.bytes);
      expect(rows[0]!.slice(0, 4)).toEqual(headers);
      // the same fixes as the CSV (the stork's live fixes may have added some in between)
      expect(rows.length).toBeGreaterThanOrEqual(lines.length);
      // the time a date cell (issue 28 item 3), the same time as the CSV's text
      expect(rows[1]!.slice(0, 2)).toEqual(lines[1]!.split(',').slice(0, 2));
      expect(zipEntries(xlsx.bytes).get('xl/worksheets/sheet1.xml')!.toString('utf8')).toMatch(/<c r="B2" s="[12]"><v>\d+\.?\d*<\/v><\/c>/);
      await screenshot(page, `export-done-${tag}`);
    } finally {
      await context.close();
    }
  });
});
