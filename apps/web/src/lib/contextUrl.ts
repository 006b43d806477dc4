import {
  BOUNDED_FILTERS,
  DEFAULT_PAGE_SIZE,
  FIX_SORT_FIELDS,
  ImeiSchema,
  MAX_HDOP_FILTER,
  MAX_SATELLITES_FILTER,
  normalisePrecision,
  PAGE_SIZE_OPTIONS,
  PRECISION_GRADES,
  QUERY_SPAN_DAYS,
  type PositionFilter,
} from '@wildtrack/contract';
import { createElement, useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { useInRouterContext, useSearchParams } from 'react-router';
import { z } from 'zod';
import {
  customRange,
  DEVICE_TABS,
  getViewContext,
  getUnknown,
  isoInZone,
  markExplicit,
  MAX_LINKED_DEVICES,
  setChosenDevice,
  setDeviceTab,
  setPositionRange,
  setSelectedImeis,
  setTrackKind,
  setTrackTable,
  defaultTrackTable,
  type TrackTable,
  setTrackZoom,
  TRACK_KINDS,
  setUnknown,
  subscribeUnknown,
  useViewContext,
  type PositionRange,
  type ViewContext,
} from './positionSelection';
import { useSignedIn, useZone } from './session';

/**
 * The view context in the URL (issue 12 "context kept"): each screen's search params carry its part of
 * lib/positionSelection's context, so that a reload or a shared link opens the same view.
 *   /device  ?device=<imei>&tab=details|animal|work
 *   /track   ?device=<imei>&span=<days>  or  &from=<ISO>&to=<ISO>, and the data kind shown (kind=temperature;
 *            none: positions) with its chart's zoom (zoomFrom=<ISO>&zoomTo=<ISO>; none: the whole range)
 *   /map2d, /map3d  ?devices=<imei>,<imei>&span=… | from=…&to=…
 * The context store stays the one source of truth: the router's loader reads a URL's params into it
 * before the screen renders (`applyContextSearch`), and the visible screen writes the store back into
 * its URL (`useContextInUrl`, replacing the history entry). A param that does not parse is ignored.
 */
export type ContextPage = 'device' | 'track' | 'map';

/** An instant in a link: ISO 8601 with an offset or Z, or epoch ms. */
const Instant = z
  .string()
  .transform((text) => (/^-?\d{1,15}$/.test(text) ? Number(text) : /(?:Z|[+-]\d{2}:?\d{2})$/i.test(text) ? Date.parse(text) : Number.NaN))
  .pipe(z.number().int().min(0));

/** A filter's bound in a link: a finite number, within the contract's limits where it has them. */
const bound = (min = -Infinity, max = Infinity, int = false) =>
  z.coerce
    .number()
    .finite()
    .min(min)
    .max(max)
    .refine((n) => !int || Number.isInteger(n))
    .optional()
    .catch(undefined);

const boundOf = (name: (typeof BOUNDED_FILTERS)[number]) =>
  name === 'hdop' ? bound(0, MAX_HDOP_FILTER) : name === 'satellites' ? bound(0, MAX_SATELLITES_FILTER, true) : bound();

/** The table's filters in a link, by the contract's names: each bound and its `…Max` twin. */
const FILTER_PARAMS = Object.fromEntries(BOUNDED_FILTERS.flatMap((name) => [[name, boundOf(name)], [`${name}Max`, boundOf(name)]])) as Record<
  (typeof BOUNDED_FILTERS)[number] | `${(typeof BOUNDED_FILTERS)[number]}Max`,
  ReturnType<typeof bound>
>;

const csv = (text: string) => [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];

/** What a screen's search params may hold; each param that fails its rule reads as absent. */
export const ContextSearchSchema = z.object({
  device: ImeiSchema.optional().catch(undefined),
  devices: z.string().transform(csv).pipe(z.array(ImeiSchema).min(1).max(MAX_LINKED_DEVICES)).optional().catch(undefined),
  tab: z.enum(DEVICE_TABS).optional().catch(undefined),
  span: z.coerce
    .number()
    .refine((n) => (QUERY_SPAN_DAYS as readonly number[]).includes(n))
    .optional()
    .catch(undefined),
  from: Instant.optional().catch(undefined),
  to: Instant.optional().catch(undefined),
  kind: z.enum(TRACK_KINDS).optional().catch(undefined),
  zoomFrom: Instant.optional().catch(undefined),
  zoomTo: Instant.optional().catch(undefined),
  sort: z.enum(FIX_SORT_FIELDS).optional().catch(undefined),
  order: z.enum(['ascend', 'descend']).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(1_000_000).optional().catch(undefined),
  size: z.coerce
    .number()
    .refine((n) => (PAGE_SIZE_OPTIONS as readonly number[]).includes(n))
    .optional()
    .catch(undefined),
  ...FILTER_PARAMS,
  // letters A–E and N only (every letter is no filter): anything else reads as absent
  precision: z
    .string()
    .refine((text) => /^[A-EN]{1,6}$/i.test(text) && normalisePrecision(text) !== PRECISION_GRADES.join(''))
    .transform(normalisePrecision)
    .optional()
    .catch(undefined),
  valid: z.literal('1').optional().catch(undefined),
});
export type ContextSearch = z.output<typeof ContextSearchSchema>;

export function parseContextSearch(params: URLSearchParams): ContextSearch {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(ContextSearchSchema.shape)) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  // every field catches its own failure, so this never throws
  return ContextSearchSchema.parse(raw);
}

