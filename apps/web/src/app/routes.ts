import { BREADCRUMB_LEVELS } from '@wildtrack/contract';

/**
 * What the shell knows about each route (§2.1): its name (page title, breadcrumb) and whether the left
 * device-tree panel shows. Only screens that exist are listed; menu entries come from this table, so a
 * screen appears in the menu the day it is built.
 */
export interface RouteHandle {
  /** i18n key of the route name. */
  nameKey: string;
  /** i18n keys of the breadcrumb levels below home, ending with this route. */
  trail?: string[];
}

export interface MenuEntry {
  path: string;
  labelKey: string;
}

/** A dropdown of the top menu (§2.3: the map dropdown holds /map2d and /map3d). */
export interface MenuGroup {
  key: string;
  labelKey: string;
  children: readonly MenuEntry[];
}

export type MenuItem = MenuEntry | MenuGroup;

export const isMenuGroup = (item: MenuItem): item is MenuGroup => 'children' in item;

export const MENU: readonly MenuItem[] = [
  { path: '/device', labelKey: 'menu.device' },
  { path: '/track', labelKey: 'menu.track' },
  { key: 'map', labelKey: 'menu.map', children: [{ path: '/map2d', labelKey: 'menu.map2d' }, { path: '/map3d', labelKey: 'menu.map3d' }, { path: '/fence', labelKey: 'menu.fence' }] },
  { path: '/media', labelKey: 'menu.media' },
  { path: '/instr', labelKey: 'menu.instr' },
  { path: '/download', labelKey: 'menu.download' },
  { path: '/notice', labelKey: 'menu.notice' },
  { path: '/share', labelKey: 'menu.share' },
];

/** Every screen the menu leads to, dropdowns flattened. */
export function menuEntries(items: readonly MenuItem[] = MENU): MenuEntry[] {
  return items.flatMap((item) => (isMenuGroup(item) ? [...item.children] : [item]));
}

/** §2.3: the folder tree shows only on these routes. */
export const TREE_PANEL_PATHS: readonly string[] = ['/instr', '/track', '/device', '/download', '/share'];

/** §2.1: every route inside the layout is kept alive when the user navigates away, except these. */
export const KEEP_ALIVE_EXCLUDE: readonly string[] = ['/notice'];

export function showsTreePanel(pathname: string): boolean {
  return TREE_PANEL_PATHS.includes(normalizePath(pathname));
}

export function isKeptAlive(pathname: string): boolean {
  return !KEEP_ALIVE_EXCLUDE.includes(normalizePath(pathname));
}

export function normalizePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** The last BREADCRUMB_LEVELS levels of a trail (§2.3). */
export function lastLevels<T>(trail: readonly T[]): T[] {
  return trail.slice(-BREADCRUMB_LEVELS);
}

export function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as RouteHandle).nameKey === 'string';
}
