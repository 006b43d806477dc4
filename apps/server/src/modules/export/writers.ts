import type { Writable } from 'node:stream';
import { Bytes, type CellOut, CsvCells, emitCells, XlsxCells, xmlText } from './cells.js';
import { drained, type ZipEntryStream, ZipWriter } from './zip.js';

/** A file being written: batches of rows in, each row's cells written by `emit`, then end; memory bounded by one batch and the streams' buffers. */
export interface Sink {
  rows<R>(rows: readonly R[], emit: (row: R, o: CellOut) => void): Promise<void>;
  /** Ends the file (and `out`), resolving once everything is written. */
  end(): Promise<void>;
}

function finished(s: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    if (s.writableFinished) return resolve();
    s.once('finish', resolve);
    s.once('error', reject);
    s.once('close', () => (s.writableFinished ? resolve() : reject(new Error('the file stream closed before the export ended'))));
  });
}

/** Excel opens a UTF-8 CSV right only with the byte-order mark. */
const BOM = '\uFEFF';

/** Writes what `bytes` holds to `s`, a piece at a time, waiting while `s` is full. */
async function flush(s: Writable, bytes: Bytes): Promise<void> {
  for (const piece of bytes.take()) {
    if (s.destroyed) throw new Error('the file stream closed before the export ended');
    if (!s.write(piece)) await drained(s);
  }
}

/** CSV, CRLF lines; `bom` for spreadsheets (Movebank's files go without); times in `zone`. */
export function csvSink(out: Writable, headers: readonly string[], bom = true, zone = '+00:00'): Sink {
  const bytes = new Bytes(zone);
  const cells = new CsvCells(bytes);
  let started = false;
  const start = () => {
    started = true;
    if (bom) bytes.text(BOM);
    emitCells(headers, cells);
  };
  return {
    async rows(rows, emit) {
      if (!started) start();
      for (const row of rows) emit(row, cells);
      await flush(out, bytes);
    },
    async end() {
      if (!started) start();
      await flush(out, bytes);
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

/**
 * XLSX written as it goes (the format's parts zipped by ZipWriter, the worksheet deflated while its rows are
 * made): text as inline strings (no shared-string table held in memory), numbers as numbers, times as the
 * text the CSV writes. The header row is frozen in each sheet; past XLSX_SHEET_ROWS rows a new sheet
 * begins with the header again.
 */
export function xlsxSink(out: Writable, headers: readonly string[], sheetName: string, zone = '+00:00'): Sink {
  const zip = new ZipWriter(out);
  const name = sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 28) || 'Sheet';
  const bytes = new Bytes(zone);
  const cells = new XlsxCells(bytes);
  let sheets = 0;
  let sheet: ZipEntryStream | undefined;
  let rowInSheet = 0;

  const openSheet = async () => {
    sheets += 1;
    // Level 1: most of the size saved (the sheet is repetitive XML) for a fraction of level 6's time.
    sheet = await zip.stream(`xl/worksheets/sheet${sheets}.xml`, 1);
    bytes.text(
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
        '<sheetData>',
    );
    rowInSheet = 1;
    cells.row(1);
    emitCells(headers, cells);
  };
  const closeSheet = async () => {
    bytes.text('</sheetData></worksheet>');
    await sheet!.write(bytes.take());
    await sheet!.end();
  };

  return {
    async rows(rows, emit) {
      if (!sheet) await openSheet();
      for (const row of rows) {
        if (rowInSheet >= XLSX_SHEET_ROWS) {
          await closeSheet();
          await openSheet();
        }
        rowInSheet += 1;
        cells.row(rowInSheet);
        emit(row, cells);
      }
      await sheet!.write(bytes.take());
    },
    async end() {
      if (!sheet) await openSheet();
      await closeSheet();
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
      for (const [path, xml] of parts) await zip.addBuffer(path, Buffer.from(xml));
      await zip.finish();
      await finished(out);
    },
  };
}
