import { BatteryType, InstrSupportFlag, InstructionParamsSchema, SensorFlag } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { i18n, setLang } from '../../i18n';
import { describeParams } from './describe';
import { batteryWarning, emptyForm, formIssues, missingSupport, paramsOf, typesOf, type InstrForm } from './model';

const form = (patch: (f: InstrForm) => void): InstrForm => {
  const f = emptyForm();
  patch(f);
  return f;
};

describe('the /instr form', () => {
  it('asks for the interval (§8 "collection interval cannot be empty") and keeps it within 1..1440 min', () => {
    expect(formIssues(emptyForm()).map((i) => i.key)).toEqual(['instr.error.intervalRequired']);
    expect(formIssues(form((f) => (f.gnss.intervalMinutes = 0))).map((i) => i.key)).toEqual(['instr.error.intervalRange']);
    expect(formIssues(form((f) => (f.gnss.intervalMinutes = 10)))).toEqual([]);
    expect(formIssues(form((f) => (f.sections = [])))).toEqual([{ field: 'sections', key: 'instr.error.nothingChosen' }]);
  });

  it('caps the adaptive low-frequency hours at 12, 8 and 6 (§9) and needs each level', () => {
    const f = form((f) => {
      f.gnss.mode = 129;
      f.gnss.lowHours = { High: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], Medium: [1, 2, 3, 4, 5, 6, 7, 8], Low: [] };
    });
    expect(formIssues(f)).toEqual([
      { field: 'gnss.lowHours.High', key: 'instr.error.tooManyPoints', values: { max: 12 } },
      { field: 'gnss.lowHours.Low', key: 'instr.error.hoursRequired' },
    ]);
  });

  it('needs all three intervals of the adaptive high frequency mode', () => {
    const f = form((f) => {
      f.gnss.mode = 128;
      f.gnss.highIntervals = { High: 10, Medium: null, Low: 60 };
    });
    expect(formIssues(f).map((i) => i.field)).toEqual(['gnss.highIntervals.Medium']);
  });

  it('needs the packet count and size of a postback by count, hours of a postback by hours', () => {
    const f = form((f) => {
      f.sections = ['postback'];
      f.postback.packetCount = 50;
      f.postback.packetSize = 4;
    });
    expect(formIssues(f).map((i) => i.field)).toEqual(['postback.packetSize']);
    f.postback.mode = 'HOUR';
    expect(formIssues(f).map((i) => i.key)).toEqual(['instr.error.hoursRequired']);
  });

  it('writes the params the contract accepts: GNSS and ACC in one collection instruction, postback in its own', () => {
    const f = form((f) => {
      f.sections = ['gnss', 'acc', 'postback'];
      f.gnss.intervalMinutes = 10;
      f.acc = { enabled: true, followGNSS: false, hz: 25, intervalMinutes: 30 };
      f.postback = { mode: 'HOUR', packetCount: null, packetSize: null, hours: [8, 20], realtime: true };
    });
    expect(typesOf(f)).toEqual(['ACQUISITION_FREQUENCY', 'POSTBACK_FREQUENCY']);
    const params = paramsOf(f);
    expect(params).toEqual([
      { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 10 }, ACC: { Mode: 'INTERVAL', FrequencyHz: 25, IntervalMinutes: 30 } },
      { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'HOUR', Hours: [8, 20], Realtime: true } },
    ]);
    for (const p of params) expect(InstructionParamsSchema.safeParse(p).success).toBe(true);
    const off = paramsOf(form((f) => ((f.sections = ['acc']), (f.acc.enabled = false))));
    expect(off).toEqual([{ Type: 'ACQUISITION_FREQUENCY', ACC: { Mode: 'OFF' } }]);
  });

  it('names the InstrSupport flags and the sensor a device lacks for the chosen options (§3)', () => {
    const f = form((f) => {
      f.sections = ['gnss', 'acc', 'postback'];
      f.gnss.mode = 128;
      f.postback.mode = 'HOUR';
      f.acc.hz = 25;
    });
    expect(missingSupport(f, { InstrSupport: 0, Sensor: SensorFlag.GNSS })).toEqual([
      'Acceleration',
      'GNSSCollectionAdaptiveHighFrequency',
      'DataPostbackHours',
      'AccCollectionSwitch',
      'AccCollectionFrequency',
    ]);
    const all = Object.values(InstrSupportFlag).reduce((m, b) => m | b, 0);
    expect(missingSupport(f, { InstrSupport: all, Sensor: SensorFlag.GNSS | SensorFlag.Acceleration })).toEqual([]);
    // a normal schedule and a postback by count need nothing
    expect(missingSupport(emptyForm(), { InstrSupport: 0, Sensor: SensorFlag.GNSS })).toEqual([]);
  });

  it('warns of a low or an above-full battery by the §9 levels, on the battery type\'s curve', () => {
    expect(batteryWarning(3.7, BatteryType.Li)).toBe('low');
    expect(batteryWarning(3.6, BatteryType.Li)).toBe('low');
    expect(batteryWarning(3.9, BatteryType.Li)).toBeNull();
    expect(batteryWarning(4.25, BatteryType.Li)).toBe('high');
    expect(batteryWarning(3.6, BatteryType.LiSOCl2Added)).toBeNull();
    expect(batteryWarning(null, BatteryType.Li)).toBeNull();
  });

  it('says what each device will receive, in both languages', () => {
    const p = paramsOf(
      form((f) => {
        f.sections = ['gnss', 'acc'];
        f.gnss.intervalMinutes = 10;
        f.acc = { enabled: true, followGNSS: true, hz: 25, intervalMinutes: null };
      }),
    );
    setLang('en');
    expect(describeParams(p[0]!, i18n.t)).toEqual(['A fix every 10 min', 'Acceleration with each fix, at 25 Hz']);
    setLang('zh');
    expect(describeParams(p[0]!, i18n.t)).toEqual(['每 10 分钟定位一次', '每次定位时采集加速度，25 Hz']);
    setLang('en');
  });
});

describe('the hour picker', () => {
  it('takes at most its cap of hours: the others are disabled once full, and a chosen one can be taken away', async () => {
    const { render, screen, fireEvent } = await import('@testing-library/react');
    const { HourPicker } = await import('./components/HourPicker');
    const changes: number[][] = [];
    const view = (value: number[]) => <HourPicker value={value} onChange={(v) => changes.push(v)} max={2} label="Hours" testId="hp" />;
    const { rerender } = render(view([6]));
    fireEvent.click(screen.getByRole('checkbox', { name: '08:00' }));
    expect(changes.at(-1)).toEqual([6, 8]);
    rerender(view([6, 8]));
    expect((screen.getByRole('checkbox', { name: '09:00' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('checkbox', { name: '06:00' }) as HTMLInputElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('checkbox', { name: '09:00' }));
    expect(changes).toHaveLength(1);
    fireEvent.click(screen.getByRole('checkbox', { name: '06:00' }));
    expect(changes.at(-1)).toEqual([8]);
    expect(screen.getByTestId('hp').textContent).toContain('2 of at most 2 time points chosen');
  });
});
