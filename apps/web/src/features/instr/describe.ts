import { HOUR_OPTIONS, type InstructionParamsInput } from '@wildtrack/contract';
import type { TFunction } from 'i18next';

const hoursText = (hours: readonly number[]) => hours.map((h) => HOUR_OPTIONS[h] ?? String(h)).join(', ');

/**
 * What an instruction tells a device, in the interface language, one line per part: the summary a user
 * reads before Send (§2.1 /instr). The history's Detail is the server's own wording of the same.
 */
export function describeParams(p: InstructionParamsInput, t: TFunction): string[] {
  const out: string[] = [];
  if (p.Type === 'POSTBACK_FREQUENCY') {
    const b = p.Postback;
    out.push(
      b.Mode === 'HOUR'
        ? t('instr.say.postbackHours', { hours: hoursText(b.Hours) })
        : t('instr.say.postbackCount', { count: b.PacketCount, size: b.PacketSize }),
    );
    if (b.Realtime) out.push(t('instr.say.realtime'));
    return out;
  }
  const g = p.GNSS;
  if (g) {
    if (g.Mode === 'INTERVAL') out.push(t('instr.say.gnssInterval', { count: g.IntervalMinutes }));
    else if (g.Mode === 'HOURS') out.push(t('instr.say.gnssHours', { hours: hoursText(g.Hours) }));
    else if (g.Mode === 'ADAPTIVE_HIGH') out.push(t('instr.say.gnssHigh', { high: g.High, medium: g.Medium, low: g.Low }));
    else out.push(t('instr.say.gnssLow', { high: hoursText(g.High), medium: hoursText(g.Medium), low: hoursText(g.Low) }));
  }
  const a = p.ACC;
  if (a) {
    const hz = a.Mode === 'OFF' || a.FrequencyHz === null || a.FrequencyHz === undefined ? t('instr.say.hzKept') : t('instr.say.hz', { hz: a.FrequencyHz });
    if (a.Mode === 'OFF') out.push(t('instr.say.accOff'));
    else if (a.Mode === 'FOLLOW_GNSS') out.push(t('instr.say.accFollow', { hz }));
    else out.push(t('instr.say.accInterval', { count: a.IntervalMinutes, hz }));
  }
  return out;
}
