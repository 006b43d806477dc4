import { formatTime, parseOffset } from '@wildtrack/contract';

/**
 * Where a table's cells go, one row after another: the CSV and XLSX writers encode them straight into
 * bytes (cells.ts), ExcelJS's rows are collected as arrays (RowCollector). A `null` is an empty cell.
 * Rows are emitted by a table's `emit` without an array of cells in between: bench/export measured the
 * arrays, the cells' strings joined into lines and V8's number-to-text as two thirds of a CSV's time.
 */
export interface CellOut {
  text(v: string | null): void;
  num(v: number | null): void;
  /**
   * A time (epoch ms) in the file's zone: 'YYYY-MM-DD HH:mm:ss' in text, with '.SSS' when the time has
   * milliseconds (or always, `withMs`: acceleration samples, a column of them); a date cell in XLSX.
   */
  time(ms: number | null, withMs?: boolean): void;
  /** Ends the row. */
  end(): void;
}

/** What a spreadsheet reads as the start of a formula (=, +, -, @) or strips before one (tab, CR). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain number written as text ("-12.5", "+3", "1e-5"): read as a number, never a formula; kept. */
const PLAIN_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A text cell as every export file writes it (CSV, XLSX, Movebank CSV, the acceleration CSV, the
 * download tasks' files): text that a spreadsheet would take for a formula — a caption or an imported
 * identifier starting with =, +, -, @, tab or CR — gets a leading apostrophe (OWASP's CSV injection
 * advice), so "=HYPERLINK(…)" arrives as the text "'=HYPERLINK(…)". Numbers are cells of their own
 * (`num`) and stay numbers; a plain number written as text is left as it is. The one place every
 * writer's `text` goes through (issue 26 L5).
 */
export function neutralise(v: string): string {
  return FORMULA_START.test(v) && !PLAIN_NUMBER.test(v) ? `'${v}` : v;
}

/** A time cell of a row of cells: the instant, written as each file writes times (`CellOut.time`). */
export interface TimeCell {
  at: number;
  withMs?: boolean;
}

/** A cell: text, a number, a time, or nothing (an empty cell). */
export type Cell = string | number | TimeCell | null;

/** A row of ready cells into `o`. */
export function emitCells(row: readonly Cell[], o: CellOut): void {
  for (let i = 0; i < row.length; i++) {
    const v = row[i];
    if (typeof v === 'number') o.num(v);
    else if (v !== null && typeof v === 'object') o.time(v.at, v.withMs);
    else o.text(v ?? null);
  }
  o.end();
}

/** A time as the text files write it: formatTime in the zone, with '.SSS' when it has milliseconds or `withMs`. */
export function timeText(ms: number, zone: string, withMs = false): string {
  const frac = ((ms % 1000) + 1000) % 1000;
  return frac === 0 && !withMs ? formatTime(ms, zone) : `${formatTime(ms, zone)}.${String(frac).padStart(3, '0')}`;
}

/**
 * How a header names the zone of its column's times, 'PickTime (UTC+08:00)' (issue 28 item 3): every
 * export and archive file says what its times are, in one header line a CSV reader (R, pandas) takes as is.
 */
export const zonedHeader = (header: string, zone: string) => `${header} (UTC${zone})`;

/** Excel's day 0 (1899-12-30) to 1970-01-01, in days: a date cell's number is days since then, in local time. */
const EXCEL_EPOCH_DAYS = 25_569;

const CHUNK = 1 << 18;
const DAY_MS = 86_400_000;
/** '00'…'99' as byte pairs. */
const DIGITS2 = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  DIGITS2[2 * i] = 48 + Math.floor(i / 10);
  DIGITS2[2 * i + 1] = 48 + (i % 10);
}

/**
 * Bytes made a piece at a time into buffers of 256 KB, handed on whole (`take`): no string per line, no
 * Buffer.from per chunk. Numbers are written as JavaScript writes them (String(n)) without making the
 * string when they are integers or have at most six decimals (coordinates, altitudes, voltages: nearly
 * every cell), times as formatTime writes them in one zone, the date part made once a day.
 */
