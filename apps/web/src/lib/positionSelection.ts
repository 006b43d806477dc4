import {
  DEFAULT_PAGE_SIZE,
  FIX_SORT_FIELDS,
  formatTime,
  ImeiSchema,
  PAGE_SIZE_OPTIONS,
  parseOffset,
  parseTime,
  PositionFilterSchema,
  SENSOR_KIND_NAMES,
  spanRange,
  type PositionFilter,
  type SensorKindName,
  type SortOrder,
} from '@wildtrack/contract';
import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { readStoredJson, removeStored, writeStoredJson } from '../browser/storage';

/**
 * What the researcher is looking at, kept in one place for every screen (issue 12 "context kept"): the
 * device chosen on /device or /track (the same one on both), the devices the maps show, the range of
 * /track and the maps, and the details tab of /device. Kept for the browser session; the screens mirror
 * their part into the URL (lib/contextUrl.ts) and a link's search params are read back into it.
 *
 * The range is kept as instants (a span of §9, or a custom start and end in epoch ms), so a change of
 * time zone shows the same instants in the new zone instead of moving them by the offset.
 */
export type PositionRange = { span: number; start?: undefined; end?: undefined } | { span: null; start: number; end: number };

/** The tabs of the device details panel. */
export const DEVICE_TABS = ['details', 'animal', 'work', 'field', 'instr'] as const;
export type DeviceTab = (typeof DEVICE_TABS)[number];

/** What /track shows of its device: its positions, its acceleration bursts, or a scalar sensor kind. */
export const TRACK_KINDS = ['positions', 'acceleration', ...SENSOR_KIND_NAMES] as const;
export type TrackKind = 'positions' | 'acceleration' | SensorKindName;

/** A sensor chart's view on /track (epoch ms): the part of the range it is zoomed to. */
export interface ChartView {
  from: number;
  to: number;
}

/**
 * /track's fixes table (issue 28): its page, page size, sort and position filters, for the device it
 * was shown for (another device's table opens on its first page, with the defaults).
 */
export interface TrackTable {
  imei: string;
  page: number;
  pageSize: number;
  sortField?: (typeof FIX_SORT_FIELDS)[number] | undefined;
  sortOrder?: SortOrder | undefined;
  filter: PositionFilter;
}

export const TrackTableSchema = z.object({
  imei: ImeiSchema,
  page: z.number().int().min(1),
  pageSize: z.number().refine((n) => (PAGE_SIZE_OPTIONS as readonly number[]).includes(n)),
  sortField: z.enum(FIX_SORT_FIELDS).optional(),
  sortOrder: z.enum(['ascend', 'descend']).optional(),
  filter: PositionFilterSchema,
});

/** A table shown for the first time: page 1 of the default size, time order, no filter. */
export function defaultTrackTable(imei: string): TrackTable {
  return { imei, page: 1, pageSize: DEFAULT_PAGE_SIZE, filter: {} };
}

export interface ViewContext {
  /** The device chosen on /device and /track (the tree's selection there), null before any. */
  device: string | null;
  /** The devices the maps show (§2.1: a multi-device selection of their own). */
  imeis: string[];
  range: PositionRange;
  tab: DeviceTab;
  /** The data kind /track shows (issue 13: a kind the device lacks shows its positions). */
  kind: TrackKind;
  /** The sensor chart's zoom on /track, null for the whole range; forgotten with a new kind, range or device. */
  zoom: ChartView | null;
  /** /track's table as last shown, null before any. */
  table: TrackTable | null;
  /**
   * Whether the user chose any of it (or a link named it). Until then the screens keep their URLs bare:
   * a default (the tree's first device, the last 7 days) is no view worth a link.
   */
  explicit: boolean;
}

/** Kept for compatibility with the screens that read `imeis` and `range` only. */
export type PositionSelection = ViewContext;

const KEY = 'wildtrack_position_selection';
export const DEFAULT_SPAN_DAYS = 7;
/** The most devices a link may name for the maps (more are dropped). */
export const MAX_LINKED_DEVICES = 50;

export const RangeSchema = z.union([
  z.object({ span: z.number().int().positive().max(3660), start: z.undefined().optional(), end: z.undefined().optional() }),
  z
    .object({ span: z.null(), start: z.number().int(), end: z.number().int() })
    .refine((r) => r.start <= r.end, { message: 'start after end' }),
]);

