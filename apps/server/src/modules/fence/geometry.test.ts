import kinks from '@turf/kinks';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closeRing, type LngLat } from '@wildtrack/contract';
import { compile, contains, selfIntersects } from './geometry.js';

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

describe('a ring crossing itself', () => {
  const byKinks = (ring: LngLat[]) => kinks({ type: 'Polygon', coordinates: [closeRing(ring)] }).features.length > 0;

  it('is told as @turf/kinks tells it: random rings on a coarse grid (touching, collinear, repeated vertices) and fine ones', () => {
    const grid = fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 4 })), { minLength: 3, maxLength: 12 });
    const fine = fc.array(fc.tuple(fc.double({ min: 120, max: 121, noNaN: true }), fc.double({ min: 30, max: 31, noNaN: true })), { minLength: 3, maxLength: 30 });
    let crossing = 0;
    for (const arb of [grid, fine]) {
      fc.assert(
        fc.property(arb, (pts) => {
          const ring = pts as LngLat[];
          const want = byKinks(ring);
          if (want) crossing += 1;
          expect(selfIntersects(ring)).toBe(want);
        }),
        { numRuns: 2000, seed: 26 },
      );
    }
    // both answers occur
    expect(crossing).toBeGreaterThan(100);
    expect(crossing).toBeLessThan(3900);
  });

  it('a 5,000-vertex star: not crossing; one vertex moved across: crossing', () => {
    const star: LngLat[] = Array.from({ length: 5000 }, (_, v) => {
      const a = (2 * Math.PI * v) / 5000;
      const r = 0.01 * (1 + 0.3 * Math.sin(7 * a));
      return [121 + r * Math.cos(a), 31 + r * Math.sin(a)];
    });
    expect(selfIntersects(star)).toBe(false);
    const moved = star.slice();
    moved[2500] = [121.02, 31];
    expect(selfIntersects(moved)).toBe(byKinks(moved));
    expect(selfIntersects(moved)).toBe(true);
  });
});
