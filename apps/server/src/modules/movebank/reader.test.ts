import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COLUMNS, Layout } from './columns.js';
import { MovebankFormatError } from './errors.js';
import { EXAMPLES, MovebankReader, type SourceRow, Skips } from './reader.js';
import { TIMESTAMP_FORMAT } from './values.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-movebank-reader-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;
const csv = (text: string) => {
  const file = path.join(dir, `f${++files}.csv`);
  fs.writeFileSync(file, text);
  return file;
};
const readAll = async (file: string) => {
  const skipped = new Skips();
  const reader = new MovebankReader(file, skipped);
  const rows: SourceRow[] = [];
  for await (const r of reader.read()) rows.push(r);
  reader.close();
  return { rows, skipped: skipped.list(), notices: reader.notices.list(), count: reader.rows, layout: reader.layout!, delimiter: reader.delimiter };
};

describe('the column dictionary', () => {
  it('finds each field by its preferred spelling present, colon or hyphen', () => {
    const L = new Layout(['Timestamp', 'tag-local-identifier', 'gps-hdop', 'gps:dop', 'gps-satellite-count', 'gps:vdop', 'tilt-x', 'acceleration-x', 'x-outlier'], 'f.csv');
    expect(L.time).toBe(0);
    expect(L.tag).toBe(1);
    expect(L.individual).toBe(-1);
    expect(L.hdop).toEqual([2, 3]);
    expect(L.satellites).toBe(4);
    expect(L.vdop).toBe(5);
    expect(L.calibrated).toEqual([6, -1, -1]);
    expect(L.calibratedFrom).toBe('tilt');
    expect(L.outliers).toEqual([8]);
    // columns not in the dictionary go to the records' extra
    expect(L.fixExtra).toEqual([6, 7]);
  });

  it('lists every spelling once, in lower case', () => {
    const names = Object.values(COLUMNS).flat();
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toBe(n.toLowerCase());
  });

  it('refuses a header without a timestamp or without an identifier', () => {
    expect(() => new Layout(['tag-local-identifier'], 'a.csv')).toThrow(MovebankFormatError);
    expect(() => new Layout(['timestamp', 'location-long'], 'b.csv')).toThrow(/neither an "individual-local-identifier" nor a "tag-local-identifier"/);
  });
});

