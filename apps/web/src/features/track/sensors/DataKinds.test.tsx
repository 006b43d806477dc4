import { LANGS, SENSOR_KIND_NAMES, SENSOR_KINDS, SensorFlag } from '@wildtrack/contract';
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { setLang } from '../../../i18n';
import { resetPositionSelection } from '../../../lib/positionSelection';
import { signInForTest } from '../../../test/session';
import { DataKinds } from './DataKinds';
import { KIND_VALUES } from './kinds';

beforeEach(() => {
  signInForTest();
  resetPositionSelection();
});

const everySensor = Object.values(SensorFlag).reduce((mask, bit) => mask | bit, 0);

describe("/track's data kinds, made from the contract's kinds table", () => {
  it.each(LANGS)('offer a tab for every kind of the table, named in %s, to a device with every sensor', (lang) => {
    act(() => setLang(lang));
    render(
      <AppProviders>
        <DataKinds imei="860000000000777" sensors={everySensor}>
          <div />
        </DataKinds>
      </AppProviders>,
    );
    const tabs = screen.getByTestId('data-kinds');
    for (const kind of SENSOR_KIND_NAMES) {
      const tab = tabs.querySelector(`[data-kind="${kind}"]`);
      expect(tab, `${kind}'s tab`).not.toBeNull();
      expect(tab!.textContent).toBe(SENSOR_KINDS[kind].label[lang]);
    }
    // positions and acceleration keep their catalogue texts
    expect(tabs.querySelector('[data-kind="positions"]')!.textContent).toBe(lang === 'zh' ? '定位' : 'Positions');
    expect(tabs.querySelector('[data-kind="acceleration"]')!.textContent).toBe(lang === 'zh' ? '加速度' : 'Acceleration');
  });

  it("draw every value of a kind with its row's field, label, unit and colour", () => {
    for (const kind of SENSOR_KIND_NAMES) {
      expect(KIND_VALUES[kind].map((v) => v.field)).toEqual(SENSOR_KINDS[kind].values.map((v) => v.field));
      for (const v of KIND_VALUES[kind]) for (const lang of LANGS) expect(v.label[lang] && v.unit[lang], `${kind}.${v.field} in ${lang}`).toBeTruthy();
    }
  });
});
