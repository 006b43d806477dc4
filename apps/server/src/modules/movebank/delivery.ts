import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { MovebankFormatError } from './errors.js';

/**
 * Movebank's deliveries as they come: a CSV, a gzipped CSV (`.csv.gz`), or a zip holding the CSV and
 * perhaps its reference data (the study page's download, Env-DATA's annotated tracks). A zip or gzip is
 * unpacked beside the file, streamed (zlib, the inflate the XLSX writer's zip uses), so memory stays flat
 * for any size; a spreadsheet (XLSX, XLS) is refused with what to do instead. Read from the file's first
 * bytes, never from its name (an upload's name is the user's).
 */

/** What a delivery unpacked to: the event data and, when a zip holds it, the reference data; `made` the files it wrote. */
export interface UnpackedDelivery {
  data: string;
  reference?: string | undefined;
  made: string[];
}

const SPREADSHEET = 'is a spreadsheet, not a CSV: download the data from Movebank as CSV ("Download data", format CSV) and import that file';

function head(file: string, n: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    return buf.subarray(0, fs.readSync(fd, buf, 0, n, 0));
  } finally {
    fs.closeSync(fd);
  }
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  return buf.subarray(0, fs.readSync(fd, buf, 0, length, position));
}

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressed: number;
  local: number;
}

const U32 = 0xffffffff;

/** The zip's entries from its central directory (ZIP64 too), or a MovebankFormatError naming the problem. */
function zipEntries(file: string): ZipEntry[] {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const tailLength = Math.min(size, 22 + 0xffff);
    const tail = readAt(fd, size - tailLength, tailLength);
    let eocd = tail.length - 22;
    while (eocd >= 0 && tail.readUInt32LE(eocd) !== 0x06054b50) eocd--;
    if (eocd < 0) throw new MovebankFormatError(`${file}: a damaged zip (no central directory): download it again`);
    let count = tail.readUInt16LE(eocd + 10);
    let cdOffset = tail.readUInt32LE(eocd + 16);
    let cdSize = tail.readUInt32LE(eocd + 12);
    if ((count === 0xffff || cdOffset === U32 || cdSize === U32) && eocd >= 20 && tail.readUInt32LE(eocd - 20) === 0x07064b50) {
      const z64 = readAt(fd, Number(tail.readBigUInt64LE(eocd - 20 + 8)), 56);
      if (z64.readUInt32LE(0) === 0x06064b50) {
        count = Number(z64.readBigUInt64LE(32));
        cdSize = Number(z64.readBigUInt64LE(40));
        cdOffset = Number(z64.readBigUInt64LE(48));
      }
    }
    const cd = readAt(fd, cdOffset, cdSize);
    const entries: ZipEntry[] = [];
    let p = 0;
    for (let i = 0; i < count; i++) {
      if (p + 46 > cd.length || cd.readUInt32LE(p) !== 0x02014b50) throw new MovebankFormatError(`${file}: a damaged zip (bad central directory): download it again`);
      const flags = cd.readUInt16LE(p + 8);
      const method = cd.readUInt16LE(p + 10);
      let compressed = cd.readUInt32LE(p + 20);
      const uncompressed = cd.readUInt32LE(p + 24);
      const nameLength = cd.readUInt16LE(p + 28);
      const extraLength = cd.readUInt16LE(p + 30);
      const commentLength = cd.readUInt16LE(p + 32);
      let local = cd.readUInt32LE(p + 42);
      const name = cd.subarray(p + 46, p + 46 + nameLength).toString('utf8');
      // ZIP64: the sizes and offset that did not fit in 32 bits, in this order, in the extra field 0x0001
      let e = p + 46 + nameLength;
      const end = e + extraLength;
      while (e + 4 <= end) {
        const id = cd.readUInt16LE(e);
        const len = cd.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let q = e + 4;
          if (uncompressed === U32) q += 8;
          if (compressed === U32) {
            compressed = Number(cd.readBigUInt64LE(q));
            q += 8;
          }
          if (local === U32) local = Number(cd.readBigUInt64LE(q));
        }
        e += 4 + len;
      }
      entries.push({ name, method, flags, compressed, local });
      p = end + commentLength;
    }
    return entries;
  } finally {
    fs.closeSync(fd);
  }
}

