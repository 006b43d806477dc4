import { describe, expect, it } from 'vitest';
import { formatTime } from '@wildtrack/contract';
import { Bytes, CsvCells, timeText, XlsxCells } from './cells.js';

const written = (b: Bytes) => Buffer.concat(b.take()).toString('utf8');

describe('Bytes', () => {
  it('writes every number as String(n) does (nothing for NaN and infinities), without making the string for the usual ones', () => {
    const values = [
      0, -0, 1, -1, 9, 10, 99, 100, 101, 582, 1e6, 123456789, 2 ** 31, 2 ** 53 - 1, 1e15, -1e15 + 1, 1e16, 1e21, 1.5e300, Number.MAX_VALUE, Number.MIN_VALUE,
      0.1, 0.2, 0.1 + 0.2, 0.5, 1.05, 8.500116, -8.500116, 47.400299, 3.97, 35.4, 20.8, 0.000001, -0.000001, 0.0000001, 1e-7, 0.000123, 0.00001, 99999999.999999,
      100000000.5, 1e8 - 0.000001, 123.4567891, Math.fround(8.1234567), 20.799999237060547, 1 / 3, -2 / 3, Math.PI, 1.1e-6, 0.999999, 0.9999995, 12345.000001,
    ];
    // and many in the ranges the tables hold: coordinates with up to 7 decimals, speeds, g
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 20_000; i++) {
      const digits = i % 8;
      values.push(Math.round((rnd() - 0.5) * 400 * 10 ** digits) / 10 ** digits, (rnd() - 0.5) * 10 ** (i % 12), Math.round(rnd() * 600) / 10 / 3.6);
    }
    const b = new Bytes();
    for (const v of [...values, Number.NaN, Infinity, -Infinity]) {
      b.num(v);
      b.byte(10);
    }
    const lines = written(b).split('\n');
    values.forEach((v, i) => expect(lines[i], String(v)).toBe(String(v)));
    expect(lines.slice(values.length)).toEqual(['', '', '', '']);
  });

  it('writes times as formatTime does, in the zone, across days and before 1970, with their milliseconds when they have some', () => {
    for (const zone of ['+08:00', '-12:00', '+00:00', '+12:00', '-03:00']) {
      const b = new Bytes(zone);
      const start = Date.UTC(2024, 1, 28, 10, 0, 0);
      const times = [...Array.from({ length: 500 }, (_, i) => start + i * 1_234_567), start + 5 * 86_400_000, start, 0, -86_400_001, Date.UTC(2024, 11, 31, 23, 59, 59, 999)];
      for (const t of times) {
        b.time(t);
        b.byte(10);
      }
      const ms = (t: number) => (((t % 1000) + 1000) % 1000 === 0 ? '' : `.${String(((t % 1000) + 1000) % 1000).padStart(3, '0')}`);
      expect(written(b)).toBe(times.map((t) => `${formatTime(t, zone)}${ms(t)}\n`).join(''));
      for (const t of times) expect(timeText(t, zone)).toBe(`${formatTime(t, zone)}${ms(t)}`);
    }
    const b = new Bytes('+08:00');
    for (const t of [Date.UTC(2026, 10, 25, 2, 30, 0, 250), Date.UTC(2026, 10, 25, 2, 30, 0, 5), Date.UTC(2026, 10, 25, 2, 30, 1)]) {
      b.time(t);
      b.byte(10);
    }
    b.time(Date.UTC(2026, 10, 25, 2, 30, 1), true);
    expect(written(b)).toBe('2026-11-25 10:30:00.250\n2026-11-25 10:30:00.005\n2026-11-25 10:30:01\n2026-11-25 10:30:01.000');
    expect(timeText(Date.UTC(2026, 10, 25, 2, 30, 1), '+08:00', true)).toBe('2026-11-25 10:30:01.000');
  });

  it('writes text as UTF-8 across its pieces, however long', () => {
    const b = new Bytes();
    const texts = ['IMEI', '有效', 'é', '😀 bird', 'x'.repeat(300_000), 'y'.repeat(40), '定位'.repeat(100_000)];
    for (const t of texts) b.text(t);
    const pieces = b.take();
    expect(pieces.length).toBeGreaterThan(1);
    expect(Buffer.concat(pieces).toString('utf8')).toBe(texts.join(''));
    expect(b.take()).toEqual([]);
  });
});

describe('cells', () => {
  it('writes CSV rows: fields quoted when they hold a comma, quote or line break, empty cells empty, CRLF', () => {
    const b = new Bytes('+08:00');
    const c = new CsvCells(b);
    c.text('a,b');
    c.num(null);
    c.text('say "hi"');
    c.num(1.5);
    c.time(0);
    c.time(null);
    c.time(250);
    c.end();
    c.text('line\nbreak');
    c.num(Number.NaN);
    c.end();
    expect(written(b)).toBe('"a,b",,"say ""hi""",1.5,1970-01-01 08:00:00,,1970-01-01 08:00:00.250\r\n"line\nbreak",\r\n');
  });

  it('writes XLSX cells with their references, text escaped as inline strings, times as date cells in the zone, empty cells left out', () => {
    const b = new Bytes('+08:00');
    const c = new XlsxCells(b);
    c.row(7);
    c.text('<a & "b">');
    c.num(null);
    c.num(-0.25);
    c.time(0);
    c.time(Date.UTC(2026, 10, 25, 2, 30, 0, 250));
    for (let i = 0; i < 23; i++) c.text(null);
    c.num(3);
    c.end();
    const xml = written(b);
    const m = /^<row r="7"><c r="A7" t="inlineStr"><is><t>&lt;a &amp; &quot;b&quot;&gt;<\/t><\/is><\/c><c r="C7"><v>-0.25<\/v><\/c><c r="D7" s="1"><v>([\d.]+)<\/v><\/c><c r="E7" s="2"><v>([\d.]+)<\/v><\/c><c r="AC7"><v>3<\/v><\/c><\/row>$/.exec(xml);
    expect(m, xml).not.toBeNull();
    // 1970-01-01 08:00 local is Excel's day 25569 and a third; 10:30:00.250 local, the 37800.25th second of 2026-11-25.
    expect(Number(m![1])).toBeCloseTo(25569 + 1 / 3, 10);
    expect((Number(m![2]) - (Date.UTC(2026, 10, 25) / 86_400_000 + 25569)) * 86_400).toBeCloseTo(37800.25, 4);
  });
});
