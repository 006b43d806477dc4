import fs from 'node:fs';
import { type CsvError, parse, type Parser } from 'csv-parse';
import { MOVEBANK_MAX_RECORD_CHARS } from '@wildtrack/contract';
import { Layout } from './columns.js';
import { MovebankFormatError } from './errors.js';
import { isEmpty, parseTimestamp, TIMESTAMP_FORMAT } from './values.js';

const PROGRESS_EVERY = 10_000;

/** Where a row sits in the file, for the user to find it: its line, its event-id and the value at fault. */
export interface RowExample {
  line: number;
  eventId?: string;
  value?: string;
}

/** Examples kept per reason. */
export const EXAMPLES = 5;

/** Rows counted by reason (left out, or stored with something to say), each with its first few examples. */
export class Skips {
  private readonly map = new Map<string, { count: number; examples: RowExample[] }>();
  add(reason: string, example?: RowExample, n = 1): void {
    let entry = this.map.get(reason);
    if (!entry) this.map.set(reason, (entry = { count: 0, examples: [] }));
    entry.count += n;
    if (example && entry.examples.length < EXAMPLES) entry.examples.push(example);
  }
  get size(): number {
    let n = 0;
    for (const e of this.map.values()) n += e.count;
    return n;
  }
  list(): { reason: string; count: number; examples: RowExample[] }[] {
    return [...this.map]
      .map(([reason, e]) => ({ reason, count: e.count, examples: e.examples }))
      .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
  }
}

/** A data row that names its animal and tag, has a time and is of a kind the import stores. */
export interface SourceRow {
  /** The row's number among the file's data rows (malformed ones included). */
  n: number;
  /** The file's line the row ends on (the header is line 1). */
  line: number;
  /** Its event-id ('' when absent). */
  eventId: string;
  record: string[];
  /** Trimmed identifiers ('' when absent; at least one is present). */
  tag: string;
  individual: string;
  /** As written ('' when absent). */
  study: string;
  taxon: string;
  t: number;
  kind: 'gps' | 'acceleration';
  /** The e-obs nested burst's samples, when the row holds one. */
  eobsRaw: string | undefined;
}

const cell = (row: string[], i: number): string | undefined => (i >= 0 ? row[i] : undefined);

/**
 * The file's delimiter, from its first line: Movebank writes commas; a spreadsheet re-saved in a
 * European locale writes semicolons (and decimal commas), some tools tabs.
 */
export function sniffDelimiter(file: string): ',' | ';' | '\t' {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(65536);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const first = buf.subarray(0, n).toString('utf8').split(/\r?\n/, 1)[0] ?? '';
    const count = (c: string) => first.split(c).length - 1;
    const [comma, semicolon, tab] = [count(','), count(';'), count('\t')];
    if (semicolon > comma && semicolon >= tab) return ';';
    if (tab > comma && tab > semicolon) return '\t';
    return ',';
  } finally {
    fs.closeSync(fd);
  }
}

/** A decimal comma, as a spreadsheet writes numbers in a semicolon-delimited file. */
const DECIMAL_COMMA = /^-?\d+,\d+$/;

function fileError(file: string): MovebankFormatError | undefined {
  return !fs.existsSync(file) || !fs.statSync(file).isFile() ? new MovebankFormatError(`${file}: no such file`) : undefined;
}

/** Reads the header only and throws MovebankFormatError when the file can't be a Movebank export. */
export async function checkMovebankFile(file: string): Promise<void> {
  const missing = fileError(file);
  if (missing) throw missing;
  const input = fs.createReadStream(file);
  const parser = input.pipe(parse({ bom: true, skip_empty_lines: true, relax_column_count: true, to_line: 1, delimiter: sniffDelimiter(file) }));
  try {
    for await (const header of parser as AsyncIterable<string[]>) {
      new Layout(header, file);
      return;
    }
  } catch (err) {
    // csv-parse can't read the header (a quote out of place): a refusal, not a failure of the server
    if ((err as { code?: unknown }).code?.toString().startsWith('CSV_')) throw new MovebankFormatError(`${file}: its first line is not CSV the import can read`);
    throw err;
  } finally {
    input.destroy();
  }
  throw new MovebankFormatError(`${file}: empty file (no header row)`);
}

