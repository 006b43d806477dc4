import { PRECISION_GRADES } from '@wildtrack/contract';
import { Button, Checkbox, InputNumber, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { gradesAfter, NO_FILTER, NUMERIC_FILTERS, precisionInput, reversedBounds, upperOf, type FilterDraft, type NumericFilter } from '../model';

/** Each numeric filter's unit, shown after its boxes. */
const UNIT: Record<NumericFilter, string> = { speed: 'km/h', altitude: 'm', temperature: '°C', voltage: 'V', activity: '', hdop: '', satellites: '' };

/** The step of each filter's boxes (satellites are whole). */
const STEP: Record<NumericFilter, number> = { speed: 1, altitude: 10, temperature: 1, voltage: 0.1, activity: 1, hdop: 0.5, satellites: 1 };

/** The input rules the server checks too: HDOP 0-99.9, satellites 0-64. */
const RANGE: Partial<Record<NumericFilter, { min: number; max: number; precision?: number }>> = {
  hdop: { min: 0, max: 99.9 },
  satellites: { min: 0, max: 64, precision: 0 },
};

interface Props {
  value: FilterDraft;
  onApply: (filter: FilterDraft) => void;
}

/**
 * The position filters: §9's speed, altitude, temperature, voltage and activity, and HDOP and
 * satellites, each "greater than" with an optional upper bound ("at most"); the precision grades A–E
 * and N as boxes (at least one stays ticked, so §5's rule holds by construction); valid fixes only. An
 * upper bound not above its lower one is said beside the boxes and is not applied.
 */
export function FixFilters({ value, onApply }: Props) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<FilterDraft>(value);
  const [seen, setSeen] = useState(value);
  // A filter applied elsewhere (reset by a new device) shows here.
  if (seen !== value) {
    setSeen(value);
    setDraft(value);
  }
  const reversed = reversedBounds(draft);
  const letters = precisionInput(draft.precision);

  const apply = (): void => {
    if (reversedBounds(draft).length > 0) return;
    const next = { ...draft, precision: letters };
    setDraft(next);
    onApply(next);
  };

  const box = (key: NumericFilter, upper: boolean) => {
    const field = upper ? upperOf(key) : key;
    const name = t(`track.filter.${key}`);
    const range = RANGE[key];
    return (
      <InputNumber<number>
        aria-label={t(upper ? 'track.filter.atMost' : 'track.filter.greaterThan', { name })}
        data-testid={`filter-${field}`}
        value={draft[field]}
        status={upper && reversed.includes(key) ? 'error' : undefined}
        onChange={(v) => setDraft({ ...draft, [field]: typeof v === 'number' ? v : null })}
        onPressEnter={apply}
        className="wt-track-filter-box"
        step={STEP[key]}
        min={range?.min}
        max={range?.max}
        precision={range?.precision}
        placeholder={upper ? t('track.filter.none') : undefined}
      />
    );
  };

  return (
    <div className="wt-track-filters" data-testid="fix-filters">
      <div className="wt-track-filter-grid">
        {NUMERIC_FILTERS.map((key) => (
          <div key={key} className="wt-track-filter" role="group" aria-label={t(`track.filter.${key}`)}>
            <span className="wt-track-filter-label">
              {t(`track.filter.${key}`)}
              {UNIT[key] ? <span className="wt-track-filter-unit"> ({UNIT[key]})</span> : null}
            </span>
            <Space.Compact>
              <span className="wt-track-filter-op" aria-hidden>
                &gt;
              </span>
              {box(key, false)}
              <span className="wt-track-filter-op wt-track-filter-op-mid" aria-hidden>
                ≤
              </span>
              {box(key, true)}
            </Space.Compact>
          </div>
        ))}
        <div className="wt-track-filter" role="group" aria-label={t('track.filter.precision')}>
          <Tooltip title={t('track.filter.precisionHelp')}>
            <span className="wt-track-filter-label">{t('track.filter.precision')}</span>
          </Tooltip>
          <span className="wt-track-grades" data-testid="filter-precision" data-value={letters}>
            {PRECISION_GRADES.map((letter) => {
              const checked = letters.includes(letter);
              return (
                <Checkbox
                  key={letter}
                  data-testid={`filter-grade-${letter}`}
                  checked={checked}
                  // the last ticked letter stays: no grade at all is not a filter §5 knows
                  disabled={checked && letters.length === 1}
                  onChange={(e) => setDraft({ ...draft, precision: gradesAfter(letters, letter, e.target.checked) })}
                >
                  {letter}
                </Checkbox>
              );
            })}
          </span>
        </div>
        <Checkbox className="wt-track-filter-check" data-testid="filter-valid-only" checked={draft.validOnly} onChange={(e) => setDraft({ ...draft, validOnly: e.target.checked })}>
          {t('track.filter.validOnly')}
        </Checkbox>
        <Space className="wt-track-filter-actions">
          <Button
            data-testid="filter-reset"
            onClick={() => {
              setDraft(NO_FILTER);
              onApply(NO_FILTER);
            }}
          >
            {t('common.reset')}
          </Button>
          <Button type="primary" data-testid="filter-apply" disabled={reversed.length > 0} onClick={apply}>
            {t('track.filter.apply')}
          </Button>
        </Space>
      </div>
      {reversed.length > 0 ? (
        <Typography.Text className="wt-track-filter-note" type="danger" data-testid="filter-bounds-error" role="alert">
          {reversed.map((key) => t('track.filter.boundsReversed', { name: t(`track.filter.${key}`) })).join(' ')}
        </Typography.Text>
      ) : (
        <Typography.Text className="wt-track-filter-note" type="secondary">
          {t('track.filter.hint')}
        </Typography.Text>
      )}
    </div>
  );
}
