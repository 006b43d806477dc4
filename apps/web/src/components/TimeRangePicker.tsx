import { DatePicker, Select, Space } from 'antd';
import { QUERY_SPAN_DAYS, TIME_FORMAT } from '@wildtrack/contract';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { resolveRange, type PositionRange } from '../lib/positionSelection';
import { useZone } from '../lib/session';

/**
 * A query range as §9 gives it: a span (1 day … 10 years, with the date presets' meaning) or a custom
 * start and end. Times are the user's zone's wall-clock text; the picker shows them as they are.
 */
interface Props {
  value: PositionRange;
  onChange: (range: PositionRange) => void;
  disabled?: boolean;
}

const CUSTOM = 0;

export function spanLabelKey(days: number): { key: string; count: number } {
  if (days <= 15) return { key: 'timeRange.days', count: days };
  if (days < 365) return { key: 'timeRange.months', count: days === 30 ? 1 : days === 90 ? 3 : days === 182 ? 6 : Math.round(days / 30) };
  return { key: 'timeRange.years', count: Math.round(days / 365) };
}

export function TimeRangePicker({ value, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const shown = resolveRange(value, useZone());
  const options = [
    ...QUERY_SPAN_DAYS.map((days) => {
      const { key, count } = spanLabelKey(days);
      return { value: days, label: t(key, { count }) };
    }),
    { value: CUSTOM, label: t('timeRange.custom') },
  ];
  const picked: [Dayjs, Dayjs] | null = shown.start && shown.end ? [dayjs(shown.start, TIME_FORMAT), dayjs(shown.end, TIME_FORMAT)] : null;
  return (
    <Space.Compact data-testid="time-range">
      <Select
        aria-label={t('timeRange.span')}
        data-testid="time-span"
        style={{ width: 130 }}
        value={value.span ?? CUSTOM}
        options={options}
        disabled={disabled}
        onChange={(days: number) => {
          if (days === CUSTOM) onChange({ span: null, start: shown.start, end: shown.end });
          else onChange({ span: days, start: '', end: '' });
        }}
      />
      <DatePicker.RangePicker
        aria-label={t('timeRange.range')}
        data-testid="time-range-picker"
        showTime={{ format: 'HH:mm:ss' }}
        format={TIME_FORMAT}
        allowClear={false}
        disabled={disabled}
        value={picked}
        onChange={(dates) => {
          const [a, b] = dates ?? [];
          if (a && b) onChange({ span: null, start: a.format(TIME_FORMAT), end: b.format(TIME_FORMAT) });
        }}
      />
    </Space.Compact>
  );
}
