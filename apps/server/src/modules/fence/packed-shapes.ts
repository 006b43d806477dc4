import type { FenceGeometry } from './geometry.js';

/**
 * A shapefile import's geometry as the worker hands it over (shp-worker.ts): every shape's JSON as UTF-8 in
 * one buffer, transferred rather than copied, beside each shape's box, area and vertex count. Structured
 * cloning the 120 strings of a 9 MB import took the server's event loop 60–130 ms at once (issue 26 H4);
 * a transferred buffer costs nothing there, and each shape is decoded only as it is written.
 */
export interface PackedShapes {
  /** The shapes' JSON one after the other; shape i ends at `ends[i]` (and starts where i - 1 ends). */
  text: Uint8Array<ArrayBuffer>;
  ends: Uint32Array<ArrayBuffer>;
  meta: Omit<FenceGeometry, 'shape'>[];
}

/** Packs shapes for postMessage; transfer `[p.text.buffer, p.ends.buffer]`. */
export function packShapes(shapes: readonly FenceGeometry[]): PackedShapes {
  const encoder = new TextEncoder();
  const parts = shapes.map((s) => encoder.encode(s.shape));
  const text = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const ends = new Uint32Array(parts.length);
  let at = 0;
  parts.forEach((p, i) => {
    text.set(p, at);
    at += p.length;
    ends[i] = at;
  });
  return { text, ends, meta: shapes.map(({ shape: _shape, ...rest }) => rest) };
}

/** The shapes of a packed import, each decoded when asked for. */
export class ImportedShapes {
  private readonly decoder = new TextDecoder();

  constructor(private readonly packed: PackedShapes) {}

  get length(): number {
    return this.packed.meta.length;
  }

  /** Shape i's geometry, its JSON decoded now (~75 KB for a ring of 5,000 vertices). */
  at(i: number): FenceGeometry {
    const { text, ends, meta } = this.packed;
    const start = i === 0 ? 0 : ends[i - 1]!;
    return { ...meta[i]!, shape: this.decoder.decode(text.subarray(start, ends[i]!)) };
  }

  /** Box, area and vertices of shape i, without decoding it. */
  meta(i: number): Omit<FenceGeometry, 'shape'> {
    return this.packed.meta[i]!;
  }

  static of(shapes: readonly FenceGeometry[]): ImportedShapes {
    return new ImportedShapes(packShapes(shapes));
  }
}
