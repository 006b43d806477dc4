import fs from 'node:fs';
import { type CsvError, parse, type Parser } from 'csv-parse';
import { Layout } from './columns.js';
import { MovebankFormatError } from './errors.js';
import { isEmpty, parseTimestamp } from './values.js';

const PROGRESS_EVERY = 10_000;

/** Rows left out, counted by reason. */
export class Skips {
  private readonly map = new Map<string, number>();
  add(reason: string, n = 1): void {
    this.map.set(reason, (this.map.get(reason) ?? 0) + n);
  }
  list(): { reason: string; count: number }[] {
    return [...this.map].map(([reason, count]) => ({ reason, count })).sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0));
  }
}

/** A data row that names its animal and tag, has a time and is of a kind the import stores. */
export interface SourceRow {
  /** The row's number among the file's data rows (malformed ones included). */
  n: number;
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

function fileError(file: string): MovebankFormatError | undefined {
  return !fs.existsSync(file) || !fs.statSync(file).isFile() ? new MovebankFormatError(`${file}: no such file`) : undefined;
}

/** Reads the header only and throws MovebankFormatError when the file can't be a Movebank export. */
export async function checkMovebankFile(file: string): Promise<void> {
  const missing = fileError(file);
  if (missing) throw missing;
  const input = fs.createReadStream(file);
  const parser = input.pipe(parse({ bom: true, skip_empty_lines: true, relax_column_count: true, to_line: 1 }));
  try {
    for await (const header of parser as AsyncIterable<string[]>) {
      new Layout(header, file);
      return;
    }
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
  private readonly size: number;
  private parser: Parser | undefined;
  private input: fs.ReadStream | undefined;

  constructor(
    readonly file: string,
    private readonly skipped: Skips,
    private readonly onProgress?: ((line: string) => void) | undefined,
    private readonly started = performance.now(),
  ) {
    const missing = fileError(file);
    if (missing) throw missing;
    this.size = fs.statSync(file).size;
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
    const { skipped } = this;
    // relax_quotes keeps a stray quote inside an unquoted value as text; a record csv-parse still can't
    // read is skipped and counted. A quote that is never closed swallows the rest of the file: counted
    // as the lines it swallowed.
    let lastRecordLine = 0;
    const parser = parse({
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_records_with_error: true,
      on_record: (record: string[], context) => {
        lastRecordLine = context.lines;
        return record;
      },
    });
    parser.on('skip', (err: CsvError) => {
      if (err.code === 'CSV_QUOTE_NOT_CLOSED') {
        const lost = Math.max(1, Number(err.lines) - lastRecordLine);
        this.rows += lost;
        skipped.add(`malformed CSV: a quote opened on line ${lastRecordLine + 1} is never closed, so the lines after it could not be read`, lost);
      } else {
        this.rows += 1;
        skipped.add(`malformed CSV record (${err.code})`);
      }
    });
    const input = fs.createReadStream(this.file);
    input.on('error', (err) => parser.destroy(err));
    input.pipe(parser);
    this.parser = parser;
    this.input = input;

    for await (const record of parser as AsyncIterable<string[]>) {
      if (!this.layout) {
        this.layout = new Layout(record, this.file);
        continue;
      }
      const L = this.layout;
      this.rows += 1;
      if (this.rows % PROGRESS_EVERY === 0) this.progress();
      if (record.length !== L.names.length) {
        skipped.add(`wrong number of fields (not ${L.names.length})`);
        continue;
      }
      const tag = (cell(record, L.tag) ?? '').trim();
      const individual = (cell(record, L.individual) ?? '').trim();
      if (isEmpty(tag) && isEmpty(individual)) {
        skipped.add('no tag or individual identifier');
        continue;
      }
      const timeText = record[L.time]!;
      const t = parseTimestamp(timeText);
      if (t === undefined) {
        skipped.add(isEmpty(timeText) ? 'no timestamp' : 'unparseable timestamp');
        continue;
      }
      const sensorType = (cell(record, L.sensorType) ?? '').trim().toLowerCase();
      const eobsRaw = cell(record, L.eobsRaw);
      const plain = L.raw.some((i) => !isEmpty(cell(record, i)));
      const isAcc = sensorType === 'acceleration' || (sensorType === '' && (!isEmpty(eobsRaw) || plain));
      if (!isAcc && sensorType !== 'gps' && sensorType !== '') {
        skipped.add(`sensor type "${sensorType}" not imported`);
        continue;
      }
      if (isAcc && isEmpty(eobsRaw) && !plain) {
        skipped.add('acceleration row without samples');
        continue;
      }
      yield {
        n: this.rows,
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
