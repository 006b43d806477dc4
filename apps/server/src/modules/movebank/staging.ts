import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import SQLite from 'better-sqlite3';

/** One row of the long acceleration format: a single sample of one burst. */
export interface StagedSample {
  device: number;
  start: number;
  t: number;
  /** Row number in the file, to keep the file's order among equal times. */
  seq: number;
  /** Its line in the file, for the report. */
  line: number;
  event: string | null;
  axes: string;
  x: number | null;
  y: number | null;
  z: number | null;
  cx: number | null;
  cy: number | null;
  cz: number | null;
  /** JSON object of the row's unmapped values. */
  extra: string | null;
  /** Why the source marked the row, when it did. */
  mark: string | null;
}

const FLUSH = 5000;

/**
 * Where the long format's samples wait until the whole file has been read: a burst is only complete
 * once the file ends, because nothing says its rows are adjacent (exports are sorted by time across
 * individuals, files get concatenated or re-sorted). A temporary SQLite file keeps memory flat
 * however large the file is; the samples come back grouped by device and burst start, in time order.
 */
export class SampleStaging {
  private readonly file: string;
  private readonly db: SQLite.Database;
  private readonly insert: SQLite.Statement;
  private pending: StagedSample[] = [];
  count = 0;

  constructor() {
    this.file = path.join(os.tmpdir(), `wildtrack-movebank-${process.pid}-${randomBytes(6).toString('hex')}.db`);
    this.db = new SQLite(this.file);
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma('cache_size = -16000');
    this.db.exec(`create table samples (device integer not null, start integer not null, t integer not null, seq integer not null, line integer not null, event text,
      axes text not null, x integer, y integer, z integer, cx real, cy real, cz real, extra text, mark text)`);
    this.insert = this.db.prepare(
      'insert into samples values (@device, @start, @t, @seq, @line, @event, @axes, @x, @y, @z, @cx, @cy, @cz, @extra, @mark)',
    );
  }

  add(s: StagedSample): void {
    this.pending.push(s);
    this.count += 1;
    if (this.pending.length >= FLUSH) this.flush();
  }

  private flush(): void {
    const rows = this.pending;
    this.pending = [];
    this.db.transaction(() => {
      for (const r of rows) this.insert.run(r);
    })();
  }

  /** The bursts, one array of samples each, ordered by device, start and sample time. */
  *bursts(): Generator<StagedSample[]> {
    this.flush();
    this.db.exec('create index samples_burst on samples (device, start, t, seq)');
    let group: StagedSample[] = [];
    for (const row of this.db.prepare('select * from samples order by device, start, t, seq').iterate() as IterableIterator<StagedSample>) {
      const first = group[0];
      if (first && (first.device !== row.device || first.start !== row.start)) {
        yield group;
        group = [];
      }
      group.push(row);
    }
    if (group.length > 0) yield group;
  }

  close(): void {
    this.db.close();
    fs.rmSync(this.file, { force: true });
  }
}
