import { PassThrough, Writable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { zipEntries } from '../../test/zip-entries.js';
import { ZipWriter } from './zip.js';

const collect = (s: PassThrough) =>
  new Promise<Buffer>((resolve, reject) => {
    const parts: Buffer[] = [];
    s.on('data', (c: Buffer) => parts.push(c));
    s.on('end', () => resolve(Buffer.concat(parts)));
    s.on('error', reject);
  });

describe('ZipWriter', () => {
  it('writes whole and streamed entries that read back the same, CRC-32 and sizes in the central directory', async () => {
    const out = new PassThrough();
    const got = collect(out);
    const zip = new ZipWriter(out);
    const big = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `<row r="${i}"><c><v>${i * 7}</v></c></row>`).join(''));
    const sheet = await zip.stream('xl/worksheets/sheet1.xml', 1);
    for (let at = 0; at < big.length; at += 100_000) await sheet.write([big.subarray(at, at + 50_000), big.subarray(at + 50_000, at + 100_000)]);
    await sheet.end();
    const empty = await zip.stream('empty.xml', 1);
    await empty.end();
    await zip.addBuffer('[Content_Types].xml', Buffer.from('<Types/>'));
    await zip.addBuffer('名字.xml', Buffer.from('ü'));
    await zip.finish();
    const file = await got;

    const entries = zipEntries(file);
    expect([...entries.keys()]).toEqual(['xl/worksheets/sheet1.xml', 'empty.xml', '[Content_Types].xml', '名字.xml']);
    expect(entries.get('xl/worksheets/sheet1.xml')!.equals(big)).toBe(true);
    expect(entries.get('empty.xml')!.length).toBe(0);
    expect(entries.get('名字.xml')!.toString()).toBe('ü');
    // the central directory's CRC and sizes, and the streamed entry's data descriptor after its data
    const cd = file.readUInt32LE(file.length - 22 + 16);
    expect(file.readUInt32LE(cd)).toBe(0x02014b50);
    expect(file.readUInt32LE(cd + 16)).toBe(zlib.crc32(big));
    expect(file.readUInt32LE(cd + 24)).toBe(big.length);
    const compressed = file.readUInt32LE(cd + 20);
    const dataAt = 30 + 'xl/worksheets/sheet1.xml'.length;
    expect(file.readUInt32LE(dataAt + compressed)).toBe(0x08074b50);
    expect(file.readUInt32LE(dataAt + compressed + 4)).toBe(zlib.crc32(big));
    expect(compressed).toBeLessThan(big.length / 4);
  });

  it('fails, not hangs, when the file stream is gone mid-entry', async () => {
    const out = new Writable({ highWaterMark: 1024, write: (_c, _e, cb) => setTimeout(cb, 1) });
    const zip = new ZipWriter(out);
    const sheet = await zip.stream('s.xml', 1);
    const random = Buffer.alloc(1 << 20);
    for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
    const writing = (async () => {
      for (;;) await sheet.write([random]);
    })();
    out.destroy();
    await expect(writing).rejects.toThrow(/closed/);
  });
});
