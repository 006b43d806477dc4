import { PassThrough, type Writable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Cell } from './tables.js';

/** A file being written: batches of rows in, then end; memory bounded by one batch and the streams' buffers. */
export interface Sink {
  rows(rows: readonly Cell[][]): Promise<void>;
  /** Ends the file (and `out`), resolving once everything is written. */
  end(): Promise<void>;
}

/** Waits until `s` takes more, or fails if it closes or errs first (the reader went away). */
function drained(s: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      s.off('drain', onDrain);
      s.off('close', onClose);
      s.off('error', onError);
    };
    const onDrain = () => {
      cleanup();
      resolve();
    };
    const onClose = () => {
      cleanup();
      reject(new Error('the file stream closed before the export ended'));
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    s.on('drain', onDrain);
    s.on('close', onClose);
    s.on('error', onError);
  });
}

async function write(s: Writable, chunk: string): Promise<void> {
  if (s.destroyed) throw new Error('the file stream closed before the export ended');
  if (!s.write(chunk)) await drained(s);
}

function finished(s: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (s.writableFinished) return resolve();
    s.once('finish', resolve);
    s.once('error', reject);
    s.once('close', () => (s.writableFinished ? resolve() : reject(new Error('the file stream closed before the export ended'))));
  });
}

/** A CSV field: quoted when it holds a comma, quote or line break (RFC 4180). */
export function csvField(v: Cell): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export const csvLine = (row: readonly Cell[]): string => {
  let line = '';
  for (let i = 0; i < row.length; i++) {
    const v = row[i];
    if (i > 0) line += ',';
    // Numbers inline (most cells): csvField per cell was a tenth of the CSV's time.
    if (typeof v === 'number') {
      if (Number.isFinite(v)) line += v;
    } else if (v !== null && v !== undefined) line += csvField(v);
  }
  return `${line}\r\n`;
};

/** Excel opens a UTF-8 CSV right only with the byte-order mark. */
const BOM = '\uFEFF';

/** CSV, CRLF lines; `bom` for spreadsheets (Movebank's files go without). */
export function csvSink(out: Writable, headers: readonly string[], bom = true): Sink {
  let started = false;
  return {
    async rows(rows) {
      let chunk = started ? '' : `${bom ? BOM : ''}${csvLine(headers)}`;
      started = true;
      for (const r of rows) chunk += csvLine(r);
      await write(out, chunk);
    },
    async end() {
      if (!started) await write(out, `${bom ? BOM : ''}${csvLine(headers)}`);
      out.end();
      await finished(out);
    },
  };
}

/** The most rows a worksheet holds (Excel 2007+); a longer export continues on the next sheet. */
export const XLSX_SHEET_ROWS = 1_048_576;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

// XML 1.0 refuses control characters other than tab, LF and CR.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// eslint-disable-next-line no-control-regex
const XML_SPECIAL = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
/** Text as XML: most cells (times, letters) have nothing to escape and are returned after one test, not five passes. */
const xmlText = (s: string) =>
  XML_SPECIAL.test(s) ? s.replace(XML_INVALID, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;') : s;

function columnName(i: number): string {
  let name = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * XLSX written as it goes (the format's parts zipped by yazl, the worksheet deflated while its rows are
 * made): text as inline strings (no shared-string table held in memory), numbers as numbers, times as the
 * text the CSV writes. The header row is frozen in each sheet; past XLSX_SHEET_ROWS rows a new sheet
 * begins with the header again.
 */
export function xlsxSink(out: Writable, headers: readonly string[], sheetName: string): Sink {
  const zip = new ZipFile();
  zip.outputStream.pipe(out);
  const columns = headers.map((_, i) => columnName(i));
  const name = sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 28) || 'Sheet';
  let sheets = 0;
  let sheet: PassThrough | undefined;
  let rowInSheet = 0;

  const rowXml = (r: number, row: readonly Cell[]): string => {
    let xml = `<row r="${r}">`;
    for (let i = 0; i < row.length; i++) {
      const v = row[i];
      if (v === null || v === undefined) continue;
      const ref = `${columns[i] ?? columnName(i)}${r}`;
      if (typeof v === 'number') {
        if (Number.isFinite(v)) xml += `<c r="${ref}"><v>${v}</v></c>`;
      } else xml += `<c r="${ref}" t="inlineStr"><is><t>${xmlText(v)}</t></is></c>`;
    }
    return `${xml}</row>`;
  };

  const openSheet = (): string => {
    sheets += 1;
    sheet = new PassThrough({ highWaterMark: 1 << 20 });
    // Level 1: most of the size saved (the sheet is repetitive XML) for a fraction of level 6's time.
    zip.addReadStream(sheet, `xl/worksheets/sheet${sheets}.xml`, { compressionLevel: 1 });
    rowInSheet = 1;
    return (
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
      '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
      `<sheetData>${rowXml(1, headers)}`
    );
  };
  const closeSheet = () => sheet!.end('</sheetData></worksheet>');

  return {
    async rows(rows) {
      let chunk = sheet ? '' : openSheet();
      for (const row of rows) {
        if (rowInSheet >= XLSX_SHEET_ROWS) {
          await write(sheet!, chunk);
          closeSheet();
          chunk = openSheet();
        }
        rowInSheet += 1;
        chunk += rowXml(rowInSheet, row);
      }
      await write(sheet!, chunk);
    },
    async end() {
      if (!sheet) {
        const head = openSheet();
        await write(sheet!, head);
      }
      closeSheet();
      const names = Array.from({ length: sheets }, (_, i) => (sheets === 1 ? name : `${name} ${i + 1}`));
      const parts: [string, string][] = [
        [
          '[Content_Types].xml',
          `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${names.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}</Types>`,
        ],
        ['_rels/.rels', `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
        [
          'xl/workbook.xml',
          `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${names.map((n, i) => `<sheet name="${xmlText(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
        ],
        [
          'xl/_rels/workbook.xml.rels',
          `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">${names.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}</Relationships>`,
        ],
      ];
      for (const [path, xml] of parts) zip.addBuffer(Buffer.from(xml), path);
      zip.end();
      await finished(out);
    },
  };
}