/** The range a link names, if it names a valid one: a span, or both ends. */
export function rangeOf(search: ContextSearch): PositionRange | null {
  if (search.span !== undefined) return { span: search.span };
  if (search.from !== undefined && search.to !== undefined) return customRange(search.from, search.to);
  return null;
}

/** Reads a screen's search params into the context (the router's loader calls it before the screen renders). */
export function applyContextSearch(page: ContextPage, params: URLSearchParams): void {
  const search = parseContextSearch(params);
  // a param that failed its rule reads as absent (its key is there, its value undefined): a link that
  // names nothing valid chose nothing, and the screen's URL then drops its bad params and stays bare
  if (Object.values(search).some((value) => value !== undefined)) markExplicit();
  if (page === 'map') {
    if (search.devices) setSelectedImeis(search.devices);
  } else if (search.device) setChosenDevice(search.device);
  if (page === 'device' && search.tab) setDeviceTab(search.tab);
  if (page !== 'device') {
    const range = rangeOf(search);
    if (range) setPositionRange(range);
  }
  if (page === 'track' && search.kind) {
    // a link that names a kind names its zoom too: none is the whole range
    setTrackKind(search.kind);
    const { zoomFrom, zoomTo } = search;
    setTrackZoom(zoomFrom !== undefined && zoomTo !== undefined && zoomFrom < zoomTo ? { from: zoomFrom, to: zoomTo } : null);
  }
  // a link that names its /track view names its table too: what it leaves out is the default
  const device = search.device ?? getViewContext().device;
  if (page === 'track' && device && Object.values(search).some((value) => value !== undefined)) setTrackTable(tableOf(search, device), true);
}

/** The fixes table a link names for a device: what it leaves out (or names wrongly) is the default. */
export function tableOf(search: ContextSearch, imei: string): TrackTable {
  const filter: PositionFilter = {};
  for (const name of BOUNDED_FILTERS) {
    const lower = search[name];
    const upper = search[`${name}Max`];
    if (lower !== undefined) filter[name] = lower;
    // an upper bound not above its lower one keeps nothing (the server refuses it): read as absent
    if (upper !== undefined && (lower === undefined || upper > lower)) filter[`${name}Max`] = upper;
  }
  if (search.precision !== undefined) filter.precision = search.precision;
  if (search.valid) filter.validOnly = true;
  const sorted = search.sort !== undefined && search.order !== undefined;
  return {
    ...defaultTrackTable(imei),
    page: search.page ?? 1,
    pageSize: search.size ?? DEFAULT_PAGE_SIZE,
    ...(sorted ? { sortField: search.sort, sortOrder: search.order } : {}),
    filter,
  };
}

