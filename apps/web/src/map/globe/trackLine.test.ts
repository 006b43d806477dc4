import { describe, expect, it } from 'vitest';
import type { DecodedTrack } from '../../lib/tracks/types';
import { fixAt, heightForZoom, pathProgress, trackLine, trackPath } from './trackLine';
import { subdomainTemplate } from './tiles';

function track(points: { t: number; lon: number; lat: number; alt?: number; valid?: 0 | 1 }[]): DecodedTrack {
  const n = points.length;
  return {
    imei: '860000000000001',
    count: n,
    times: Float64Array.from(points.map((p) => p.t)),
    lonLat: Float64Array.from(points.flatMap((p) => [p.lon, p.lat])),
    alt: Float32Array.from(points.map((p) => p.alt ?? NaN)),
    grade: new Uint8Array(n),
    valid: Uint8Array.from(points.map((p) => p.valid ?? 1)),
    averaged: new Uint8Array(n),
  };
}

describe('trackLine', () => {
  it('keeps the valid fixes with their altitude, and puts a fix without one on the ground', () => {
    const line = trackLine(
      track([
        { t: 1000, lon: 10, lat: 50, alt: 120 },
        { t: 2000, lon: 11, lat: 51, valid: 0, alt: 9000 },
        { t: 3000, lon: 12, lat: 52 },
        { t: 4000, lon: 13, lat: 53, alt: -4 },
      ]),
    );
    expect(line.count).toBe(3);
    expect([...line.times]).toEqual([1000, 3000, 4000]);
    expect([...line.coords]).toEqual([10, 50, 120, 12, 52, 0, 13, 53, -4]);
    expect([...line.hasAlt]).toEqual([1, 0, 1]);
  });

  it('builds a 100,000-fix track from its typed arrays', () => {
    const n = 100_000;
    const big: DecodedTrack = {
      imei: 'x',
      count: n,
      times: Float64Array.from({ length: n }, (_, i) => i * 60_000),
      lonLat: Float64Array.from({ length: 2 * n }, (_, i) => (i % 2 === 0 ? 116 + i / 2e6 : 40)),
      alt: Float32Array.from({ length: n }, (_, i) => (i % 10 === 0 ? NaN : 500)),
      grade: new Uint8Array(n),
      valid: new Uint8Array(n).fill(1),
      averaged: new Uint8Array(n),
    };
    const line = trackLine(big);
    expect(line.count).toBe(n);
    expect(line.coords[3 * 5 + 2]).toBe(500);
    expect(line.coords[3 * 10 + 2]).toBe(0);
  });
});

describe('fixAt', () => {
  const line = trackLine(
    track([
      { t: 1000, lon: 0, lat: 0 },
      { t: 2000, lon: 1, lat: 0, valid: 0 },
      { t: 3000, lon: 2, lat: 0 },
    ]),
  );
  it('is the last kept fix at or before the time, -1 before the first', () => {
    expect(fixAt(line, 999)).toBe(-1);
    expect(fixAt(line, 1000)).toBe(0);
    // The invalid fix at 2000 is not a place the device was: still the first.
    expect(fixAt(line, 2500)).toBe(0);
    expect(fixAt(line, 3000)).toBe(1);
    expect(fixAt(line, 9e12)).toBe(1);
  });
});

describe('trackPath', () => {
  it('splits a long hop along the great circle, keeps short ones, and draws a repeated place once', () => {
    const line = trackLine(
      track([
        { t: 0, lon: 116, lat: 40, alt: 0 },
        { t: 1, lon: 116.01, lat: 40, alt: 100 },
        { t: 2, lon: 116.01, lat: 40, alt: 100 },
        // ~340 km east along the parallel: 4 hops of at most 100 km, heights in between
        { t: 3, lon: 120, lat: 40, alt: 500 },
      ]),
    );
    const path = trackPath(line);
    expect([...path.vertexOf]).toEqual([0, 1, 1, 5]);
    expect(path.count).toBe(6);
    const heights = [2, 3, 4].map((v) => path.coords[v * 3 + 2]);
    expect(heights).toEqual([200, 300, 400]);
    // A great circle between two points on a parallel bulges towards the pole.
    expect(path.coords[3 * 3 + 1]).toBeGreaterThan(40);
    const lons = [1, 2, 3, 4, 5].map((v) => path.coords[v * 3]!);
    for (let i = 1; i < lons.length; i++) expect(lons[i]!).toBeGreaterThan(lons[i - 1]!);
  });

  it('says how far along the line the replay clock is', () => {
    const line = trackLine(
      track([
        { t: 1000, lon: 0, lat: 0 },
        { t: 2000, lon: 0.1, lat: 0 },
        { t: 3000, lon: 0.2, lat: 0 },
      ]),
    );
    const path = trackPath(line);
    expect(pathProgress(line, path, null)).toBe(1);
    expect(pathProgress(line, path, 500)).toBe(-1);
    expect(pathProgress(line, path, 1000)).toBe(0);
    expect(pathProgress(line, path, 1500)).toBeCloseTo(0.25);
    expect(pathProgress(line, path, 3000)).toBe(1);
    expect(pathProgress(line, path, 9000)).toBe(1);
  });
});

describe('heightForZoom', () => {
  it('puts the camera of zoom 2 (§9) high enough to see the whole Earth, and halves it per level', () => {
    const h2 = heightForZoom(2, 700);
    expect(h2).toBeGreaterThan(15_000_000);
    expect(h2).toBeLessThan(40_000_000);
    expect(heightForZoom(3, 700)).toBeCloseTo(h2 / 2, 3);
  });
});

describe('subdomainTemplate', () => {
  it('turns the hosts of one layer into {s} and subdomains', () => {
    const tiles = [0, 1, 2].map((i) => `https://t${i}.tianditu.gov.cn/vec_w/wmts?TILEMATRIX={z}&TILEROW={y}&TILECOL={x}&tk=k`);
    expect(subdomainTemplate(tiles)).toEqual({
      url: 'https://t{s}.tianditu.gov.cn/vec_w/wmts?TILEMATRIX={z}&TILEROW={y}&TILECOL={x}&tk=k',
      subdomains: ['0', '1', '2'],
    });
    expect(subdomainTemplate(['https://a.tile.example/{z}/{x}/{y}.png', 'https://b.tile.example/{z}/{x}/{y}.png'])).toEqual({
      url: 'https://{s}.tile.example/{z}/{x}/{y}.png',
      subdomains: ['a', 'b'],
    });
  });

  it('keeps a single template, or several that differ inside a placeholder, as the first', () => {
    expect(subdomainTemplate(['https://tiles.example/{z}/{x}/{y}.png'])).toEqual({ url: 'https://tiles.example/{z}/{x}/{y}.png' });
    expect(subdomainTemplate(['https://one.example/{z}/{x}/{y}.png', 'https://one.example/{z}/{y}/{x}.png'])).toEqual({
      url: 'https://one.example/{z}/{x}/{y}.png',
    });
  });
});
