import { describe, expect, it } from 'vitest';
import { degreesPerPixel, gatherColors, isSoftwareRenderer, lodStillFits, lodView, trackLod, tracksLod } from './lod';
import type { DrawnTrack } from './trackData';

/** A track along the equator from 0°: `count` points `step` degrees apart, a minute apart. */
function line(count: number, step: number): DrawnTrack {
  const times = new Float64Array(count);
  const lonLat = new Float64Array(count * 2);
  for (let i = 0; i < count; i++) {
    times[i] = i * 60_000;
    lonLat[i * 2] = i * step;
  }
  const z = new Uint8Array(count);
  return { imei: 'L', count, times, lonLat, alt: new Float32Array(count), grade: z, valid: z.map(() => 1), averaged: z, source: null };
}

describe('level of detail for large tracks', () => {
  it('keeps one point per pixel or so, with both ends', () => {
    const track = line(10_001, 0.001); // 0° to 10°
    const view = { zoom: 3, region: null };
    const lod = trackLod(track, view, 0);
    // 10° at zoom 3 is about 114 px: about 150 points kept at 0.75 px apart.
    expect(lod.kept.length).toBeGreaterThan(100);
    expect(lod.kept.length).toBeLessThan(200);
    expect(lod.kept[0]).toBe(0);
    expect(lod.kept[lod.kept.length - 1]).toBe(10_000);
    expect(lod.data.length).toBe(1);
    expect(Array.from(lod.data.startIndices)).toEqual([0, lod.kept.length]);
    // Kept points are the track's, with their times in seconds from the base.
    const j = 50;
    expect(lod.lonLat[j * 2]).toBe(track.lonLat[lod.kept[j]! * 2]);
    expect(lod.data.attributes.getTimestamps.value[j]).toBe(lod.kept[j]! * 60);
    // Gaps between kept points stay under the tolerance (in degrees at that zoom).
    for (let k = 1; k < lod.kept.length; k++) expect(lod.lonLat[k * 2]! - lod.lonLat[(k - 1) * 2]!).toBeLessThan(degreesPerPixel(3) * 0.75 + 0.001);
  });

  it('keeps every point when zoomed in far enough', () => {
    const track = line(1000, 0.001);
    expect(trackLod(track, { zoom: 19, region: null }, 0).kept.length).toBe(1000);
  });

  it('culls segments outside the region and breaks the path there', () => {
    // Out and back: 0° → 10° → 0°, and a region around 5° only touches the middle of each leg.
    const count = 2001;
    const track = line(count, 0.01);
    for (let i = 1001; i < count; i++) track.lonLat[i * 2] = (2000 - i) * 0.01;
    const lod = trackLod(track, { zoom: 19, region: [4.5, -1, 5.5, 1] }, 0);
    expect(lod.data.length).toBe(2);
    const lons = Array.from(lod.kept, (i) => track.lonLat[i * 2]!);
    // Each run runs from the last point before the region to the first after it.
    expect(Math.min(...lons)).toBeCloseTo(4.49, 5);
    expect(Math.max(...lons)).toBeCloseTo(5.51, 5);
    expect(lod.kept.length).toBe(2 * 103);
    // A region the track never enters: nothing drawn.
    expect(trackLod(track, { zoom: 19, region: [20, 20, 30, 30] }, 0).kept.length).toBe(0);
  });

  it('finds a track across the antimeridian in an unwrapped view', () => {
    const track = line(11, 1);
    for (let i = 0; i < 11; i++) track.lonLat[i * 2] = i < 5 ? 175 + i : -185 + i; // 175..179, -180..-175
    const lod = trackLod(track, { zoom: 19, region: [178, -1, 182, 1] }, 0);
    expect(lod.kept.length).toBeGreaterThan(2);
  });

  it('follows the view by zoom bucket and region', () => {
    const world = lodView(2.4, [-180, -80, 180, 80]);
    expect(world).toEqual({ zoom: 3, region: null });
    expect(lodStillFits(world, 2.9, [-100, -50, 100, 50])).toBe(true);
    expect(lodStillFits(world, 3.1, [-100, -50, 100, 50])).toBe(false);
    const close = lodView(10.2, [116, 39, 117, 40]);
    expect(close).toEqual({ zoom: 11, region: [115, 38, 118, 41] });
    expect(lodStillFits(close, 10.7, [116.5, 39.5, 117.5, 40.5])).toBe(true);
    expect(lodStillFits(close, 10.7, [117.5, 39.5, 118.5, 40.5])).toBe(false);
  });

  it('gathers the colours of the kept points', () => {
    const colors = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(Array.from(gatherColors(colors, new Uint32Array([0, 2])))).toEqual([1, 2, 3, 4, 9, 10, 11, 12]);
  });

  it('fits many tracks into a budget of segments with a coarser tolerance', () => {
    const tracks = [line(100_000, 0.0001), line(50_000, 0.0002)];
    const fine = tracksLod(tracks, { zoom: 12, region: null }, 0, 1_000_000);
    expect(fine.reduce((n, l) => n + l.kept.length, 0)).toBeGreaterThan(100_000);
    const fitted = tracksLod(tracks, { zoom: 12, region: null }, 0, 2_500);
    const kept = fitted.reduce((n, l) => n + l.kept.length, 0);
    expect(kept).toBeLessThanOrEqual(2_500);
    expect(kept).toBeGreaterThan(500);
    // Both tracks keep their ends.
    expect(fitted.map((l) => l.kept[l.kept.length - 1])).toEqual([99_999, 49_999]);
  });

  it('tells software renderers', () => {
    expect(isSoftwareRenderer('ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)')).toBe(true);
    expect(isSoftwareRenderer('llvmpipe (LLVM 15.0.6, 256 bits)')).toBe(true);
    expect(isSoftwareRenderer('ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)')).toBe(false);
  });
});