/**
 * Streams a Movebank CSV: the header becomes the file's Layout, each data row a SourceRow; a row that
 * can't be one is counted in `skipped` with its reason. Memory stays flat whatever the file's size.
 */
export class MovebankReader {
  /** Data rows read so far, malformed ones included. */
  rows = 0;
  layout: Layout | undefined;
  /** Rows stored with something the user should know (a field too many), by reason. */
  readonly notices = new Skips();
  /** The file's delimiter (a semicolon when a spreadsheet re-saved it). */
  readonly delimiter: ',' | ';' | '\t';
  /** The file's size in bytes. */
  readonly size: number;
  private parser: Parser | undefined;
  private input: fs.ReadStream | undefined;

  constructor(
    readonly file: string,
    private readonly skipped: Skips,
    private readonly onProgress?: ((line: string) => void) | undefined,
    private readonly started = performance.now(),
    /** The longest record read (MOVEBANK_MAX_RECORD_CHARS; a test sets a smaller one). */
    private readonly maxRecordChars = MOVEBANK_MAX_RECORD_CHARS,
  ) {
    const missing = fileError(file);
    if (missing) throw missing;
    this.size = fs.statSync(file).size;
    this.delimiter = sniffDelimiter(file);
  }

  /** Bytes of the file the parser has read so far. */
  get bytesRead(): number {
    return this.parser?.info.bytes ?? 0;
  }

  /** One progress line: rows read, share of the file, rows per second. */
  progress(final = false): void {
    if (!this.onProgress) return;
    const seconds = (performance.now() - this.started) / 1000;
    const pct = this.size > 0 ? (100 * (this.parser?.info.bytes ?? 0)) / this.size : 100;
    this.onProgress(
      `${final ? 'read' : 'reading'} ${this.rows.toLocaleString('en-US')} rows, ${pct.toFixed(1)}% of ${(this.size / 1e6).toFixed(1)} MB, ` +
        `${Math.round(this.rows / Math.max(seconds, 1e-3)).toLocaleString('en-US')} rows/s`,
    );
  }

