import { describe, expect, it } from 'vitest';
import { isKeptAlive, lastLevels, MENU, menuEntries, showsTreePanel } from './routes';

describe('route rules', () => {
  it('shows the tree panel only on /instr, /track, /device, /download and /share (§2.3)', () => {
    for (const path of ['/instr', '/track', '/device', '/download', '/share', '/device/']) expect(showsTreePanel(path), path).toBe(true);
    for (const path of ['/map2d', '/map3d', '/media', '/notice', '/', '/devices']) expect(showsTreePanel(path), path).toBe(false);
  });

  it('keeps every route alive except /notice', () => {
    expect(isKeptAlive('/device')).toBe(true);
    expect(isKeptAlive('/track')).toBe(true);
    expect(isKeptAlive('/notice')).toBe(false);
  });

  it('keeps the last 4 breadcrumb levels', () => {
    expect(lastLevels(['a', 'b', 'c', 'd', 'e', 'f'])).toEqual(['c', 'd', 'e', 'f']);
    expect(lastLevels(['a', 'b'])).toEqual(['a', 'b']);
  });

  it('lists only screens that exist in the menu', () => {
    expect(menuEntries(MENU).map((m) => m.path)).toEqual(['/device', '/track', '/map2d', '/map3d', '/fence', '/media', '/instr', '/download', '/notice', '/share']);
  });
});
