import jpeg from 'jpeg-js';
import { Rng } from '../rng.js';
import { drawScene, type SceneOptions } from './scene.js';

/** A field photo as a baseline JPEG (jpeg-js), a few KB at 160x120. */
export function fieldPhoto(rng: Rng, sun: number, subject: SceneOptions['subject'], width = 160, height = 120): Uint8Array {
  const cv = drawScene({ width, height, sun, subject, subjectX: rng.range(0.2, 0.7), gait: rng.range(0, 6) }, rng);
  const out = jpeg.encode({ data: cv.data, width, height }, 72);
  return new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength);
}

/**
 * jpeg-js builds its Huffman and category tables on every call (~50 ms, mostly garbage), too slow for a
 * month of photos in the server's first start. So photos come from a per-process pool of drawn scenes
 * (subject x daylight or dusk x 4 variants), and each file is made unique by a comment segment (COM) naming its
 * time and place, spliced in after the SOI marker.
 */
const pool = new Map<string, Uint8Array>();

export function pooledPhoto(variant: number, sun: number, subject: SceneOptions['subject'], comment: string): Uint8Array {
  const light = sun < 10 ? 4 : 35;
  const key = `${subject}:${light}:${variant}`;
  let base = pool.get(key);
  if (!base) {
    base = fieldPhoto(new Rng(1000 + variant, 5), light, subject);
    pool.set(key, base);
  }
  return withComment(base, comment);
}

export function withComment(jpg: Uint8Array, comment: string): Uint8Array {
  const text = new TextEncoder().encode(comment.slice(0, 200));
  const seg = new Uint8Array(4 + text.length);
  seg[0] = 0xff;
  seg[1] = 0xfe;
  seg[2] = (text.length + 2) >> 8;
  seg[3] = (text.length + 2) & 0xff;
  seg.set(text, 4);
  const out = new Uint8Array(jpg.length + seg.length);
  out.set(jpg.subarray(0, 2), 0);
  out.set(seg, 2);
  out.set(jpg.subarray(2), 2 + seg.length);
  return out;
}
