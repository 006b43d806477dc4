import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { now } from '../../lib/clock.js';

/**
 * The zip of an XLSX, written as it goes: small parts whole, a worksheet streamed through zlib's raw
 * deflate with its CRC-32 by zlib.crc32 (native; yazl's JavaScript CRC was a sixth of an XLSX's time in
 * bench/export). Entries are written one after another; a streamed entry's CRC and sizes follow its data
 * (a data descriptor) and the central directory holds them all. ZIP64 (sizes or offsets of 4 GiB and more)
 * where needed: in the central directory, the data descriptor and the end records.
 */

const MAX32 = 0xffffffff;
const FLAG_UTF8 = 0x0800;
const FLAG_DESCRIPTOR = 0x0008;

interface Entry {
  name: Buffer;
  flags: number;
  method: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

/** DOS time and date of `d` (local fields, as zip tools read them). */
function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((Math.max(1980, d.getFullYear()) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** Waits until `s` takes more; fails if `s` or `out` (the file `s` flows into) closes or errs first (the reader went away). */
export function drained(s: Writable, out: Writable = s): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      s.off('drain', onDrain);
      for (const w of new Set([s, out])) {
        w.off('close', onClose);
        w.off('error', onError);
      }
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
    for (const w of new Set([s, out])) {
      w.on('close', onClose);
      w.on('error', onError);
    }
  });
}

/** A streamed entry: write its bytes in pieces, then end it before the next entry begins. */
export interface ZipEntryStream {
  write(pieces: readonly Buffer[]): Promise<void>;
  end(): Promise<void>;
}

export class ZipWriter {
  private offset = 0;
  private readonly entries: Entry[] = [];
  private readonly stamp = dosTime(new Date(now()));
  private open = false;

  constructor(private readonly out: Writable) {}

  private async put(b: Buffer): Promise<void> {
    if (this.out.destroyed) throw new Error('the file stream closed before the export ended');
    this.offset += b.length;
    if (!this.out.write(b)) await drained(this.out);
  }

  private localHeader(e: Entry): Buffer {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(e.flags, 6);
    h.writeUInt16LE(e.method, 8);
    h.writeUInt16LE(this.stamp.time, 10);
    h.writeUInt16LE(this.stamp.date, 12);
    // a streamed entry's CRC and sizes are in its data descriptor: zero here
    if (!(e.flags & FLAG_DESCRIPTOR)) {
      h.writeUInt32LE(e.crc, 14);
      h.writeUInt32LE(e.compressed, 18);
      h.writeUInt32LE(e.size, 22);
    }
    h.writeUInt16LE(e.name.length, 26);
    return Buffer.concat([h, e.name]);
  }

  /** A small part, deflated whole. */
  async addBuffer(name: string, data: Buffer): Promise<void> {
    if (this.open) throw new Error('a zip entry is still being written');
    const body = zlib.deflateRawSync(data);
    const e: Entry = { name: Buffer.from(name, 'utf8'), flags: FLAG_UTF8, method: 8, crc: zlib.crc32(data), compressed: body.length, size: data.length, offset: this.offset };
    if (e.offset >= MAX32 || body.length >= MAX32) throw new Error('zip part too large for a whole entry');
    this.entries.push(e);
    await this.put(this.localHeader(e));
    await this.put(body);
  }

