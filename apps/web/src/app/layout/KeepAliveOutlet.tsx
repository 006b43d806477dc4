import { Activity, useState, type ReactNode } from 'react';
import { useLocation, useMatches, useOutlet } from 'react-router';
import { isKeptAlive, normalizePath } from '../routes';

/**
 * Keeps every visited route's screen mounted but hidden while the user is elsewhere (§2.1 "Cached while
 * the user navigates away"), so filters, scroll and selections survive. React's <Activity> hides the
 * subtree and pauses its effects without losing state. Paths in KEEP_ALIVE_EXCLUDE render fresh.
 */
export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const pathname = normalizePath(useLocation().pathname);
  const matches = useMatches();
  // One entry per route (not per URL): /device?folder=2 and /device share their screen, and every
  // unknown path shares the not-found page.
  const key = matches[matches.length - 1]?.id ?? pathname;
  const [visited, setVisited] = useState<{ key: string; element: ReactNode }[]>([]);

  const keep = isKeptAlive(pathname);
  if (keep && !visited.some((entry) => entry.key === key)) {
    // Recording a newly visited route during render is React's pattern for state derived from props.
    setVisited([...visited, { key, element: outlet }]);
  }

  return (
    <>
      {visited.map((entry) => (
        <Activity key={entry.key} mode={entry.key === key ? 'visible' : 'hidden'}>
          {entry.key === key ? outlet : entry.element}
        </Activity>
      ))}
      {keep ? null : <div key={key}>{outlet}</div>}
    </>
  );
}
