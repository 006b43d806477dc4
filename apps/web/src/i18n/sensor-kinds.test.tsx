import { EXPORT_KINDS, LANGS, LOCALE_TAG, SENSOR_FILTER, SENSOR_FLAG_NAMES, SENSOR_KIND_NAMES, SENSOR_KINDS } from '@wildtrack/contract';
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SENSOR_ICON } from '../components/SensorIcons';
import { FORM_KINDS } from '../features/download/model';
import { i18n, setLang } from '.';
import { isSensorKind, useKindTexts } from './sensor-kinds';

const kindFlags: readonly string[] = SENSOR_KIND_NAMES.map((k) => SENSOR_KINDS[k].flag);
const otherKinds = EXPORT_KINDS.filter((k) => !isSensorKind(k));
const otherFlags = SENSOR_FLAG_NAMES.filter((f) => !kindFlags.includes(f));
const otherFilters = Object.keys(SENSOR_FILTER).filter((f) => !kindFlags.includes(f));

/** Where the console names a kind or a sensor flag, and whether it names it as a title or inside a sentence. */
const KIND_KEYS = [
  ['trackSensors.kind', 'label', ['positions', 'acceleration']],
  ['download.kind', 'label', otherKinds],
  ['export.kind', 'noun', otherKinds],
] as const;
const FLAG_KEYS = [
  ['sensor', otherFlags],
  ['tree.sensorFilter', otherFilters],
] as const;

describe.each(LANGS)("the sensor kinds' texts in %s", (lang) => {
  const texts = () => {
    act(() => setLang(lang));
    return renderHook(() => useKindTexts()).result.current;
  };

  it("name every kind of the contract's table by its row, wherever a kind or its flag is named", () => {
    const t = texts();
    expect(t.lang).toBe(lang);
    for (const kind of SENSOR_KIND_NAMES) {
      const row = SENSOR_KINDS[kind];
      for (const [key, form] of KIND_KEYS) expect(t.kind(kind, key, form)).toBe(row[form][lang]);
      for (const [key] of FLAG_KEYS) expect(t.flag(row.flag, key)).toBe(row.label[lang]);
    }
  });

  it('name the other kinds and flags from the catalogue, which holds them and only them', () => {
    const t = texts();
    const has = (key: string) => i18n.exists(key, { lng: LOCALE_TAG[lang] });
    for (const [key, form, others] of KIND_KEYS) {
      for (const kind of others) {
        expect(has(`${key}.${kind}`), `${key}.${kind}`).toBe(true);
        expect(t.kind(kind, key, form)).toBe(i18n.t(`${key}.${kind}`, { lng: LOCALE_TAG[lang] }));
      }
      // a key beside a row would be a second copy that drifts from it
      for (const kind of SENSOR_KIND_NAMES) expect(has(`${key}.${kind}`), `${key}.${kind}`).toBe(false);
    }
    for (const [key, others] of FLAG_KEYS) {
      for (const flag of others) expect(has(`${key}.${flag}`), `${key}.${flag}`).toBe(true);
      for (const flag of kindFlags) expect(has(`${key}.${flag}`), `${key}.${flag}`).toBe(false);
    }
  });
});

describe("the sensor kinds' places on the console", () => {
  it('give every kind a download checkbox and every flag an icon', () => {
    for (const kind of SENSOR_KIND_NAMES) expect(FORM_KINDS).toContain(kind);
    for (const flag of SENSOR_FLAG_NAMES) expect(SENSOR_ICON[flag], flag).toBeDefined();
  });
});
