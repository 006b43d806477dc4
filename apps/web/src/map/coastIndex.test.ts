import { describe, expect, it } from 'vitest';
import { buildCoastIndex, clipCoast, clipRing, landIn, unwrapRing, type Bbox, type Ring } from './coastIndex';

const square = (x0: number, y0: number, size: number): Ring => [
  [x0, y0],
  [x0 + size, y0],
  [x0 + size, y0 + size],
  [x0, y0 + size],
  [x0, y0],
];

describe('the offline coast, by view', () => {
  it('clips a ring to a box, closing it along the box', () => {
    const clipped = clipRing(square(0, 0, 10), [5, 5, 20, 20]);
    expect(clipped[0]).toEqual(clipped[clipped.length - 1]);
    const xs = clipped.map((p) => p[0]!);
    const ys = clipped.map((p) => p[1]!);
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]).toEqual([5, 10, 5, 10]);
    expect(clipRing(square(0, 0, 1), [5, 5, 6, 6])).toEqual([]);
  });

  it("keeps the coast's segments near the box, never the box's edges", () => {
    // A square whose left half is in the box: its top, left and bottom sides, not the cut at x = 5.
    const lines = clipCoast(square(0, 0, 10), [-1, -1, 5, 11]);
    const points = lines.flat();
    expect(points.some((p) => p[0] === 5)).toBe(false);
    expect(points).toContainEqual([0, 0]);
    expect(points).toContainEqual([0, 10]);
  });

  it('answers the land of a view, clipped, and nothing when it would be too much', () => {
    const index = buildCoastIndex([[square(0, 0, 10)], [square(100, 0, 10)]]);
    const box: Bbox = [5, 5, 20, 20];
    const answer = landIn(index, box, 1000)!;
    expect(answer.land.features[0]!.geometry.coordinates).toHaveLength(1);
    const ring = answer.land.features[0]!.geometry.coordinates[0]![0]!;
    expect(ring.every((p) => p[0]! >= 5 && p[0]! <= 20 && p[1]! >= 5 && p[1]! <= 20)).toBe(true);
    expect(answer.points).toBe(ring.length);
    expect(landIn(index, [-200, -90, 200, 90], 6)).toBeNull();
  });

  it('unwraps a ring across the antimeridian, not one around a pole', () => {
    expect(unwrapRing([[179, 0], [-179, 0], [-179, 1], [179, 1], [179, 0]])).toEqual([[179, 0], [181, 0], [181, 1], [179, 1], [179, 0]]);
    const polar = [[-180, -80], [0, -80], [180, -80], [180, -90], [-180, -90], [-180, -80]];
    expect(unwrapRing(polar)).toEqual(polar);
  });
});
