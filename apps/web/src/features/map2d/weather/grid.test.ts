import { WEATHER_GRID_MAX_POINTS } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { compassPoint, gridPoints, gridStep, temperatureColor, wrapLng } from './grid';

describe('weather grid', () => {
  it('puts a coarse grid of round steps over the view, rows north to south', () => {
    const points = gridPoints({ west: 110, south: 30, east: 122, north: 38 });
    expect(gridStep(12)).toBe(2);
    expect(gridStep(29)).toBe(4);
    expect(points.length).toBeGreaterThanOrEqual(20);
    expect(points.length).toBeLessThanOrEqual(WEATHER_GRID_MAX_POINTS);
    expect(points[0]).toEqual({ lat: 37, lng: 111 });
    expect(points.every((p) => p.lat > 30 && p.lat < 38 && p.lng > 110 && p.lng < 122)).toBe(true);
    expect(points.map((p) => p.lat)).toEqual([...points.map((p) => p.lat)].sort((a, b) => b - a));
  });

  it('asks the same points after a small pan (they are kept on the server)', () => {
    const a = gridPoints({ west: 110, south: 30, east: 122, north: 38 });
    const b = gridPoints({ west: 110.3, south: 30.2, east: 122.3, north: 38.2 });
    const key = (p: { lat: number; lng: number }) => `${p.lat},${p.lng}`;
    const shared = b.filter((p) => a.some((q) => key(q) === key(p)));
    expect(shared.length).toBeGreaterThanOrEqual(b.length * 0.6);
  });

  it('stays within the contract at world zoom and across the antimeridian', () => {
    const world = gridPoints({ west: -540, south: -90, east: 540, north: 90 });
    expect(world.length).toBeLessThanOrEqual(WEATHER_GRID_MAX_POINTS);
    expect(world.every((p) => p.lng >= -180 && p.lng <= 180 && p.lat >= -85 && p.lat <= 85)).toBe(true);
    const pacific = gridPoints({ west: 170, south: -10, east: 190, north: 5 });
    expect(pacific.some((p) => p.lng < 0)).toBe(true);
    expect(pacific.every((p) => p.lng >= -180 && p.lng <= 180)).toBe(true);
    expect(wrapLng(190)).toBe(-170);
    expect(wrapLng(-190)).toBe(170);
    expect(wrapLng(180)).toBe(180);
  });

  it('colours temperatures on the legend scale and names wind directions', () => {
    expect(temperatureColor(-40)).toBe('#6a3d9a');
    expect(temperatureColor(50)).toBe('#e31a1c');
    expect(temperatureColor(null)).toBe('#9e9e9e');
    expect(temperatureColor(15)).toMatch(/^#[0-9a-f]{6}$/);
    expect(compassPoint(0)).toBe('N');
    expect(compassPoint(270)).toBe('W');
    expect(compassPoint(359)).toBe('N');
    expect(compassPoint(225)).toBe('SW');
  });
});