describe('MovebankReader', () => {
  it('yields the rows it can use, numbered, and counts the others by reason', async () => {
    const file = csv(
      [
        'timestamp,location-long,location-lat,sensor-type,tag-local-identifier,individual-local-identifier,study-name,eobs:accelerations-raw',
        '2020-01-01 00:00:00.000,1,2,gps, T1 ,A,S,',
        '2020-01-01 00:01:00.000,1,2,gps,T1,A',
        '2020-01-01 00:02:00.000,,,acceleration,T1,A,S,1 2 3',
        '2020-01-01 00:03:00.000,1,2,radio-transmitter,T1,A,S,',
        ',1,2,gps,T1,A,S,',
        'yesterday,1,2,gps,T1,A,S,',
        '2020-01-01 00:04:00.000,1,2,gps,NA,,S,',
        '2020-01-01 00:05:00.000,,,acceleration,T1,A,S,',
        '2020-01-01 00:06:00.000,3,4,,,B,NA,',
      ].join('\n'),
    );
    const { rows, skipped, count } = await readAll(file);
    expect(count).toBe(9);
    expect(rows.map((r) => [r.n, r.kind, r.tag, r.individual, r.study, r.t])).toEqual([
      [1, 'gps', 'T1', 'A', 'S', Date.UTC(2020, 0, 1, 0, 0)],
      [3, 'acceleration', 'T1', 'A', 'S', Date.UTC(2020, 0, 1, 0, 2)],
      [9, 'gps', '', 'B', '', Date.UTC(2020, 0, 1, 0, 6)],
    ]);
    expect(rows[1]!.eobsRaw).toBe('1 2 3');
    expect(rows[0]!.eobsRaw).toBeUndefined();
    expect(skipped).toEqual([
      { reason: 'acceleration row without samples', count: 1, examples: [{ line: 9 }] },
      { reason: 'no tag or individual identifier', count: 1, examples: [{ line: 8 }] },
      { reason: 'no timestamp', count: 1, examples: [{ line: 6 }] },
      { reason: 'sensor type "radio-transmitter" not imported', count: 1, examples: [{ line: 5, value: 'radio-transmitter' }] },
      { reason: `unparseable timestamp: expected ${TIMESTAMP_FORMAT}`, count: 1, examples: [{ line: 7, value: 'yesterday' }] },
      { reason: 'wrong number of fields (not 8)', count: 1, examples: [{ line: 3, value: '6 fields' }] },
    ]);
  });

  it('keeps the known fields of a row with a field too many, and says so', async () => {
    const file = csv(['event-id,timestamp,individual-local-identifier,comments', '1,2020-01-01 00:00:00.000,A,one, with a comma', '2,2020-01-01 00:01:00.000,A,two'].join('\n'));
    const { rows, skipped, notices } = await readAll(file);
    expect(rows.map((r) => [r.line, r.eventId, r.record])).toEqual([
      [2, '1', ['1', '2020-01-01 00:00:00.000', 'A', 'one']],
      [3, '2', ['2', '2020-01-01 00:01:00.000', 'A', 'two']],
    ]);
    expect(skipped).toEqual([]);
    expect(notices).toEqual([{ reason: "more fields than the header's 4: the known fields are kept, the extra ones left out", count: 1, examples: [{ line: 2, eventId: '1', value: ' with a comma' }] }]);
  });

  it('names the expected time format and shows the first rows a spreadsheet rewrote', async () => {
    const lines = ['event-id,timestamp,individual-local-identifier'];
    for (let i = 1; i <= 8; i++) lines.push(`${i},31/05/2008 13:${String(20 + i)}:31,A`);
    const { rows, skipped } = await readAll(csv(lines.join('\n')));
    expect(rows).toEqual([]);
    expect(skipped).toEqual([
      {
        reason: 'unparseable timestamp: expected yyyy-MM-dd HH:mm:ss.SSS (UTC), e.g. 2008-05-31 13:29:31.000',
        count: 8,
        examples: Array.from({ length: EXAMPLES }, (_, i) => ({ line: i + 2, eventId: String(i + 1), value: `31/05/2008 13:${21 + i}:31` })),
      },
    ]);
    expect(EXAMPLES).toBe(5);
  });

  it('reads a semicolon-delimited file with decimal commas, as a spreadsheet saves it', async () => {
    const file = csv(['event-id;timestamp;location-long;location-lat;individual-local-identifier;comments', '1;2020-01-01 00:00:00.000;6,5815293;53,0082323;A;a, b', ''].join('\r\n'));
    const { rows, skipped, delimiter } = await readAll(file);
    expect(delimiter).toBe(';');
    expect(skipped).toEqual([]);
    expect(rows.map((r) => r.record)).toEqual([['1', '2020-01-01 00:00:00.000', '6.5815293', '53.0082323', 'A', 'a, b']]);
  });

  it('counts the lines a never-closed quote swallowed', async () => {
    const file = csv(['timestamp,individual-local-identifier,comments', '2020-01-01 00:00:00.000,A,ok', '2020-01-01 00:01:00.000,A,"open', '2020-01-01 00:02:00.000,A,x', '2020-01-01 00:03:00.000,A,y'].join('\n'));
    const { rows, skipped, count } = await readAll(file);
    expect(rows).toHaveLength(1);
    expect(count).toBe(4);
    expect(skipped).toEqual([{ reason: expect.stringMatching(/a quote opened on line 3 is never closed/), count: 3, examples: [{ line: 3 }] }]);
  });

  it('reports progress with the rows read', async () => {
    const file = csv('timestamp,individual-local-identifier\n2020-01-01 00:00:00.000,A\n');
    const lines: string[] = [];
    const reader = new MovebankReader(file, new Skips(), (l) => lines.push(l));
    for await (const _ of reader.read()) void _;
    reader.progress(true);
    expect(lines).toEqual([expect.stringMatching(/^read 1 rows, 100\.0% of /)]);
  });

  it('refuses a missing or an empty file', async () => {
    expect(() => new MovebankReader(path.join(dir, 'none.csv'), new Skips())).toThrow(/no such file/);
    await expect(readAll(csv(''))).rejects.toThrow(/empty file/);
  });
});

describe('a record longer than the reader takes', () => {
  it('stops the reading at a quote that never closes once its record passes MOVEBANK_MAX_RECORD_CHARS, naming the line, instead of holding the rest of the file', async () => {
    const header = 'timestamp,location-long,location-lat,tag-local-identifier';
    const rest = Array.from({ length: 120_000 }, (_, i) => `2020-01-01 00:00:${String(i % 60).padStart(2, '0')}.000,1,2,T${i}`).join('\n');
    const file = csv([header, '2020-01-01 00:00:00.000,1,2,T1', '2020-01-01 00:00:01.000,1,2,"T2', rest, ''].join('\n'));
    const size = fs.statSync(file).size;
    expect(size).toBeGreaterThan(4_000_000);
    const skipped = new Skips();
    const reader = new MovebankReader(file, skipped);
    const rows: SourceRow[] = [];
    for await (const r of reader.read()) rows.push(r);
    reader.close();
    expect(rows.map((r) => r.tag)).toEqual(['T1']);
    expect(skipped.list()).toEqual([
      {
        reason: 'malformed CSV: the record starting on line 3 is longer than 1,000,000 characters (a quote never closed?), so the import stopped there and the lines after it were not read',
        count: 1,
        examples: [{ line: 3 }],
      },
    ]);
    // the reading stopped near the limit: the rest of the file was neither read nor held
    expect(reader.bytesRead).toBeLessThan(size / 2);
  });
});
