import { describe, expect, it } from 'vitest';
import { areaValue, circleArea, circleRing, ringArea, shapeArea } from './geometry';
import { bodyOf, emptyDraft, issuesOf, type FenceDraft } from './model';
import { shpProblem } from './components/ShpImport';

const square: FenceDraft['shape'] = { Type: 'Polygon', Coordinates: [[116, 40], [116.01, 40], [116.01, 40.01], [116, 40.01], [116, 40]] };

describe('fence area', () => {
  it('measures a 0.01° square at 40°N as about 0.945 km² (either winding, open or closed)', () => {
    const a = shapeArea(square!);
    // 0.01° of latitude ≈ 1111.9 m, of longitude at 40° ≈ 851.8 m on the 6371008.8 m sphere (turf's, the server's)
    expect(a).toBeGreaterThan(943_000);
    expect(a).toBeLessThan(948_000);
    const ring = (square as { Coordinates: [number, number][] }).Coordinates;
    expect(ringArea([...ring].reverse())).toBeCloseTo(a, 3);
    expect(ringArea(ring.slice(0, 4))).toBeCloseTo(a, 3);
  });

  it("gives a circle's area as πr², and its drawn ring about the same", () => {
    expect(circleArea(1000)).toBeCloseTo(Math.PI * 1e6, 3);
    expect(ringArea(circleRing([116, 40], 1000)) / circleArea(1000)).toBeGreaterThan(0.99);
    expect(circleArea(0)).toBe(0);
  });

  it('picks m², ha or km² by size', () => {
    expect(areaValue(950)).toMatchObject({ unit: 'm2', digits: 0 });
    expect(areaValue(25_000)).toMatchObject({ unit: 'ha', value: 2.5, digits: 2 });
    expect(areaValue(947_000)).toMatchObject({ unit: 'ha', value: 94.7, digits: 1 });
    expect(areaValue(12_500_000)).toMatchObject({ unit: 'km2', value: 12.5, digits: 1 });
  });
});

describe('fence form', () => {
  it('names every missing part (§5) with the contract sentence, in both languages', () => {
    const en = issuesOf(emptyDraft(), 'en', '+08:00');
    expect([...en.keys()].sort()).toEqual(['collection', 'imeis', 'label', 'postback', 'shape']);
    expect(en.get('imeis')).toBe('Choose at least one device.');
    const zh = issuesOf(emptyDraft(), 'zh', '+08:00');
    expect(zh.get('imeis')).toBe('请至少选择一台设备。');
    for (const text of [...en.values(), ...zh.values()]) expect(text).not.toMatch(/validation\./);
  });

  it('accepts a complete draft and sends what the contract asks', () => {
    const draft: FenceDraft = {
      ...emptyDraft(),
      label: ' Wetland ',
      shape: square,
      imeis: ['860000000000011'],
      collection: { mode: 'INTERVAL', minutes: 5, hours: [] },
      postback: { mode: 'HOUR', hours: [12, 0], packetCount: null, packetSize: null, realtime: false },
    };
    expect(issuesOf(draft, 'en', '+08:00').size).toBe(0);
    expect(bodyOf(draft, '+08:00')).toMatchObject({ inOrOut: 'ENTER', ruleType: 1, enabled: 1, collection: { Mode: 'INTERVAL', IntervalMinutes: 5 }, postback: { Mode: 'HOUR', Hours: [0, 12] } });
  });

  it('refuses a circle of radius 0 and a longitude over 180', () => {
    const base = { ...emptyDraft(), label: 'x', imeis: ['860000000000011'] };
    expect(issuesOf({ ...base, shape: { Type: 'Circle', Center: [116, 40], Radius: 0 } }, 'en', '+08:00').get('shape')).toMatch(/more than 0/);
    expect(issuesOf({ ...base, shape: { Type: 'Polygon', Coordinates: [[181, 0], [1, 1], [2, 0]] } }, 'en', '+08:00').get('shape')).toMatch(/longitude/);
  });
});

describe('.shp check before upload', () => {
  it('takes only .shp under 10 MB', () => {
    expect(shpProblem({ name: 'a.SHP', size: 100 })).toBeNull();
    expect(shpProblem({ name: 'a.zip', size: 100 })).toBe('type');
    expect(shpProblem({ name: 'a.shp', size: 10 * 1024 * 1024 })).toBe('size');
    expect(shpProblem({ name: 'a.shp', size: 10 * 1024 * 1024 - 1 })).toBeNull();
  });
});
