import { formatTime, LINK_RULE, linkState, type LinkState } from '@wildtrack/contract';
import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAgo, useNow } from '../../../lib/clock';
import { useZone } from '../../../lib/session';
import '../deviceState.css';

/**
 * Device state that tells the truth (issue 12 item 1): how long since a device's last fix, relative to
 * now and refreshed, with the online / late / silent mark judged against its own schedule (the
 * contract's linkState), or "never reported". The clock and "x ago" are lib/clock's, shared with the
 * device tree's marks.
 */

const LINK_COLOR: Record<LinkState, string> = { never: 'default', online: 'success', late: 'warning', silent: 'error' };

/** Minutes as the shortest sensible unit: "45 min", "7 h", "2 d" (one decimal under ten). */
export function useDuration(): (minutes: number) => string {
  const { t } = useTranslation();
  return (minutes) => {
    const fmt = (v: number) => String(v < 10 ? Math.round(v * 10) / 10 : Math.round(v));
    if (minutes < 120) return t('deviceState.unit.minutes', { value: fmt(minutes) });
    if (minutes < 2 * 1440) return t('deviceState.unit.hours', { value: fmt(minutes / 60) });
    return t('deviceState.unit.days', { value: fmt(minutes / 1440) });
  };
}

/** Whether a device ever reported: it has a last fix. */
export const hasReported = (d: { LastWorkAt: number | null }): boolean => d.LastWorkAt !== null;

/**
 * The mark and "x ago" of a device's last fix; "never reported" without one. The tooltip gives the time
 * in the user's zone and the rule the mark follows.
 */
export function LastFix({ at, gapMinutes, compact = false }: { at: number | null; gapMinutes: number; compact?: boolean }) {
  const { t } = useTranslation();
  const zone = useZone();
  const now = useNow();
  const ago = useAgo();
  const duration = useDuration();
  const state = linkState(at, now, gapMinutes);
  const rule = t('deviceState.rule', { gap: duration(Math.max(LINK_RULE.MIN_REPORT_GAP, gapMinutes)), online: LINK_RULE.ONLINE_FACTOR, late: LINK_RULE.LATE_FACTOR });
  if (at === null || state === 'never') {
    return (
      <Tooltip title={t('deviceState.neverTip')}>
        <Tag className="wt-link-mark" data-testid="link-mark" data-state="never">
          {t('deviceState.never')}
        </Tag>
      </Tooltip>
    );
  }
  return (
    <Tooltip title={`${formatTime(at, zone)} · ${rule}`}>
      <span className="wt-last-fix" data-testid="last-fix">
        <Tag className="wt-link-mark" color={LINK_COLOR[state]} data-testid="link-mark" data-state={state}>
          {t(`deviceState.link.${state}`)}
        </Tag>
        <span className="wt-since" data-testid="since">
          {ago(now - at)}
        </span>
        {compact ? null : <span className="wt-since-time">{formatTime(at, zone)}</span>}
      </span>
    </Tooltip>
  );
}