export class Bytes {
  buf: Buffer = Buffer.allocUnsafe(CHUNK);
  at = 0;
  private full: Buffer[] = [];
  private readonly offsetMs: number;
  private day = Number.NaN;
  private readonly date = Buffer.alloc(11);

  constructor(readonly zone = '+00:00') {
    this.offsetMs = (parseOffset(zone) ?? 0) * 60_000;
  }

  /** Makes room for `n` more bytes. */
  room(n: number): void {
    if (this.at + n > this.buf.length) {
      if (this.at > 0) this.full.push(this.buf.subarray(0, this.at));
      this.buf = Buffer.allocUnsafe(Math.max(CHUNK, n));
      this.at = 0;
    }
  }

  /** What was written since the last call, in pieces of about 256 KB (the current piece too). */
  take(): Buffer[] {
    const out = this.full;
    if (this.at > 0) {
      out.push(this.buf.subarray(0, this.at));
      this.buf = this.at > this.buf.length - 4096 ? Buffer.allocUnsafe(CHUNK) : this.buf.subarray(this.at);
      this.at = 0;
    }
    this.full = [];
    return out;
  }

  /** Bytes written so far not yet taken. */
  get pending(): number {
    let n = this.at;
    for (const b of this.full) n += b.length;
    return n;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.at++] = b;
  }

  bytes(b: Uint8Array): void {
    const n = b.length;
    this.room(n);
    if (n > 24) {
      this.buf.set(b, this.at);
      this.at += n;
      return;
    }
    // a few bytes (a tag, a reference) copied one by one: cheaper than set's native call
    const buf = this.buf;
    let at = this.at;
    for (let i = 0; i < n; i++) buf[at++] = b[i]!;
    this.at = at;
  }

  /** Text as UTF-8; short ASCII text byte by byte (a native call costs more than a few bytes). */
  text(s: string): void {
    const n = s.length;
    this.room(n * 3);
    if (n <= 32) {
      const buf = this.buf;
      let at = this.at;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[at++] = c;
      }
      if (i === n) {
        this.at = at;
        return;
      }
    }
    this.at += this.buf.write(s, this.at, 'utf8');
  }

  /** A whole number 0 ≤ n < 2^53. */
  private uint(n: number): void {
    const buf = this.buf;
    let len = 1;
    for (let p = 10; p <= n; p *= 10) len++;
    let i = this.at + len;
    this.at = i;
    while (n >= 100) {
      const q = Math.floor(n / 100);
      const r = (n - q * 100) * 2;
      buf[--i] = DIGITS2[r + 1]!;
      buf[--i] = DIGITS2[r]!;
      n = q;
    }
    if (n >= 10) {
      buf[--i] = DIGITS2[n * 2 + 1]!;
      buf[--i] = DIGITS2[n * 2]!;
    } else buf[--i] = 48 + n;
  }

  /** A number as String(n) writes it; nothing for NaN and ±Infinity. */
  num(x: number): void {
    if (!Number.isFinite(x)) return;
    this.room(32);
    if (Number.isInteger(x) && x < 1e15 && x > -1e15) {
      if (x < 0) {
        this.buf[this.at++] = 45;
        x = -x;
      }
      // -0 is written '0', as String(-0)
      this.uint(x);
      return;
    }
    // x = m / 10^6 exactly, and small enough that no other number with at most six decimals is as close to
    // x as a double can tell (|x| < 1e8: a double's spacing is under 1.5e-8 there): then the decimal of m
    // with the point six places from the right, trailing zeros dropped, is the shortest text that reads back
    // as x, which is what String(x) writes (no exponent between 1e-6 and 1e21).
    const m = Math.round(x * 1e6);
    if (m / 1e6 !== x || !(x < 1e8 && x > -1e8)) {
      this.text(String(x));
      return;
    }
    let a = m;
    if (a < 0) {
      this.buf[this.at++] = 45;
      a = -a;
    }
    const whole = Math.floor(a / 1e6);
    let frac = a - whole * 1e6;
    this.uint(whole);
    let digits = 6;
    while (digits > 1 && frac % 10 === 0) {
      frac /= 10;
      digits--;
    }
    const buf = this.buf;
    buf[this.at++] = 46;
    let i = this.at + digits;
    this.at = i;
    for (let k = 0; k < digits; k++) {
      const q = Math.floor(frac / 10);
      buf[--i] = 48 + frac - q * 10;
      frac = q;
    }
  }

  /** The zone's local time of `ms` as Excel's date number (days since 1899-12-30, the time of day the fraction). */
  serial(ms: number): void {
    this.num((ms + this.offsetMs) / DAY_MS + EXCEL_EPOCH_DAYS);
  }

  /** 'YYYY-MM-DD HH:mm:ss' in the zone, as formatTime writes it, then '.SSS' when the time has milliseconds or `withMs`. */
  time(ms: number, withMs = false): void {
    const local = ms + this.offsetMs;
    const d = Math.floor(local / DAY_MS);
    if (d !== this.day) {
      this.day = d;
      this.date.write(formatTime(d * DAY_MS - this.offsetMs, this.zone).slice(0, 11), 0, 'latin1');
    }
    this.room(23);
    const buf = this.buf;
    buf.set(this.date, this.at);
    let at = this.at + 11;
    const inDay = local - d * DAY_MS;
    const s = Math.floor(inDay / 1000);
    const frac = inDay - s * 1000;
    const h = Math.floor(s / 3600) * 2;
    const m = (Math.floor(s / 60) % 60) * 2;
    const sec = (s % 60) * 2;
    buf[at++] = DIGITS2[h]!;
    buf[at++] = DIGITS2[h + 1]!;
    buf[at++] = 58;
    buf[at++] = DIGITS2[m]!;
    buf[at++] = DIGITS2[m + 1]!;
    buf[at++] = 58;
    buf[at++] = DIGITS2[sec]!;
    buf[at++] = DIGITS2[sec + 1]!;
    if (frac !== 0 || withMs) {
      buf[at++] = 46;
      buf[at++] = 48 + Math.floor(frac / 100);
      const rest = (frac % 100) * 2;
      buf[at++] = DIGITS2[rest]!;
      buf[at++] = DIGITS2[rest + 1]!;
    }
    this.at = at;
  }
}

