import { DatePicker, Grid, Select, Space } from 'antd';
import { parseTime, QUERY_SPAN_DAYS, TIME_FORMAT } from '@wildtrack/contract';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { customRange, resolveRange, type PositionRange } from '../lib/positionSelection';
import { useZone } from '../lib/session';

/**
 * A query range as §9 gives it: a span (1 day … 10 years, with the date presets' meaning) or a custom
 * start and end. The range holds instants; the picker shows them in the user's zone, so a change of zone
 * shows the same instants with other wall-clock text (and a span is recomputed against that zone's today).
 */
interface Props {
  value: PositionRange;
  onChange: (range: PositionRange) => void;
  disabled?: boolean;
}

const CUSTOM = 0;
/**
 * On a phone (below antd's sm, 576 px: the width at which styles.css puts the two date-times on a row of
 * their own) each date-time has about 150 px, which cut the seconds ("00:00:0"): there they are shown to
 * the minute (the time panel keeps its seconds column). Typed text is read in either format, and the
 * range keeps its seconds.
 */
const NARROW_FORMAT = 'YYYY-MM-DD HH:mm';

export function spanLabelKey(days: number): { key: string; count: number } {
  if (days <= 15) return { key: 'timeRange.days', count: days };
  if (days < 365) return { key: 'timeRange.months', count: days === 30 ? 1 : days === 90 ? 3 : days === 182 ? 6 : Math.round(days / 30) };
  return { key: 'timeRange.years', count: Math.round(days / 365) };
}

export function TimeRangePicker({ value, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const zone = useZone();
  const narrow = Grid.useBreakpoint().sm === false;
  const shown = resolveRange(value, zone);
  /** The instant of a wall-clock text in the zone. */
  const instant = (text: string) => parseTime(text, zone) ?? Date.now();
  const options = [
    ...QUERY_SPAN_DAYS.map((days) => {
      const { key, count } = spanLabelKey(days);
      return { value: days, label: t(key, { count }) };
    }),
    { value: CUSTOM, label: t('timeRange.custom') },
  ];
  const picked: [Dayjs, Dayjs] | null = shown.start && shown.end ? [dayjs(shown.start, TIME_FORMAT), dayjs(shown.end, TIME_FORMAT)] : null;
  return (
    <Space.Compact data-testid="time-range" data-start={shown.start} data-end={shown.end}>
      <Select
        aria-label={t('timeRange.span')}
        data-testid="time-span"
        style={{ width: 130 }}
        value={value.span ?? CUSTOM}
        options={options}
        disabled={disabled}
        onChange={(days: number) => {
          if (days === CUSTOM) onChange(customRange(instant(shown.start), instant(shown.end)));
          else onChange({ span: days });
        }}
      />
      <DatePicker.RangePicker
        aria-label={t('timeRange.range')}
        data-testid="time-range-picker"
        showTime={{ format: 'HH:mm:ss' }}
        format={narrow ? [NARROW_FORMAT, TIME_FORMAT] : TIME_FORMAT}
        allowClear={false}
        disabled={disabled}
        value={picked}
        onChange={(dates) => {
          const [a, b] = dates ?? [];
          if (a && b) onChange(customRange(instant(a.format(TIME_FORMAT)), instant(b.format(TIME_FORMAT))));
        }}
      />
    </Space.Compact>
  );
}
