import { Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Actogram as ActogramData, ActogramCell } from './model';

/** A cell's colour: teal, deeper with more activity (relative to the range's most active hour). */
function colourOf(cell: ActogramCell, max: number): string {
  if (cell.bursts === 0 || !(max > 0)) return 'transparent';
  const a = 0.08 + 0.92 * Math.min(1, cell.odba / max);
  return `rgba(15, 118, 110, ${a.toFixed(3)})`;
}

/**
 * The day × hour actogram of mean ODBA over the range (the picture of activity rhythms): a row per day
 * of the user's zone, 24 hour cells, darker for more activity. A cell with bursts opens them.
 */
export function Actogram({ data, chosen, onChoose }: { data: ActogramData; chosen: ActogramCell | null; onChoose: (cell: ActogramCell) => void }) {
  const { t } = useTranslation();
  return (
    <div className="wt-acc-actogram" data-testid="actogram" data-days={data.days.length}>
      <div className="wt-acc-actogram-hours" aria-hidden>
        <span />
        {Array.from({ length: 24 }, (_, h) => (
          <span key={h}>{h % 3 === 0 ? h : ''}</span>
        ))}
      </div>
      {data.days.map((day, d) => (
        <div key={day} className="wt-acc-actogram-row">
          <span className="wt-mono wt-acc-actogram-day">{day.slice(5)}</span>
          {data.cells.slice(d * 24, d * 24 + 24).map((cell) => {
            const on = chosen?.day === cell.day && chosen.hour === cell.hour;
            const label =
              cell.bursts > 0
                ? t('acceleration.actogram.cell', { day: cell.day, hour: cell.hour, odba: cell.odba.toFixed(3), count: cell.bursts })
                : t('acceleration.actogram.emptyCell', { day: cell.day, hour: cell.hour });
            return (
              <Tooltip key={cell.hour} title={label} mouseEnterDelay={0.3}>
                <button
                  type="button"
                  className={`wt-acc-cell${on ? ' wt-acc-cell-on' : ''}`}
                  style={{ background: colourOf(cell, data.max) }}
                  disabled={cell.bursts === 0}
                  aria-label={label}
                  aria-pressed={on}
                  data-cell={`${cell.day} ${cell.hour}`}
                  data-odba={cell.bursts > 0 ? cell.odba.toFixed(4) : ''}
                  onClick={() => onChoose(cell)}
                />
              </Tooltip>
            );
          })}
        </div>
      ))}
      <div className="wt-acc-actogram-legend">
        <Typography.Text type="secondary">{t('acceleration.actogram.low')}</Typography.Text>
        <span className="wt-acc-actogram-ramp" />
        <Typography.Text type="secondary">{t('acceleration.actogram.high', { value: data.max.toFixed(2) })}</Typography.Text>
      </div>
    </div>
  );
}