/** Streams one entry's bytes, inflated, into `out`. */
async function extract(file: string, entry: ZipEntry, out: string): Promise<void> {
  if (entry.flags & 1) throw new MovebankFormatError(`${file}: the zip is encrypted or compressed in a way the import does not read: unpack it yourself and import the CSV`);
  if (entry.method !== 0 && entry.method !== 8) throw new MovebankFormatError(`${file}: the zip is encrypted or compressed in a way the import does not read (${entry.name}, method ${entry.method}): unpack it yourself and import the CSV`);
  const fd = fs.openSync(file, 'r');
  let dataAt: number;
  try {
    const local = readAt(fd, entry.local, 30);
    if (local.length < 30 || local.readUInt32LE(0) !== 0x04034b50) throw new MovebankFormatError(`${file}: a damaged zip (bad entry ${entry.name}): download it again`);
    dataAt = entry.local + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  } finally {
    fs.closeSync(fd);
  }
  if (entry.compressed === 0) return fs.writeFileSync(out, '');
  const source = fs.createReadStream(file, { start: dataAt, end: dataAt + entry.compressed - 1 });
  try {
    if (entry.method === 8) await pipeline(source, zlib.createInflateRaw(), fs.createWriteStream(out));
    else await pipeline(source, fs.createWriteStream(out));
  } catch (err) {
    if (err instanceof MovebankFormatError) throw err;
    throw new MovebankFormatError(`${file}: a damaged zip (${entry.name} does not inflate): download it again`);
  }
}

/** A zip entry that is a CSV the import reads (not a directory, nor macOS's resource forks). */
const isCsv = (name: string) => /\.csv$/i.test(name) && !name.endsWith('/') && !name.startsWith('__MACOSX/') && !path.basename(name).startsWith('._');
/** Movebank names a study's reference data "...reference-data.csv" (and the older repository "...reference.csv"). */
const isReference = (name: string) => /reference/i.test(path.basename(name));

/**
 * The delivery at `file` as plain CSV files: `file` itself when it is one; else its contents unpacked into
 * files named `file` + a suffix (the caller removes `made` when done). Refuses a spreadsheet, a zip without a
 * CSV or with several event files, and a file that is not text, each with a sentence saying what to do.
 */
export async function unpackDelivery(file: string): Promise<UnpackedDelivery> {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new MovebankFormatError(`${file}: no such file`);
  const magic = head(file, 8);
  if (magic.length >= 2 && magic[0] === 0x1f && magic[1] === 0x8b) {
    const out = `${file}.unpacked.csv`;
    try {
      await pipeline(fs.createReadStream(file), zlib.createGunzip(), fs.createWriteStream(out));
    } catch {
      fs.rmSync(out, { force: true });
      throw new MovebankFormatError(`${file}: a damaged gzip file (it does not unpack): download it again`);
    }
    return { data: out, made: [out] };
  }
  if (magic.length >= 4 && magic.readUInt32LE(0) === 0xe011cfd0) throw new MovebankFormatError(`${file}: ${SPREADSHEET}`);
  if (magic.length >= 4 && (magic.readUInt32LE(0) === 0x04034b50 || magic.readUInt32LE(0) === 0x06054b50)) {
    const entries = zipEntries(file);
    if (entries.some((e) => e.name === '[Content_Types].xml' || e.name.startsWith('xl/'))) throw new MovebankFormatError(`${file}: ${SPREADSHEET}`);
    const csvs = entries.filter((e) => isCsv(e.name));
    const events = csvs.filter((e) => !isReference(e.name));
    const references = csvs.filter((e) => isReference(e.name));
    if (events.length === 0) throw new MovebankFormatError(`${file}: the zip holds no Movebank CSV (its files: ${entries.slice(0, 8).map((e) => e.name).join(', ') || 'none'})`);
    if (events.length > 1 || references.length > 1) {
      throw new MovebankFormatError(`${file}: the zip holds several CSV files (${csvs.slice(0, 8).map((e) => e.name).join(', ')}): import them one at a time`);
    }
    const made: string[] = [];
    try {
      const data = `${file}.unpacked.csv`;
      made.push(data);
      await extract(file, events[0]!, data);
      let reference: string | undefined;
      if (references[0]) {
        reference = `${file}.unpacked-reference.csv`;
        made.push(reference);
        await extract(file, references[0], reference);
      }
      return { data, reference, made };
    } catch (err) {
      for (const f of made) fs.rmSync(f, { force: true });
      throw err;
    }
  }
  // a CSV is text: a NUL among its first bytes says it is something else (its header would print as binary)
  if (head(file, 4096).includes(0)) throw new MovebankFormatError(`${file}: not a CSV file (it holds binary data): import Movebank's CSV, a .csv.gz or a .zip of it`);
  return { data: file, made: [] };
}