/** The search params of /track's table, the defaults left out. */
function writeTable(next: URLSearchParams, table: TrackTable): void {
  if (table.sortField && table.sortOrder) {
    next.set('sort', table.sortField);
    next.set('order', table.sortOrder);
  }
  if (table.page !== 1) next.set('page', String(table.page));
  if (table.pageSize !== DEFAULT_PAGE_SIZE) next.set('size', String(table.pageSize));
  for (const name of BOUNDED_FILTERS) {
    for (const key of [name, `${name}Max`] as const) {
      const value = table.filter[key];
      if (value !== undefined) next.set(key, String(value));
    }
  }
  if (table.filter.precision !== undefined) next.set('precision', table.filter.precision);
  if (table.filter.validOnly) next.set('valid', '1');
}

const OWN_KEYS = Object.keys(ContextSearchSchema.shape);
const NO_DEVICES: readonly string[] = [];

/** The search params a screen shows for a context (other params of the URL are kept as they are). */
export function contextSearch(page: ContextPage, ctx: ViewContext, zone: string, current = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const key of OWN_KEYS) next.delete(key);
  if (page === 'map') {
    if (ctx.imeis.length > 0) next.set('devices', ctx.imeis.join(','));
  } else if (ctx.device) next.set('device', ctx.device);
  if (page === 'device') next.set('tab', ctx.tab);
  else if (ctx.range.span !== null) next.set('span', String(ctx.range.span));
  else {
    next.set('from', isoInZone(ctx.range.start, zone));
    next.set('to', isoInZone(ctx.range.end, zone));
  }
  if (page === 'track' && ctx.kind !== 'positions') {
    next.set('kind', ctx.kind);
    if (ctx.zoom) {
      next.set('zoomFrom', isoInZone(ctx.zoom.from, zone));
      next.set('zoomTo', isoInZone(ctx.zoom.to, zone));
    }
  }
  if (page === 'track' && ctx.table && ctx.table.imei === ctx.device) writeTable(next, ctx.table);
  return next;
}

function withoutContext(params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of OWN_KEYS) next.delete(key);
  return next;
}

/** Keeps the visible screen's URL showing its context (a hidden, kept-alive screen runs no effect). */
function useContextInUrl(page: ContextPage): void {
  const ctx = useViewContext();
  const zone = useZone();
  const signedIn = useSignedIn();
  const [params, setParams] = useSearchParams();
  const have = params.toString();
  // The URL carries the context once the user chose (or a link named) part of it, and only then: a
  // default (the tree's first device, the last 7 days) is no view worth a link, and the bare URL opens
  // the same screen anyway. Whatever the order in which the tree's default and the screen's own
  // selection land, an unchosen context writes no device into the URL (and so never reads one back).
  const want = ctx.explicit ? contextSearch(page, ctx, zone, params).toString() : withoutContext(params).toString();
  useEffect(() => {
    // signing out: the context is being forgotten, and the screen is about to go
    if (signedIn && want !== have) setParams(new URLSearchParams(want), { replace: true, preventScrollReset: true });
  }, [signedIn, want, have, setParams]);
}

function UrlSync({ page }: { page: ContextPage }): null {
  useContextInUrl(page);
  return null;
}

/**
 * Rendered by a screen: mirrors its context into the URL (nothing outside a router, as in the screens'
 * unit tests, which render them alone).
 */
export function ContextInUrl({ page }: { page: ContextPage }) {
  return useInRouterContext() ? createElement(UrlSync, { page }) : null;
}

function useUnknown(page: ContextPage): { unknown: readonly string[]; dismiss: () => void } {
  const unknown = useSyncExternalStore(subscribeUnknown, () => getUnknown(page));
  const dismiss = useCallback(() => setUnknown(page, NO_DEVICES), [page]);
  return { unknown, dismiss };
}

/** What `useLocate` needs of the device tree's index (the slot's TreeIndex). */
export interface LocatableIndex {
  keysByImei: ReadonlyMap<string, readonly string[]>;
  deviceByKey: ReadonlyMap<string, { folderId: string }>;
}

