import { Button, Checkbox, Input, InputNumber, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NO_FILTER, NUMERIC_FILTERS, precisionInput, precisionWasReset, type FilterDraft, type NumericFilter } from '../model';

/** Each numeric filter's unit, shown after its box. */
const UNIT: Record<NumericFilter, string> = { speed: 'km/h', altitude: 'm', temperature: '°C', voltage: 'V', activity: '' };

interface Props {
  value: FilterDraft;
  onApply: (filter: FilterDraft) => void;
}

/**
 * The position filters of §9: speed, altitude, temperature, voltage and activity, each "greater than";
 * precision letters A–E and N with the §5 input rule (applied when the box is left or the filters are
 * applied: unknown letters reset it to every letter, duplicates go); valid fixes only.
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
  const [reset, setReset] = useState(false);

  const settle = (raw: string): string => {
    // Said aloud when the rule threw the typed letters away.
    setReset(precisionWasReset(raw));
    return precisionInput(raw);
  };

  const apply = (): void => {
    const next = { ...draft, precision: settle(draft.precision) };
    setDraft(next);
    onApply(next);
  };

  return (
    <div className="wt-track-filters" data-testid="fix-filters">
      <div className="wt-track-filter-grid">
        {NUMERIC_FILTERS.map((key) => (
          <label key={key} className="wt-track-filter">
            <span className="wt-track-filter-label">{t(`track.filter.${key}`)}</span>
            <Space.Compact>
              <span className="wt-track-filter-op" aria-hidden>
                &gt;
              </span>
              <InputNumber<number>
                aria-label={t('track.filter.greaterThan', { name: t(`track.filter.${key}`) })}
                data-testid={`filter-${key}`}
                value={draft[key]}
                onChange={(v) => setDraft({ ...draft, [key]: typeof v === 'number' ? v : null })}
                onPressEnter={apply}
                style={{ width: 96 }}
                step={key === 'voltage' ? 0.1 : 1}
              />
              {UNIT[key] ? <span className="wt-track-filter-unit">{UNIT[key]}</span> : null}
            </Space.Compact>
          </label>
        ))}
        <label className="wt-track-filter">
          <span className="wt-track-filter-label">{t('track.filter.precision')}</span>
          <Tooltip title={t('track.filter.precisionHelp')}>
            <Input
              aria-label={t('track.filter.precision')}
              data-testid="filter-precision"
              value={draft.precision}
              maxLength={20}
              style={{ width: 110 }}
              className="wt-mono"
              onChange={(e) => {
                setReset(false);
                setDraft({ ...draft, precision: e.target.value.toUpperCase() });
              }}
              onBlur={() => setDraft({ ...draft, precision: settle(draft.precision) })}
              onPressEnter={apply}
            />
          </Tooltip>
        </label>
        <Checkbox className="wt-track-filter-check" data-testid="filter-valid-only" checked={draft.validOnly} onChange={(e) => setDraft({ ...draft, validOnly: e.target.checked })}>
          {t('track.filter.validOnly')}
        </Checkbox>
        <Space className="wt-track-filter-actions">
          <Button
            onClick={() => {
              setReset(false);
              setDraft(NO_FILTER);
              onApply(NO_FILTER);
            }}
          >
            {t('common.reset')}
          </Button>
          <Button type="primary" data-testid="filter-apply" onClick={apply}>
            {t('track.filter.apply')}
          </Button>
        </Space>
      </div>
      {reset ? (
        <Typography.Text className="wt-track-filter-note" type="warning" data-testid="precision-reset">
          {t('track.filter.precisionReset')}
        </Typography.Text>
      ) : (
        <Typography.Text className="wt-track-filter-note" type="secondary">
          {t('track.filter.hint')}
        </Typography.Text>
      )}
    </div>
  );
}