/** What a kept context must look like to be used (anything else, e.g. an older version's: start afresh). */
export const ChartViewSchema = z
  .object({ from: z.number().int().min(0), to: z.number().int().min(0) })
  .refine((v) => v.from < v.to, { message: 'from after to' });

const StoredContext = z.object({
  device: ImeiSchema.nullable(),
  imeis: z.array(ImeiSchema).max(MAX_LINKED_DEVICES),
  range: RangeSchema,
  tab: z.enum(DEVICE_TABS),
  // kept by an earlier version without them: the defaults
  kind: z.enum(TRACK_KINDS).default('positions'),
  zoom: ChartViewSchema.nullable().default(null),
  table: TrackTableSchema.nullable().default(null),
  explicit: z.boolean(),
});

const listeners = new Set<() => void>();
let state: ViewContext | null = null;

export function defaultContext(): ViewContext {
  return { device: null, imeis: [], range: { span: DEFAULT_SPAN_DAYS }, tab: 'details', kind: 'positions', zoom: null, table: null, explicit: false };
}

function load(): ViewContext {
  return (readStoredJson('session', KEY, StoredContext) as ViewContext | undefined) ?? defaultContext();
}

export function getViewContext(): ViewContext {
  state ??= load();
  return state;
}

function update(next: ViewContext): void {
  state = next;
  // storage blocked or full: keeps working in memory
  writeStoredJson('session', KEY, next);
  for (const l of listeners) l();
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function sameRange(a: PositionRange, b: PositionRange): boolean {
  return a.span === b.span && a.start === b.start && a.end === b.end;
}

/** The user chose (or a link named) part of the context: from now on the screens' URLs carry it. */
export function markExplicit(): void {
  const prev = getViewContext();
  if (!prev.explicit) update({ ...prev, explicit: true });
}

/** The maps' devices. */
export function setSelectedImeis(imeis: readonly string[]): void {
  const prev = getViewContext();
  if (sameList(prev.imeis, imeis)) return;
  update({ ...prev, imeis: [...imeis] });
}

/**
 * The device chosen on /device or /track. The maps open with it: a device they don't show yet becomes
 * their selection, while one they already show leaves their (multi-device) selection as it is.
 */
export function setChosenDevice(imei: string): void {
  const prev = getViewContext();
  if (prev.device === imei) return;
  update({ ...prev, device: imei, imeis: prev.imeis.includes(imei) ? prev.imeis : [imei], zoom: null });
}

export function setPositionRange(range: PositionRange): void {
  const prev = getViewContext();
  if (sameRange(prev.range, range)) return;
  update({ ...prev, range: range.span === null ? { span: null, start: range.start, end: range.end } : { span: range.span }, zoom: null });
}

export function setDeviceTab(tab: DeviceTab): void {
  const prev = getViewContext();
  if (prev.tab !== tab) update({ ...prev, tab });
}

/** The data kind /track shows; a new kind shows its whole range. */
export function setTrackKind(kind: TrackKind): void {
  const prev = getViewContext();
  if (prev.kind !== kind) update({ ...prev, kind, zoom: null });
}

/** The sensor chart's zoom on /track (null: the whole range). */
export function setTrackZoom(zoom: ChartView | null): void {
  const prev = getViewContext();
  // whole seconds: what a link's ISO text carries, so that the link read back is the same view
  const next = zoom ? { from: Math.round(zoom.from / 1000) * 1000, to: Math.round(zoom.to / 1000) * 1000 } : null;
  if (next && next.from >= next.to) return;
  if (prev.zoom?.from === next?.from && prev.zoom?.to === next?.to) return;
  update({ ...prev, zoom: next });
}

/** The same table, whatever the order its fields were written in. */
function sameTable(a: TrackTable | null, b: TrackTable | null): boolean {
  if (a === null || b === null) return a === b;
  const filterText = (f: PositionFilter) => JSON.stringify(Object.entries(f).filter(([, v]) => v !== undefined).sort(([x], [y]) => (x < y ? -1 : 1)));
  return a.imei === b.imei && a.page === b.page && a.pageSize === b.pageSize && a.sortField === b.sortField && a.sortOrder === b.sortOrder && filterText(a.filter) === filterText(b.filter);
}

/** Counts the tables a link (a URL read by the router) changed: the table shown opens afresh on each. */
let tableLinks = 0;

/**
 * /track's table as shown (its page, size, sort and filters): what a reload or a link opens again.
 * `fromLink`: read from a URL, which the screen showing a table then opens afresh (useTrackTableLinks).
 */
export function setTrackTable(table: TrackTable | null, fromLink = false): void {
  const prev = getViewContext();
  if (sameTable(prev.table, table)) return;
  if (fromLink) tableLinks += 1;
  update({ ...prev, table });
}

const getTableLinks = () => tableLinks;

/** How many times a link changed /track's table: the table's key, so that it opens on the link's. */
export function useTrackTableLinks(): number {
  return useSyncExternalStore(subscribe, getTableLinks, getTableLinks);
}

/** A custom range from its two instants. */
export function customRange(start: number, end: number): PositionRange {
  return { span: null, start: Math.min(start, end), end: Math.max(start, end) };
}

/** A custom range from its two ends' wall-clock text in a zone (tests, typed dates). */
export function rangeFromText(start: string, end: string, zone: string): PositionRange {
  return customRange(parseTime(start, zone) ?? 0, parseTime(end, zone) ?? 0);
}

/** The range to query and show, as the API takes it: text in the zone; a span is resolved against today there. */
export function resolveRange(range: PositionRange, zone: string, now = Date.now()): { start: string; end: string } {
  if (range.span !== null) {
    const r = spanRange(range.span, zone, now);
    return { start: r.startTime, end: r.endTime };
  }
  return { start: formatTime(range.start, zone), end: formatTime(range.end, zone) };
}

/** An instant as ISO 8601 text with the zone's offset ("2025-03-07T00:00:00+08:00"): readable in a link, and exact. */
export function isoInZone(ms: number, zone: string): string {
  const offset = parseOffset(zone) === null ? '+00:00' : zone.replace(/^UTC/, '');
  return `${formatTime(ms, offset).replace(' ', 'T')}${offset === '+00:00' ? 'Z' : offset}`;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useViewContext(): ViewContext {
  return useSyncExternalStore(subscribe, getViewContext, getViewContext);
}

/** The user's own choices of devices and range (the pickers): they make the context worth a link. */
function chooseImeis(imeis: readonly string[]): void {
  setSelectedImeis(imeis);
  markExplicit();
}

function chooseRange(range: PositionRange): void {
  setPositionRange(range);
  markExplicit();
}

export function usePositionSelection() {
  const selection = useViewContext();
  return { ...selection, setImeis: chooseImeis, setRange: chooseRange };
}

/** /track's data kind and its chart's zoom, and their setters (the user's choices: worth a link). */
export function useTrackKind() {
  const { kind, zoom } = useViewContext();
  return {
    kind,
    zoom,
    setKind: (next: TrackKind) => {
      setTrackKind(next);
      markExplicit();
    },
    setZoom: (next: ChartView | null) => {
      setTrackZoom(next);
      markExplicit();
    },
  };
}

/** The device details tab and its setter. */
export function useDeviceTab(): [DeviceTab, (tab: string) => void] {
  const { tab } = useViewContext();
  return [
    tab,
    (next: string) => {
      setDeviceTab((DEVICE_TABS as readonly string[]).includes(next) ? (next as DeviceTab) : 'details');
      markExplicit();
    },
  ];
}

/**
 * Forgets the context and its notices (sign-out, an ended session, tests): the next user to sign in on
 * this browser opens on the tree's defaults, never on the previous user's device, tab or range.
 */
export function resetPositionSelection(): void {
  state = null;
  removeStored('session', KEY);
  for (const l of listeners) l();
  resetUnknown();
}

export type UnknownPage = 'device' | 'track' | 'map';

/** Per screen, the devices a link named that the viewer cannot see (until the notice is closed). */
const unknownBy = new Map<UnknownPage, readonly string[]>();
const unknownListeners = new Set<() => void>();
const NONE: readonly string[] = [];

export function setUnknown(page: UnknownPage, imeis: readonly string[]): void {
  if ((unknownBy.get(page) ?? NONE).join() === imeis.join()) return;
  unknownBy.set(page, imeis);
  for (const l of unknownListeners) l();
}

function resetUnknown(): void {
  if (unknownBy.size === 0) return;
  unknownBy.clear();
  for (const l of unknownListeners) l();
}

export function getUnknown(page: UnknownPage): readonly string[] {
  return unknownBy.get(page) ?? NONE;
}

export function subscribeUnknown(listener: () => void): () => void {
  unknownListeners.add(listener);
  return () => unknownListeners.delete(listener);
}