  async *read(): AsyncGenerator<SourceRow> {
    const { skipped, notices } = this;
    // relax_quotes keeps a stray quote inside an unquoted value as text; a record csv-parse still can't
    // read is skipped and counted. A quote that is never closed swallows the rest of the file: counted
    // as the lines it swallowed.
    let lastRecordLine = 0;
    const decimalComma = this.delimiter === ';';
    // A record past MOVEBANK_MAX_RECORD_CHARS (csv-parse's max_record_size) is a quote that never closes:
    // csv-parse would keep it growing with the file (600 MB: +455 MiB). The reading stops there, once said.
    let stopped = false;
    const maxRecord = this.maxRecordChars;
    const parser = parse({
      max_record_size: maxRecord,
      delimiter: this.delimiter,
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_records_with_error: true,
      // each record comes with its line, for the user to find a row the report names
      info: true,
      on_record: (record: string[], context) => {
        lastRecordLine = context.lines;
        return record;
      },
    });
    parser.on('skip', (err: CsvError) => {
      if (stopped) return;
      if (err.code === 'CSV_MAX_RECORD_SIZE') {
        stopped = true;
        this.rows += 1;
        skipped.add(
          `malformed CSV: the record starting on line ${lastRecordLine + 1} is longer than ${maxRecord.toLocaleString('en-US')} characters (a quote never closed?), so the import stopped there and the lines after it were not read`,
          { line: lastRecordLine + 1 },
        );
        input.unpipe(parser);
        input.destroy();
        parser.end();
      } else if (err.code === 'CSV_QUOTE_NOT_CLOSED') {
        const lost = Math.max(1, Number(err.lines) - lastRecordLine);
        this.rows += lost;
        skipped.add(`malformed CSV: a quote opened on line ${lastRecordLine + 1} is never closed, so the lines after it could not be read`, { line: lastRecordLine + 1 }, lost);
      } else {
        this.rows += 1;
        skipped.add(`malformed CSV record (${err.code})`, { line: Number(err.lines) });
      }
    });
    const input = fs.createReadStream(this.file);
    input.on('error', (err) => parser.destroy(err));
    input.pipe(parser);
    this.parser = parser;
    this.input = input;

    for await (const { record: fields, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines;
      if (decimalComma) for (let i = 0; i < fields.length; i++) if (DECIMAL_COMMA.test(fields[i]!)) fields[i] = fields[i]!.replace(',', '.');
      if (!this.layout) {
        this.layout = new Layout(fields, this.file);
        continue;
      }
      const L = this.layout;
      this.rows += 1;
      if (this.rows % PROGRESS_EVERY === 0) this.progress();
      const eventId = (cell(fields, L.event) ?? '').trim();
      const example = (value?: string): RowExample => ({ line, ...(eventId ? { eventId } : {}), ...(value === undefined ? {} : { value }) });
      if (fields.length < L.names.length) {
        skipped.add(`wrong number of fields (not ${L.names.length})`, example(`${fields.length} fields`));
        continue;
      }
      // a field too many (a stray comma in a comment, a column the header lacks): the known fields are kept
      const record = fields.length > L.names.length ? fields.slice(0, L.names.length) : fields;
      if (record !== fields) notices.add(`more fields than the header's ${L.names.length}: the known fields are kept, the extra ones left out`, example(fields.slice(L.names.length).join(this.delimiter)));
      const tag = (cell(record, L.tag) ?? '').trim();
      const individual = (cell(record, L.individual) ?? '').trim();
      if (isEmpty(tag) && isEmpty(individual)) {
        skipped.add('no tag or individual identifier', example());
        continue;
      }
      const timeText = record[L.time]!;
      const t = parseTimestamp(timeText);
      if (t === undefined) {
        if (isEmpty(timeText)) skipped.add('no timestamp', example());
        else skipped.add(`unparseable timestamp: expected ${TIMESTAMP_FORMAT}`, example(timeText));
        continue;
      }
      const sensorType = (cell(record, L.sensorType) ?? '').trim().toLowerCase();
      const eobsRaw = cell(record, L.eobsRaw);
      const plain = L.raw.some((i) => !isEmpty(cell(record, i)));
      const isAcc = sensorType === 'acceleration' || (sensorType === '' && (!isEmpty(eobsRaw) || plain));
      if (!isAcc && sensorType !== 'gps' && sensorType !== '') {
        skipped.add(`sensor type "${sensorType}" not imported`, example(sensorType));
        continue;
      }
      if (isAcc && isEmpty(eobsRaw) && !plain) {
        skipped.add('acceleration row without samples', example());
        continue;
      }
      yield {
        n: this.rows,
        line,
        eventId,
        record,
        tag: isEmpty(tag) ? '' : tag,
        individual: isEmpty(individual) ? '' : individual,
        study: isEmpty(cell(record, L.study)) ? '' : record[L.study]!,
        taxon: isEmpty(cell(record, L.taxon)) ? '' : record[L.taxon]!,
        t,
        kind: isAcc ? 'acceleration' : 'gps',
        eobsRaw: isEmpty(eobsRaw) ? undefined : eobsRaw,
      };
    }
    if (!this.layout) throw new MovebankFormatError(`${this.file}: empty file (no header row)`);
  }

  close(): void {
    this.input?.destroy();
  }
}
