import { linkState } from '@wildtrack/contract';
import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAgo, useNow } from '../../../lib/clock';
import { useTreeStates } from '../api';
import { markOf, type DeviceLink } from '../model';

/**
 * A device row's online / late / silent / never-reported mark (issue 12 item 1). The provider reads the
 * marks' data (GetTreeState, every minute) and the clock (every 30 s, as the device details) once for the
 * whole tree and hands them to the rows, with the label maker translated once: when either moves, only the
 * dots draw again (the rows' titles are memoised and the provider's children are the same elements). Each
 * state has its own shape as well as its colour (filled, half, ring, dashed ring), and the label (the state
 * and the time since the last fix) is the dot's accessible name and title.
 */
interface TreeMarks {
  links: ReadonlyMap<string, DeviceLink> | undefined;
  now: number;
  label: (link: DeviceLink, now: number) => string;
}

const TreeMarksContext = createContext<TreeMarks | null>(null);

export function TreeMarksProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const links = useTreeStates().data;
  const now = useNow();
  const ago = useAgo();
  const label = useCallback(
    (link: DeviceLink, at: number): string => {
      const state = linkState(link.at, at, link.gap);
      if (link.at === null || state === 'never') return t('deviceState.never');
      return t('tree.linkMark', { state: t(`deviceState.link.${state}`), ago: ago(at - link.at) });
    },
    [t, ago],
  );
  const marks = useMemo<TreeMarks>(() => ({ links, now, label }), [links, now, label]);
  return <TreeMarksContext.Provider value={marks}>{children}</TreeMarksContext.Provider>;
}

/** The mark of a device row; nothing outside a TreeMarksProvider or while the device's state is unknown. */
export function LinkMark({ imei }: { imei: string }) {
  const marks = useContext(TreeMarksContext);
  const state = marks ? markOf(marks.links, imei, marks.now) : null;
  if (!marks || state === null) return null;
  const label = marks.label(marks.links!.get(imei)!, marks.now);
  return <span className="wt-tree-link" role="img" aria-label={label} title={label} data-testid="tree-link-mark" data-state={state} />;
}
