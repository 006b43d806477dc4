import type { Rng } from '../rng.js';

/**
 * A small drawn landscape (sky by sun elevation, hills, wetland water, reeds, an animal), RGBA. Enough to
 * look like a photo from the field at thumbnail size and to compress to a few KB.
 */
export interface SceneOptions {
  width: number;
  height: number;
  /** Sun elevation, degrees: sets day, dusk or night colours. */
  sun: number;
  subject: 'stork' | 'deer' | 'none';
  /** Horizontal position of the subject, 0..1, and a vertical camera bob in pixels (for video frames). */
  subjectX?: number;
  bob?: number;
  /** Walking phase of the subject's legs, radians. */
  gait?: number;
}

type RGB = [number, number, number];

const mix = (a: RGB, b: RGB, f: number): RGB => [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];

export class Canvas {
  readonly data: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.data = new Uint8Array(width * height * 4);
  }
  set(x: number, y: number, c: RGB, alpha = 1): void {
    x = Math.round(x);
    y = Math.round(y);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    const d = this.data;
    d[i] = d[i]! + (c[0] - d[i]!) * alpha;
    d[i + 1] = d[i + 1]! + (c[1] - d[i + 1]!) * alpha;
    d[i + 2] = d[i + 2]! + (c[2] - d[i + 2]!) * alpha;
    d[i + 3] = 255;
  }
  ellipse(cx: number, cy: number, rx: number, ry: number, c: RGB, tilt = 0): void {
    const r = Math.max(rx, ry);
    const cos = Math.cos(tilt);
    const sin = Math.sin(tilt);
    for (let y = Math.floor(cy - r); y <= cy + r; y++) {
      for (let x = Math.floor(cx - r); x <= cx + r; x++) {
        const dx = x - cx;
        const dy = y - cy;
        const u = (dx * cos + dy * sin) / rx;
        const v = (-dx * sin + dy * cos) / ry;
        if (u * u + v * v <= 1) this.set(x, y, c);
      }
    }
  }
  line(x0: number, y0: number, x1: number, y1: number, c: RGB, width = 1): void {
    const n = Math.ceil(Math.hypot(x1 - x0, y1 - y0)) + 1;
    for (let i = 0; i <= n; i++) {
      const x = x0 + ((x1 - x0) * i) / n;
      const y = y0 + ((y1 - y0) * i) / n;
      for (let k = 0; k < width; k++) this.set(x + k - (width - 1) / 2, y, c);
    }
  }
}

/** Draws the scene; `rng` draws the fixed details (hills, reeds) and must be seeded alike across frames. */
export function drawScene(o: SceneOptions, rng: Rng): Canvas {
  const { width: w, height: h } = o;
  const cv = new Canvas(w, h);
  const bob = o.bob ?? 0;
  const horizon = Math.round(h * 0.55 + bob);
  const day = Math.max(0, Math.min(1, (o.sun + 4) / 14));
  const dusk = Math.max(0, 1 - Math.abs(o.sun - 2) / 8);
  const skyTop = mix(mix([12, 16, 40], [70, 125, 205], day), [120, 90, 150], dusk * 0.5);
  const skyLow = mix(mix([30, 34, 70], [185, 212, 238], day), [245, 160, 90], dusk * 0.8);
  for (let y = 0; y < horizon; y++) {
    const c = mix(skyTop, skyLow, y / Math.max(1, horizon));
    for (let x = 0; x < w; x++) cv.set(x, y, c);
  }
  if (o.sun > -3) {
    const sy = horizon - (Math.max(-3, o.sun) / 50) * horizon;
    cv.ellipse(w * 0.78, sy, 6, 6, mix([255, 170, 80], [255, 250, 215], day));
  }
  // Hills, then the wetland: grass, a band of water, reeds in front.
  const hill = mix([25, 35, 40], [95, 130, 110], day);
  const p1 = rng.range(0, 6);
  const p2 = rng.range(0, 6);
  for (let x = 0; x < w; x++) {
    const top = horizon - 6 - 8 * (0.5 + 0.5 * Math.sin(x / 17 + p1)) - 4 * Math.sin(x / 7 + p2);
    for (let y = Math.floor(top); y < horizon; y++) cv.set(x, y, hill);
  }
  const grassNear = mix([15, 25, 12], [95, 140, 60], day);
  const grassFar = mix([20, 30, 20], [140, 165, 95], day);
  const water = mix([15, 20, 45], [110, 150, 195], day);
  const waterTop = horizon + Math.round((h - horizon) * 0.3);
  const waterBottom = horizon + Math.round((h - horizon) * 0.55);
  for (let y = horizon; y < h; y++) {
    const f = (y - horizon) / Math.max(1, h - horizon);
    const base = y >= waterTop && y < waterBottom ? water : mix(grassFar, grassNear, f);
    for (let x = 0; x < w; x++) {
      const n = rng.normal(0, 6);
      cv.set(x, y, [base[0] + n, base[1] + n, base[2] + n]);
    }
  }
  const reed = mix([20, 25, 10], [150, 130, 70], day);
  for (let i = 0; i < w / 3; i++) {
    const x = rng.range(0, w);
    const len = rng.range(8, 24);
    const lean = rng.normal(0, 2);
    cv.line(x, h, x + lean, h - len, reed);
  }
  const sx = (o.subjectX ?? 0.4) * w;
  const gy = waterTop - 2;
  if (o.subject === 'stork') drawStork(cv, sx, gy, day, o.gait ?? 0);
  if (o.subject === 'deer') drawDeer(cv, sx, gy, day, o.gait ?? 0);
  return cv;
}

function drawStork(cv: Canvas, x: number, ground: number, day: number, gait: number): void {
  const white = mix([70, 70, 80], [245, 245, 240], day);
  const black: RGB = [20, 20, 22];
  const red = mix([60, 20, 20], [200, 40, 40], day);
  const step = 3 * Math.sin(gait);
  cv.line(x - 2, ground - 14, x - 2 - step, ground, red);
  cv.line(x + 2, ground - 14, x + 2 + step, ground, red);
  cv.ellipse(x, ground - 19, 9, 5, white, -0.15);
  cv.ellipse(x - 6, ground - 18, 6, 3, black, -0.2);
  cv.line(x + 6, ground - 21, x + 10, ground - 32, white, 2);
  cv.ellipse(x + 11, ground - 33, 2.5, 2.5, white);
  cv.line(x + 12, ground - 33, x + 19, ground - 30, black, 1);
}

function drawDeer(cv: Canvas, x: number, ground: number, day: number, gait: number): void {
  const brown = mix([40, 28, 20], [150, 90, 45], day);
  const dark = mix([25, 18, 12], [90, 55, 30], day);
  const spot = mix([70, 60, 50], [235, 225, 205], day);
  const step = 3 * Math.sin(gait);
  for (const [lx, s] of [[-8, step], [-5, -step], [6, -step], [9, step]] as const) cv.line(x + lx, ground - 12, x + lx + s, ground, dark, 2);
  cv.ellipse(x, ground - 16, 12, 6, brown);
  for (const [dx, dy] of [[-6, -18], [-2, -19], [2, -18], [6, -19], [-4, -15], [3, -15]] as const) cv.set(x + dx, ground + dy, spot);
  cv.line(x + 10, ground - 19, x + 14, ground - 27, brown, 3);
  cv.ellipse(x + 16, ground - 28, 4, 2.5, brown, 0.3);
  cv.line(x + 14, ground - 30, x + 12, ground - 36, dark);
  cv.line(x + 13, ground - 33, x + 10, ground - 35, dark);
}
