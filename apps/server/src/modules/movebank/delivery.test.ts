// unpackDelivery on archives the upload test does not make: a ZIP64 archive (sizes and offsets in its zip64
// fields, as a zip of 4 GiB and more has them), written here byte by byte after the zip specification
// (APPNOTE 4.3.14-4.5.3), and an encrypted entry.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unpackDelivery } from './delivery.js';
import { MovebankFormatError } from './errors.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-delivery-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const U32 = 0xffffffff;

/** A zip of one stored entry whose sizes, offset and entry count are all in its ZIP64 fields; `flags` its general purpose bits. */
function zip64(name: string, data: Buffer, flags = 0): Buffer {
  const n = Buffer.from(name);
  const local = Buffer.alloc(30 + n.length + 20);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(45, 4);
  local.writeUInt16LE(flags, 6);
  local.writeUInt32LE(U32, 18);
  local.writeUInt32LE(U32, 22);
  local.writeUInt16LE(n.length, 26);
  local.writeUInt16LE(20, 28);
  n.copy(local, 30);
  local.writeUInt16LE(1, 30 + n.length);
  local.writeUInt16LE(16, 32 + n.length);
  local.writeBigUInt64LE(BigInt(data.length), 34 + n.length);
  local.writeBigUInt64LE(BigInt(data.length), 42 + n.length);
  const central = Buffer.alloc(46 + n.length + 28);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(45, 4);
  central.writeUInt16LE(45, 6);
  central.writeUInt16LE(flags, 8);
  central.writeUInt32LE(U32, 20);
  central.writeUInt32LE(U32, 24);
  central.writeUInt16LE(n.length, 28);
  central.writeUInt16LE(28, 30);
  central.writeUInt32LE(U32, 42);
  n.copy(central, 46);
  const x = 46 + n.length;
  central.writeUInt16LE(1, x);
  central.writeUInt16LE(24, x + 2);
  central.writeBigUInt64LE(BigInt(data.length), x + 4);
  central.writeBigUInt64LE(BigInt(data.length), x + 12);
  central.writeBigUInt64LE(0n, x + 20);
  const cdOffset = local.length + data.length;
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeUInt16LE(45, 12);
  record.writeUInt16LE(45, 14);
  record.writeBigUInt64LE(1n, 24);
  record.writeBigUInt64LE(1n, 32);
  record.writeBigUInt64LE(BigInt(central.length), 40);
  record.writeBigUInt64LE(BigInt(cdOffset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(cdOffset + central.length), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(U32, 12);
  end.writeUInt32LE(U32, 16);
  return Buffer.concat([local, data, central, record, locator, end]);
}

describe('unpackDelivery', () => {
  const csv = 'timestamp,tag-local-identifier\n2024-05-01 09:00:00.000,T1\n';

  it('reads a ZIP64 archive: the entry found by its zip64 offset, its bytes by its zip64 size', async () => {
    const file = path.join(dir, 'big.zip');
    fs.writeFileSync(file, zip64('study/study.csv', Buffer.from(csv)));
    const out = await unpackDelivery(file);
    expect(fs.readFileSync(out.data, 'utf8')).toBe(csv);
    expect(out.made).toEqual([out.data]);
  });

  it('refuses an encrypted entry, saying to unpack it', async () => {
    const file = path.join(dir, 'locked.zip');
    fs.writeFileSync(file, zip64('study.csv', Buffer.from(csv), 1));
    await expect(unpackDelivery(file)).rejects.toThrow(MovebankFormatError);
    await expect(unpackDelivery(file)).rejects.toThrow(/encrypted or compressed in a way the import does not read: unpack it yourself/);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('locked.zip.'))).toEqual([]);
  });

  it('takes a plain CSV as it is', async () => {
    const file = path.join(dir, 'plain.csv');
    fs.writeFileSync(file, csv);
    expect(await unpackDelivery(file)).toEqual({ data: file, made: [] });
  });
});
