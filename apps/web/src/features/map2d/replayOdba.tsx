import { useQueries } from '@tanstack/react-query';
import { ACCELERATION_BINARY_MAX_DAYS, ACCELERATION_FLAGS, parseTime, SensorFlag } from '@wildtrack/contract';
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { burstInterval, burstNear } from '../../lib/acceleration/moment';
import { burstSeriesQuery } from '../../lib/acceleration/series';
import { useSignedIn, useZone } from '../../lib/session';

/**
 * The replay's ODBA (issue 13 item 3): for each chosen device with an acceleration sensor, the mean ODBA
 * of the burst nearest the replay's moment. The range's bursts are read once per device (the same query
 * as /track's acceleration panel), then each slider move only looks the moment up.
 */

const DAY_MS = 86_400_000;

/** What a device's legend row says of the moment: a value (g), no burst near, or why nothing is said. */
export type ReplayOdba = { state: 'value'; odba: number } | { state: 'none' } | { state: 'loading' } | { state: 'error' } | { state: 'tooLong' };

const hasAcceleration = (sensors: number) => ACCELERATION_FLAGS.some((f) => (sensors & SensorFlag[f]) !== 0);

/** Per device with the flag, its ODBA at `time`; devices without the flag are absent. */
export function useReplayOdba(devices: readonly { imei: string; sensors: number }[], range: { start: string; end: string }, time: number | null): Map<string, ReplayOdba> {
  const zone = useZone();
  const signedIn = useSignedIn();
  const from = parseTime(range.start, zone);
  const to = parseTime(range.end, zone);
  const tooLong = from !== null && to !== null && to - from > ACCELERATION_BINARY_MAX_DAYS * DAY_MS + DAY_MS;
  const withFlag = devices.filter((d) => hasAcceleration(d.sensors));
  const queries = useQueries({
    queries: withFlag.map((d) => burstSeriesQuery(tooLong ? null : { imei: d.imei, start: range.start, end: range.end }, zone, signedIn)),
  });
  const out = new Map<string, ReplayOdba>();
  withFlag.forEach((d, i) => {
    const q = queries[i]!;
    const series = q.data?.series;
    if (tooLong) out.set(d.imei, { state: 'tooLong' });
    else if (series) {
      const near = time === null ? null : burstNear(series, time, intervalOf(series));
      out.set(d.imei, near ? { state: 'value', odba: near.odba } : { state: 'none' });
    } else out.set(d.imei, q.isError ? { state: 'error' } : { state: 'loading' });
  });
  return out;
}

/** Each series' burst interval, measured once (not per slider move). */
const intervals = new WeakMap<object, number>();
function intervalOf(series: Parameters<typeof burstInterval>[0]): number {
  let v = intervals.get(series);
  if (v === undefined) intervals.set(series, (v = burstInterval(series)));
  return v;
}

/** The figure in a legend row: "ODBA 0.42 g", "ODBA —" with why on hover; nothing while loading. */
export function ReplayOdbaTag({ odba }: { odba: ReplayOdba | undefined }) {
  const { t } = useTranslation();
  if (!odba || odba.state === 'loading') return null;
  const text = odba.state === 'value' ? t('map2d.odba', { value: odba.odba.toFixed(3) }) : t('map2d.odba', { value: '—' });
  const why = odba.state === 'none' ? t('map2d.odbaNone') : odba.state === 'error' ? t('map2d.odbaError') : odba.state === 'tooLong' ? t('map2d.odbaTooLong', { days: ACCELERATION_BINARY_MAX_DAYS }) : t('map2d.odbaHint');
  return (
    <Tooltip title={why}>
      <span className="wt-map2d-odba" data-testid="replay-odba" data-state={odba.state} data-odba={odba.state === 'value' ? odba.odba : ''}>
        {text}
      </span>
    </Tooltip>
  );
}
