import { describe, expect, it } from 'vitest';
import { calls, type CallDef } from './index.js';
import { SENSOR_FILTER } from './constants.js';
import { SENSOR_FILTER_FLAGS, SensorFlag, SensorKind } from './device.js';
import { EXPORT_KINDS } from './calls/export.js';
import { SENSOR_CALL_KINDS, SENSOR_CALLS } from './calls/sensor.js';
import { LANGS } from './lang.js';
import { MESSAGES, message } from './messages.js';
import { SENSOR_KIND_NAMES, SENSOR_KINDS, type SensorKindRow } from './sensor-kinds.js';

const rows = SENSOR_KIND_NAMES.map((kind) => [kind, SENSOR_KINDS[kind] as SensorKindRow] as const);
const texts = (t: unknown) => LANGS.map((lang) => (t as Record<string, unknown> | undefined)?.[lang]);

describe.each(rows)('sensor kind %s', (kind, row) => {
  it('has a name, an in-sentence name and a file name in both languages', () => {
    for (const t of [row.label, row.noun, row.file]) for (const text of texts(t)) expect(typeof text === 'string' && text.trim() !== '', JSON.stringify(t)).toBe(true);
    for (const text of texts(row.file)) expect(text).not.toMatch(/[/\\:*?"<>|]/);
  });

  it('has 1 to 4 value columns (sensor_records.v1..v4), each with a field, a label, a unit, an export header and a colour', () => {
    expect(row.values.length).toBeGreaterThanOrEqual(1);
    expect(row.values.length).toBeLessThanOrEqual(4);
    expect(new Set(row.values.map((v) => v.field)).size).toBe(row.values.length);
    for (const v of row.values) {
      expect(v.field).toMatch(/^[A-Z][A-Za-z0-9]*$/);
      expect(v.field).not.toBe('Time');
      for (const t of [v.label, v.unit, v.export]) for (const text of texts(t)) expect(typeof text === 'string' && text.trim() !== '', `${v.field}: ${JSON.stringify(t)}`).toBe(true);
      expect(v.color).toMatch(/^#[0-9a-f]{6}$/);
    }
  });

  it('has a flag of its own in Device.Sensor and a tree filter value of its own', () => {
    expect(SensorFlag[row.flag as keyof typeof SensorFlag]).toBe(1 << row.bit);
    expect(SENSOR_FILTER[row.flag as keyof typeof SENSOR_FILTER]).toBe(row.filter);
    expect(SENSOR_FILTER_FLAGS[row.filter]).toBe(1 << row.bit);
  });

  it('is stored, exported and refused by name', () => {
    expect(SensorKind[kind]).toEqual({ id: row.id, values: row.values.map((v) => v.field) });
    expect(EXPORT_KINDS).toContain(kind);
    for (const lang of LANGS) expect(message(lang, `sensor.${row.flag}`)).toBe(row.noun[lang]);
  });

  it('has its count and list call in `calls`, by the spec name Get<flag>Count / Get<flag>List', () => {
    const all = calls as unknown as Record<string, CallDef>;
    const { count, list } = SENSOR_CALLS[kind];
    expect(count.path).toBe(`/api/Sensor/Get${row.flag}Count`);
    expect(list.path).toBe(`/api/Sensor/Get${row.flag}List`);
    expect(all[`Get${row.flag}Count`], `calls.Get${row.flag}Count (calls/sensor.ts, calls/index.ts)`).toBe(count);
    expect(all[`Get${row.flag}List`], `calls.Get${row.flag}List (calls/sensor.ts, calls/index.ts)`).toBe(list);
    expect(Object.keys(SENSOR_CALL_KINDS[kind].record.shape)).toEqual(['Time', ...row.values.map((v) => v.field)]);
  });
});

describe('the sensor kinds table', () => {
  it('gives every kind its own id, bit, filter value and flag, clear of the other sensors', () => {
    const unique = (xs: readonly unknown[]) => expect(new Set(xs).size).toBe(xs.length);
    unique(rows.map(([, r]) => r.id));
    unique(rows.map(([, r]) => r.flag));
    unique(Object.values(SensorFlag));
    unique(Object.values(SENSOR_FILTER));
    expect(Object.keys(SensorFlag).length).toBe(6 + rows.length);
    expect(Object.keys(SENSOR_FILTER).length).toBe(6 + rows.length);
    expect(Object.keys(MESSAGES).filter((k) => /^sensor\.[A-Z]/.test(k))).toEqual(expect.arrayContaining(rows.map(([, r]) => `sensor.${r.flag}`)));
  });

  it('keeps the flags and filter values in bit and value order, the ones before the table as they were (the icons and the filter menu list them so)', () => {
    expect(Object.entries(SensorFlag)).toEqual(Object.entries(SensorFlag).sort((a, b) => a[1] - b[1]));
    expect(Object.keys(SensorFlag).slice(0, 13)).toEqual(['GNSS', 'Acceleration', 'OldAcceleration', 'Temperature', 'WaterDepth', 'Pressure', 'Image', 'Video', 'Audio', 'RedInfraredLight', 'LightIntensity', 'Humidity', 'Magnetism']);
    expect(SENSOR_FILTER).toMatchObject({ All: 0, Acceleration: 1, Temperature: 2, Image: 3, Video: 4, Pressure: 5, Audio: 6, GNSS: 7, WaterDepth: 10, RedInfraredLight: 11, LightIntensity: 12, Humidity: 13, Magnetism: 14 });
    expect(Object.entries(SENSOR_FILTER)).toEqual(Object.entries(SENSOR_FILTER).sort((a, b) => a[1] - b[1]));
    expect(Object.keys(SENSOR_FILTER).slice(0, 13)).toEqual(['All', 'Acceleration', 'Temperature', 'Image', 'Video', 'Pressure', 'Audio', 'GNSS', 'WaterDepth', 'RedInfraredLight', 'LightIntensity', 'Humidity', 'Magnetism']);
  });
});
