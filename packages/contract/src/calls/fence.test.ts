import { describe, expect, it } from 'vitest';
import { CreateFence, FenceImportFields, FenceSettingsSchema, closeRing, openRing } from './fence.js';

const settings = {
  inOrOut: 'ENTER',
  ruleType: 1,
  imeis: ['860000000000001'],
  collection: { Mode: 'INTERVAL', IntervalMinutes: 5 },
  postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512 },
};
const square = [[116, 39], [116.1, 39], [116.1, 39.1], [116, 39.1]];

describe('fence contract', () => {
  it('takes a finished polygon or a circle with a name, a device, a collection time and a transmission frequency', () => {
    expect(CreateFence.body.safeParse({ label: 'Reserve', shape: { Type: 'Polygon', Coordinates: square }, ...settings }).success).toBe(true);
    expect(CreateFence.body.safeParse({ label: 'Nest', shape: { Type: 'Circle', Center: [116, 39], Radius: 300 }, ...settings }).success).toBe(true);
  });

  it.each([
    ['no name', { label: ' ', shape: { Type: 'Circle', Center: [116, 39], Radius: 300 } }],
    ['radius 0', { label: 'a', shape: { Type: 'Circle', Center: [116, 39], Radius: 0 } }],
    ['radius < 0', { label: 'a', shape: { Type: 'Circle', Center: [116, 39], Radius: -5 } }],
    ['longitude over 180', { label: 'a', shape: { Type: 'Polygon', Coordinates: [[181, 0], [0, 1], [1, 1]] } }],
    ['latitude over 90', { label: 'a', shape: { Type: 'Circle', Center: [0, 90.5], Radius: 10 } }],
    ['two distinct vertices', { label: 'a', shape: { Type: 'Polygon', Coordinates: [[0, 0], [1, 1], [0, 0], [1, 1]] } }],
  ])('refuses %s', (_name, over) => {
    expect(CreateFence.body.safeParse({ ...settings, ...over }).success).toBe(false);
  });

  it('needs at least one device, a collection time and a transmission frequency', () => {
    const shape = { Type: 'Circle', Center: [116, 39], Radius: 300 };
    expect(CreateFence.body.safeParse({ label: 'a', shape, ...settings, imeis: [] }).success).toBe(false);
    const { collection: _c, ...noCollection } = settings;
    expect(CreateFence.body.safeParse({ label: 'a', shape, ...noCollection }).success).toBe(false);
    const { postback: _p, ...noPostback } = settings;
    expect(CreateFence.body.safeParse({ label: 'a', shape, ...noPostback }).success).toBe(false);
  });

  it('closes and opens rings', () => {
    const closed = closeRing(square as [number, number][]);
    expect(closed).toHaveLength(5);
    expect(openRing(closed)).toHaveLength(4);
    expect(closeRing(closed)).toEqual(closed);
  });

  it('an import names its settings as JSON text', () => {
    expect(FenceImportFields.safeParse({ settings: JSON.stringify(settings) }).success).toBe(true);
    expect(FenceSettingsSchema.safeParse(settings).success).toBe(true);
  });
});
