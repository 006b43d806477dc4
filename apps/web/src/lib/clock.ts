import { sinceUnit } from '@wildtrack/contract';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The clock for what is judged against it (a device's "12 minutes ago" and its online / late / silent
 * mark, issue 12 item 1): the device details and the device tree read these, so both move on alike.
 */

/** How often such marks are judged again. */
export const MARK_REFRESH_MS = 30_000;

/** The clock, ticking every `everyMs` while mounted (marks and "x min ago" move on by themselves). */
export function useNow(everyMs = MARK_REFRESH_MS): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(id);
  }, [everyMs]);
  return now;
}

/** "12 minutes ago" in the interface language (Intl.RelativeTimeFormat). */
export function useAgo(): (ms: number) => string {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  // one formatter and one function per language: the tree's marks are drawn again only when it changes
  return useMemo(() => {
    const format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
    return (ms: number) => {
      const { value, unit } = sinceUnit(ms);
      return format.format(-value, unit);
    };
  }, [lang]);
}