/** Where a device sits in the tree (null: not in this viewer's tree); null itself while the tree loads. */
export function useLocate(index: LocatableIndex | undefined): ((imei: string) => string | null) | null {
  return useMemo(
    () =>
      index
        ? (imei: string): string | null => {
            const key = index.keysByImei.get(imei)?.[0];
            return (key && index.deviceByKey.get(key)?.folderId) ?? null;
          }
        : null,
    [index],
  );
}

/**
 * Links the tree's selection on /device or /track with the context's chosen device, both ways: a device
 * selected in the tree becomes the chosen one; a device chosen elsewhere (the other screen, a link)
 * becomes the tree's selection when the screen shows. `locate` answers the folder holding a device in
 * the tree (null: the viewer cannot see it), and is null while the tree loads.
 * Returns the device a link or the other screen asked for that this viewer cannot see, if any.
 */
export function useChosenDeviceInTree(
  page: 'device' | 'track',
  selected: string | null,
  /** Whether the tree had a selection before (a first selection is the tree's default, not a choice). */
  initialised: boolean,
  locate: ((imei: string) => string | null) | null,
  select: (imei: string, folderId: string) => void,
): { unknown: readonly string[]; dismiss: () => void } {
  const { device: chosen } = useViewContext();
  // signing out forgets the context while this screen still shows: it must not write its device back
  const signedIn = useSignedIn();
  const seen = useRef<{ selected: string | null; chosen: string | null | undefined; initialised: boolean }>({ selected, chosen: undefined, initialised });
  useEffect(() => {
    if (!locate || !signedIn) return;
    const s = seen.current;
    const wasInitialised = s.initialised;
    s.initialised = initialised;
    if (selected !== s.selected) {
      // the user (or the tree's default selection) picked a device here
      s.selected = selected;
      // the tree's default never replaces a device chosen before (on the other screen, by a link)
      const folderId = !wasInitialised && chosen !== null && chosen !== selected ? locate(chosen) : null;
      if (folderId !== null && chosen !== null) {
        s.chosen = chosen;
        s.selected = chosen;
        select(chosen, folderId);
        return;
      }
      // ... and when it stands in for one this viewer cannot see, the screen says so
      if (!wasInitialised && chosen !== null && chosen !== selected && s.chosen !== chosen) setUnknown(page, [chosen]);
      if (selected !== null) {
        s.chosen = selected;
        setChosenDevice(selected);
        if (wasInitialised) markExplicit();
      }
      return;
    }
    if (chosen === s.chosen) return;
    // chosen elsewhere since this screen last looked
    s.chosen = chosen;
    if (chosen === null) {
      // nothing chosen yet: what the tree shows is
      if (selected !== null) {
        s.chosen = selected;
        setChosenDevice(selected);
      }
      return;
    }
    if (chosen === selected) return;
    const folderId = locate(chosen);
    if (folderId === null) {
      setUnknown(page, [chosen]);
      // the screen goes on showing what its tree shows, and says so
      if (selected !== null) {
        s.chosen = selected;
        setChosenDevice(selected);
      }
      return;
    }
    setUnknown(page, NO_DEVICES);
    s.selected = chosen;
    select(chosen, folderId);
  }, [page, selected, initialised, chosen, locate, select, signedIn]);
  return useUnknown(page);
}

/**
 * The maps' devices that this viewer cannot see (a shared link's), taken out of the selection once the
 * tree is loaded (`locate` non-null) and returned so that the screen says so.
 */
export function useUnknownMapDevices(locate: ((imei: string) => string | null) | null): { unknown: readonly string[]; dismiss: () => void } {
  const { imeis } = useViewContext();
  useEffect(() => {
    if (!locate) return;
    const missing = imeis.filter((imei) => locate(imei) === null);
    if (missing.length === 0) return;
    setUnknown('map', missing);
    setSelectedImeis(imeis.filter((imei) => !missing.includes(imei)));
  }, [imeis, locate]);
  return useUnknown('map');
}
