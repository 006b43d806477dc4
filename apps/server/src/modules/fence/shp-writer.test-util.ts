/**
 * A minimal .shp writer for tests and the bench: polygon records (type 5), one ring each, in the file
 * layout of the ESRI Shapefile Technical Description (header 100 bytes, big-endian file code and lengths,
 * little-endian contents).
 */
export function polygonShp(rings: [number, number][][]): Buffer {
  const records = rings.map((ring, i) => {
    const content = 44 + 4 + 16 * ring.length;
    const b = Buffer.alloc(8 + content);
    b.writeInt32BE(i + 1, 0);
    b.writeInt32BE(content / 2, 4);
    b.writeInt32LE(5, 8);
    const xs = ring.map((p) => p[0]);
    const ys = ring.map((p) => p[1]);
    b.writeDoubleLE(Math.min(...xs), 12);
    b.writeDoubleLE(Math.min(...ys), 20);
    b.writeDoubleLE(Math.max(...xs), 28);
    b.writeDoubleLE(Math.max(...ys), 36);
    b.writeInt32LE(1, 44);
    b.writeInt32LE(ring.length, 48);
    b.writeInt32LE(0, 52);
    ring.forEach(([x, y], k) => {
      b.writeDoubleLE(x, 56 + 16 * k);
      b.writeDoubleLE(y, 64 + 16 * k);
    });
    return b;
  });
  const header = Buffer.alloc(100);
  const length = 100 + records.reduce((n, r) => n + r.length, 0);
  header.writeInt32BE(9994, 0);
  header.writeInt32BE(length / 2, 24);
  header.writeInt32LE(1000, 28);
  header.writeInt32LE(5, 32);
  return Buffer.concat([header, ...records]);
}