const COMMA = 44;
const NEEDS_QUOTES = /[",\r\n]/;

/** CSV cells (RFC 4180: quoted when they hold a comma, quote or line break), CRLF lines. */
export class CsvCells implements CellOut {
  private first = true;
  constructor(readonly out: Bytes) {}

  private sep(): void {
    if (this.first) this.first = false;
    else this.out.byte(COMMA);
  }

  text(v: string | null): void {
    this.sep();
    if (v === null) return;
    const safe = neutralise(v);
    this.out.text(NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe);
  }

  num(v: number | null): void {
    this.sep();
    if (v !== null) this.out.num(v);
  }

  time(ms: number | null, withMs = false): void {
    this.sep();
    if (ms !== null) this.out.time(ms, withMs);
  }

  end(): void {
    this.out.room(2);
    this.out.buf[this.out.at++] = 13;
    this.out.buf[this.out.at++] = 10;
    this.first = true;
  }
}

// XML 1.0 refuses control characters other than tab, LF and CR.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// eslint-disable-next-line no-control-regex
const XML_SPECIAL = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
/** Text as XML: most cells (times, letters) have nothing to escape and are returned after one test, not five passes. */
export const xmlText = (s: string) =>
  XML_SPECIAL.test(s) ? s.replace(XML_INVALID, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;') : s;

export function columnName(i: number): string {
  let name = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const ascii = (s: string) => Buffer.from(s, 'latin1');
const ROW_OPEN = ascii('<row r="');
const TAG_END = ascii('">');
const ROW_CLOSE = ascii('</row>');
const NUM_OPEN = ascii('"><v>');
const NUM_CLOSE = ascii('</v></c>');
const TEXT_OPEN = ascii('" t="inlineStr"><is><t>');
/** A date cell: its number in style 1 (XLSX_DATE_FORMATS[0]) or, with milliseconds, style 2. */
const DATE_OPEN = ascii('" s="1"><v>');
const DATE_MS_OPEN = ascii('" s="2"><v>');
const TEXT_CLOSE = ascii('</t></is></c>');

/** The number formats of the workbook's date cells (styles.xml cellXfs 1 and 2): a time to the second, to the millisecond. */
export const XLSX_DATE_FORMATS = ['yyyy-mm-dd hh:mm:ss', 'yyyy-mm-dd hh:mm:ss.000'] as const;

/**
 * A worksheet's cells (<sheetData>'s rows): numbers as numbers, text as inline strings (no shared-string
 * table held in memory), times as date cells (the zone's local time as Excel's date number, in a date
 * format, to the millisecond when the time has them); empty cells left out. `row(r)` opens row r.
 */
export class XlsxCells implements CellOut {
  private col = 0;
  /** The row's number as text, written once a row and copied into each cell's reference. */
  private readonly r = Buffer.alloc(16);
  private rLength = 0;
  /** `<c r="B` of each column so far. */
  private readonly refs: Buffer[] = [];
  constructor(readonly out: Bytes) {}

  row(r: number): void {
    this.col = 0;
    this.rLength = this.r.write(String(r), 0, 'latin1');
    this.out.bytes(ROW_OPEN);
    this.out.bytes(this.r.subarray(0, this.rLength));
    this.out.bytes(TAG_END);
  }

  private open(): void {
    const ref = (this.refs[this.col] ??= ascii(`<c r="${columnName(this.col)}`));
    this.col++;
    const out = this.out;
    out.room(ref.length + this.rLength);
    const buf = out.buf;
    let at = out.at;
    for (let i = 0; i < ref.length; i++) buf[at++] = ref[i]!;
    for (let i = 0; i < this.rLength; i++) buf[at++] = this.r[i]!;
    out.at = at;
  }

  text(v: string | null): void {
    if (v === null) {
      this.col++;
      return;
    }
    this.open();
    this.out.bytes(TEXT_OPEN);
    this.out.text(xmlText(neutralise(v)));
    this.out.bytes(TEXT_CLOSE);
  }

  num(v: number | null): void {
    if (v === null || !Number.isFinite(v)) {
      this.col++;
      return;
    }
    this.open();
    this.out.bytes(NUM_OPEN);
    this.out.num(v);
    this.out.bytes(NUM_CLOSE);
  }

  time(ms: number | null, withMs = false): void {
    if (ms === null) {
      this.col++;
      return;
    }
    this.open();
    this.out.bytes(withMs || ms % 1000 !== 0 ? DATE_MS_OPEN : DATE_OPEN);
    this.out.serial(ms);
    this.out.bytes(NUM_CLOSE);
  }

  end(): void {
    this.out.bytes(ROW_CLOSE);
  }
}

/** Cells collected as arrays (times as text in the zone, `timeText`), for a writer that takes rows of values. */
export class RowCollector implements CellOut {
  private rows: Cell[][] = [];
  private row: Cell[] = [];
  constructor(readonly zone: string) {}

  text(v: string | null): void {
    this.row.push(v === null ? null : neutralise(v));
  }

  num(v: number | null): void {
    this.row.push(v === null || !Number.isFinite(v) ? null : v);
  }

  time(ms: number | null, withMs = false): void {
    this.row.push(ms === null ? null : timeText(ms, this.zone, withMs));
  }

  end(): void {
    this.rows.push(this.row);
    this.row = [];
  }

  /** The rows collected since the last call. */
  take(): Cell[][] {
    const rows = this.rows;
    this.rows = [];
    return rows;
  }
}
