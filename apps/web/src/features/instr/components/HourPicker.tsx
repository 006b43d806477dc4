import { HOUR_OPTIONS } from '@wildtrack/contract';
import { Checkbox, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Hours 00:00 to 23:00 (§9) as 24 checkboxes, at most `max` chosen: once full, the others are disabled
 * until one is taken away (§8 "too many time points" never has to be said after the fact).
 */
export function HourPicker({ value, onChange, max, label, testId }: { value: number[]; onChange: (hours: number[]) => void; max: number; label: string; testId: string }) {
  const { t } = useTranslation();
  const full = value.length >= max;
  return (
    <div className="wt-hour-picker" data-testid={testId} data-count={value.length}>
      <Checkbox.Group<number>
        className="wt-hour-grid"
        aria-label={label}
        role="group"
        value={value}
        onChange={(hours) => onChange([...hours].sort((a, b) => a - b))}
        options={HOUR_OPTIONS.map((text, hour) => ({ value: hour, label: text, disabled: full && !value.includes(hour) }))}
      />
      <Typography.Text type={full ? 'warning' : 'secondary'} className="wt-hour-count">
        {t('instr.hoursChosen', { count: value.length, max })}
      </Typography.Text>
    </div>
  );
}
