import { describe, expect, it } from 'vitest';
import { compile, contains } from './geometry.js';

/** Even-odd ray casting over every edge: what the banded test must answer. */
function naive(ring: [number, number][], lng: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

describe('point in polygon by latitude bands', () => {
  it('answers as the ray over every edge, on a star, a thin sliver and points on vertices', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const star: [number, number][] = Array.from({ length: 200 }, (_, v) => {
      const a = (2 * Math.PI * v) / 200;
      const r = 0.009 * (1 + 0.5 * Math.sin(7 * a));
      return [121 + r * Math.cos(a), 31 + r * Math.sin(a)];
    });
    const sliver: [number, number][] = [[10, 0], [10.0001, 0], [10.0001, 5], [10, 5]];
    for (const ring of [star, sliver]) {
      const c = compile({ Type: 'Polygon', Coordinates: ring });
      const xs = ring.map((p) => p[0]), ys = ring.map((p) => p[1]);
      const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      let inside = 0;
      const points: [number, number][] = [...ring, ...Array.from({ length: 5000 }, (): [number, number] => [x0 + (x1 - x0) * (1.2 * rnd() - 0.1), y0 + (y1 - y0) * (1.2 * rnd() - 0.1)])];
      for (const [x, y] of points) {
        const want = naive(ring, x, y);
        expect(contains(c, x, y), `${x},${y}`).toBe(want);
        if (want) inside += 1;
      }
      // both answers occur
      expect(inside).toBeGreaterThan(100);
      expect(inside).toBeLessThan(points.length - 100);
    }
  });
});
