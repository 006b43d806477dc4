import type { Writable } from 'node:stream';
import { Bytes, type CellOut, CsvCells, emitCells, XLSX_DATE_FORMATS, XlsxCells, xmlText } from './cells.js';
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

/** The styles part: cellXfs 0 the default, 1 and 2 the date cells' formats (XLSX_DATE_FORMATS). */
const STYLES_XML =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  `<numFmts count="2">${XLSX_DATE_FORMATS.map((f, i) => `<numFmt numFmtId="${164 + i}" formatCode="${f}"/>`).join('')}</numFmts>` +
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  `<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>${XLSX_DATE_FORMATS.map((_, i) => `<xf numFmtId="${164 + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`).join('')}</cellXfs>` +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

/**
 * XLSX written as it goes (the format's parts zipped by ZipWriter, the worksheet deflated while its rows are
 * made): text as inline strings (no shared-string table held in memory), numbers as numbers, times as date
 * cells in `zone`'s local time (columns `timeColumns` made wide enough to show them). The header row is
 * frozen in each sheet; past XLSX_SHEET_ROWS rows a new sheet begins with the header again.
 */
export function xlsxSink(out: Writable, headers: readonly string[], sheetName: string, zone = '+00:00', timeColumns: readonly number[] = []): Sink {
  const zip = new ZipWriter(out);
  const name = sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 28) || 'Sheet';
  const bytes = new Bytes(zone);
  const cells = new XlsxCells(bytes);
  let sheets = 0;
  let sheet: ZipEntryStream | undefined;
  let rowInSheet = 0;
  // A date cell narrower than its text shows as ####: the time columns are as wide as 'YYYY-MM-DD HH:mm:ss.SSS'.
  const cols = timeColumns.length ? `<cols>${timeColumns.map((c) => `<col min="${c + 1}" max="${c + 1}" width="24" customWidth="1"/>`).join('')}</cols>` : '';

  const openSheet = async () => {
    sheets += 1;
    // Level 1: most of the size saved (the sheet is repetitive XML) for a fraction of level 6's time.
    sheet = await zip.stream(`xl/worksheets/sheet${sheets}.xml`, 1);
    bytes.text(
      `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
        '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
        `${cols}<sheetData>`,
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
          `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${names.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}</Types>`,
        ],
        ['_rels/.rels', `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`],
        [
          'xl/workbook.xml',
          `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${names.map((n, i) => `<sheet name="${xmlText(n)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
        ],
        [
          'xl/_rels/workbook.xml.rels',
          `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">${names.map((_, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('')}<Relationship Id="rId${sheets + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
        ],
        ['xl/styles.xml', STYLES_XML],
      ];
      for (const [path, xml] of parts) await zip.addBuffer(path, Buffer.from(xml));
      await zip.finish();
      await finished(out);
    },
  };
}
