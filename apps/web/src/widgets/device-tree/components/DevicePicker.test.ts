import { describe, expect, it } from 'vitest';
import type { TreeIndex, TreeNode } from '../model';
import { keysOf, nextImeis, singleDevice } from './DevicePicker';

/** A tree where device B sits in two folders (shared into a second one). */
const entries: Record<string, string> = { 'd:1:A': 'A', 'd:1:B': 'B', 'd:2:B': 'B', 'd:2:C': 'C' };
const index = {
  deviceByKey: new Map(Object.entries(entries).map(([key, imei]) => [key, { key, device: { IMEI: imei } }])),
  keysByImei: new Map([
    ['A', ['d:1:A']],
    ['B', ['d:1:B', 'd:2:B']],
    ['C', ['d:2:C']],
  ]),
} as unknown as TreeIndex;

describe('the map device picker (the tree with checkboxes)', () => {
  it('checks every row of a chosen device', () => {
    expect(keysOf(index, ['B', 'C'])).toEqual(['d:1:B', 'd:2:B', 'd:2:C']);
  });

  it('adds checked devices at the end and keeps the others in place (their colours stay)', () => {
    const before = keysOf(index, ['C']);
    expect(nextImeis(index, ['C'], before, [...before, 'd:1:A'])).toEqual(['C', 'A']);
    // A folder checked: its devices join, the one already chosen is not repeated.
    expect(nextImeis(index, ['C'], before, [...before, 'd:2:B', 'f:2'])).toEqual(['C', 'B']);
  });

  it('takes a device out when any of its rows is unchecked', () => {
    const before = keysOf(index, ['A', 'B']);
    expect(nextImeis(index, ['A', 'B'], before, before.filter((k) => k !== 'd:2:B'))).toEqual(['A']);
  });

  it('finds the one device a search leaves, counting a shared device once', () => {
    const leaf = (key: string): TreeNode => ({ key, title: key, isLeaf: true, entry: { device: { IMEI: entries[key] } } as never });
    expect(singleDevice([{ key: 'f:1', title: '1', children: [leaf('d:1:B')] }, { key: 'f:2', title: '2', children: [leaf('d:2:B')] }])?.key).toBe('d:1:B');
    expect(singleDevice([{ key: 'f:1', title: '1', children: [leaf('d:1:A'), leaf('d:1:B')] }])).toBeNull();
    expect(singleDevice([])).toBeNull();
  });
});