  /** An entry streamed through raw deflate at `level`. */
  async stream(name: string, level: number): Promise<ZipEntryStream> {
    if (this.open) throw new Error('a zip entry is still being written');
    this.open = true;
    const e: Entry = { name: Buffer.from(name, 'utf8'), flags: FLAG_UTF8 | FLAG_DESCRIPTOR, method: 8, crc: 0, compressed: 0, size: 0, offset: this.offset };
    this.entries.push(e);
    await this.put(this.localHeader(e));
    const deflate = zlib.createDeflateRaw({ level });
    const out = this.out;
    deflate.on('data', (c: Buffer) => {
      e.compressed += c.length;
    });
    deflate.pipe(out, { end: false });
    const ended = new Promise<void>((resolve, reject) => {
      deflate.once('end', resolve);
      deflate.once('error', reject);
      out.once('close', () => reject(new Error('the file stream closed before the export ended')));
    });
    ended.catch(() => undefined);
    return {
      write: async (pieces) => {
        for (const p of pieces) {
          if (out.destroyed) throw new Error('the file stream closed before the export ended');
          e.crc = zlib.crc32(p, e.crc);
          e.size += p.length;
          if (!deflate.write(p)) await drained(deflate, out);
        }
      },
      end: async () => {
        deflate.end();
        await ended;
        deflate.unpipe(out);
        this.offset += e.compressed;
        this.open = false;
        const zip64 = e.size >= MAX32 || e.compressed >= MAX32;
        const d = Buffer.alloc(zip64 ? 24 : 16);
        d.writeUInt32LE(0x08074b50, 0);
        d.writeUInt32LE(e.crc, 4);
        if (zip64) {
          d.writeBigUInt64LE(BigInt(e.compressed), 8);
          d.writeBigUInt64LE(BigInt(e.size), 16);
        } else {
          d.writeUInt32LE(e.compressed, 8);
          d.writeUInt32LE(e.size, 12);
        }
        await this.put(d);
      },
    };
  }

  /** The central directory and the end records; ends `out`. */
  async finish(): Promise<void> {
    if (this.open) throw new Error('a zip entry is still being written');
    const start = this.offset;
    for (const e of this.entries) {
      const big = [e.size >= MAX32 ? e.size : -1, e.compressed >= MAX32 ? e.compressed : -1, e.offset >= MAX32 ? e.offset : -1].filter((v) => v >= 0);
      const extra = Buffer.alloc(big.length ? 4 + 8 * big.length : 0);
      if (big.length) {
        extra.writeUInt16LE(0x0001, 0);
        extra.writeUInt16LE(8 * big.length, 2);
        big.forEach((v, i) => extra.writeBigUInt64LE(BigInt(v), 4 + 8 * i));
      }
      const h = Buffer.alloc(46);
      h.writeUInt32LE(0x02014b50, 0);
      h.writeUInt16LE((3 << 8) | 45, 4);
      h.writeUInt16LE(big.length ? 45 : 20, 6);
      h.writeUInt16LE(e.flags, 8);
      h.writeUInt16LE(e.method, 10);
      h.writeUInt16LE(this.stamp.time, 12);
      h.writeUInt16LE(this.stamp.date, 14);
      h.writeUInt32LE(e.crc, 16);
      h.writeUInt32LE(Math.min(e.compressed, MAX32), 20);
      h.writeUInt32LE(Math.min(e.size, MAX32), 24);
      h.writeUInt16LE(e.name.length, 28);
      h.writeUInt16LE(extra.length, 30);
      h.writeUInt32LE((0o100644 << 16) >>> 0, 38);
      h.writeUInt32LE(Math.min(e.offset, MAX32), 42);
      await this.put(Buffer.concat([h, e.name, extra]));
    }
    const size = this.offset - start;
    const count = this.entries.length;
    if (start >= MAX32 || size >= MAX32 || count >= 0xffff) {
      const z = Buffer.alloc(56 + 20);
      z.writeUInt32LE(0x06064b50, 0);
      z.writeBigUInt64LE(44n, 4);
      z.writeUInt16LE((3 << 8) | 45, 12);
      z.writeUInt16LE(45, 14);
      z.writeBigUInt64LE(BigInt(count), 24);
      z.writeBigUInt64LE(BigInt(count), 32);
      z.writeBigUInt64LE(BigInt(size), 40);
      z.writeBigUInt64LE(BigInt(start), 48);
      z.writeUInt32LE(0x07064b50, 56);
      z.writeBigUInt64LE(BigInt(this.offset), 64);
      z.writeUInt32LE(1, 72);
      await this.put(z);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, 0xffff), 8);
    end.writeUInt16LE(Math.min(count, 0xffff), 10);
    end.writeUInt32LE(Math.min(size, MAX32), 12);
    end.writeUInt32LE(Math.min(start, MAX32), 16);
    await this.put(end);
    this.out.end();
  }
}
