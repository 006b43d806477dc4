import { DeviceType, SensorFlag } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { folder, RIGHTS, tree, treeDevice } from '../../../test/devices';
import {
  buildIndex,
  linkIndex,
  markOf,
  reportedSince,
  checkedImeis,
  deviceActions,
  filterTree,
  firstNormalDevice,
  folderActions,
  folderChecks,
  folderPath,
  isSelectable,
  matchesSensor,
  moveTargets,
  NO_FILTERS,
  toggleCheck,
  treePageOf,
  unselectableReason,
  visibleRows,
  type TreeNode,
  type TreePage,
  type TreeRow,
} from '.';

const { GNSS, Acceleration, OldAcceleration, Temperature, WaterDepth, Magnetism } = SensorFlag;

/** Root with a nested folder, an experience folder and a shared folder. */
function sample() {
  return tree(
    folder('-1', 'Qinling Reserve', {
      folders: [
        folder('10', 'Storks', {
          parent: '-1',
          folders: [folder('11', 'Honghe', { parent: '10', devices: [treeDevice('860000000000011', { Caption: 'Stork A', Sensor: GNSS | Acceleration })] })],
          devices: [treeDevice('860000000000012', { Caption: 'Stork B', RemarkName: 'Bertha', Sensor: GNSS | Temperature })],
        }),
        folder('20', 'Empty', { parent: '-1' }),
      ],
      devices: [
        treeDevice('860000000000001', { Caption: 'VHF station', Type: DeviceType.VHFReceiver, Sensor: 0 }),
        treeDevice('860000000000002', { Caption: 'Deer', Sensor: GNSS | OldAcceleration | WaterDepth, Status: 5 }),
      ],
    }),
    folder('0', 'Experience', { example: true, devices: [treeDevice('860000000009001', { Caption: 'Sample stork', Example: true, Sensor: GNSS | Magnetism, Permission: 1 })] }),
    folder('share-7', 'Li Wei', {
      sharedBy: 'Li Wei',
      devices: [treeDevice('860000000007001', { Caption: 'Shared seal', Permission: 2 }), treeDevice('860000000007002', { Caption: 'Shared fisher', Permission: 3 })],
    }),
  );
}

const names = (nodes: TreeNode[]): string[] => nodes.flatMap((n) => [n.title, ...names(n.children ?? [])]);
const deviceNames = (nodes: TreeNode[]): string[] => nodes.flatMap((n) => (n.entry ? [n.title] : deviceNames(n.children ?? [])));

describe('§6 selectability by page', () => {
  const vhf = { Type: DeviceType.VHFReceiver, Status: 3 };
  const tracker = (Status = 3) => ({ Type: DeviceType.Tracker, Status });
  const all = RIGHTS[0]!;
  const none = RIGHTS[1]!;

  it.each<[TreePage, boolean]>([
    ['device', false],
    ['track', false],
    ['download', false],
    ['share', false],
    ['instr', false],
  ])('never selects a VHF receiver on %s', (page, expected) => {
    expect(isSelectable(vhf, all, page)).toBe(expected);
    expect(unselectableReason(vhf, all, page)).toBe('tree.reason.vhf');
  });

  it('needs DownloadData on download, ShareDevice on share, RemoteInstr and status 2-4 on instr', () => {
    expect(isSelectable(tracker(), none, 'device')).toBe(true);
    expect(isSelectable(tracker(), none, 'track')).toBe(true);
    expect(isSelectable(tracker(), none, 'download')).toBe(false);
    expect(isSelectable(tracker(), RIGHTS[2]!, 'download')).toBe(true);
    expect(isSelectable(tracker(), RIGHTS[2]!, 'share')).toBe(false);
    expect(isSelectable(tracker(), RIGHTS[3]!, 'share')).toBe(true);
    for (const status of [2, 3, 4]) expect(isSelectable(tracker(status), all, 'instr')).toBe(true);
    for (const status of [1, 5, 6, 7, 8, 9]) {
      expect(isSelectable(tracker(status), all, 'instr')).toBe(false);
      expect(unselectableReason(tracker(status), all, 'instr')).toBe(status === 5 ? 'tree.reason.archived' : 'tree.reason.status');
    }
    expect(unselectableReason(tracker(), none, 'instr')).toBe('tree.reason.instr');
    expect(unselectableReason(tracker(), all, 'instr')).toBeNull();
  });

  it('knows the page from the path', () => {
    expect(treePageOf('/download')).toBe('download');
    expect(treePageOf('/instr/history')).toBe('instr');
    expect(treePageOf('/device')).toBe('device');
    expect(treePageOf('/notice')).toBe('device');
  });
});

describe('sensor filter values of §6', () => {
  it('maps 1 to new or old acceleration and the other values to one flag each', () => {
    expect(matchesSensor(Acceleration, 1)).toBe(true);
    expect(matchesSensor(OldAcceleration, 1)).toBe(true);
    expect(matchesSensor(GNSS, 1)).toBe(false);
    expect(matchesSensor(Temperature, 2)).toBe(true);
    expect(matchesSensor(GNSS, 7)).toBe(true);
    expect(matchesSensor(WaterDepth, 10)).toBe(true);
    expect(matchesSensor(Magnetism, 14)).toBe(true);
    expect(matchesSensor(Magnetism, 13)).toBe(false);
    expect(matchesSensor(0, 0)).toBe(true);
  });
});

describe('the index', () => {
  it('flattens folders and devices in tree order, resolves rights and kinds', () => {
    const index = buildIndex(sample());
    expect(index.devices.map((d) => d.device.Caption)).toEqual(['Stork A', 'Stork B', 'VHF station', 'Deer', 'Sample stork', 'Shared seal', 'Shared fisher']);
    expect(index.folderById.get('11')?.depth).toBe(2);
    expect(index.folderById.get('0')?.kind).toBe('experience');
    expect(index.folderById.get('share-7')?.kind).toBe('shared');
    expect(index.folderById.get('-1')?.kind).toBe('root');
    expect(index.keysByImei.get('860000000007001')).toEqual(['d:share-7:860000000007001']);
    expect(index.deviceByKey.get('d:share-7:860000000007001')?.permission.DownloadData).toBe(true);
    expect(index.deviceByKey.get('d:share-7:860000000007001')?.shared).toBe(true);
    expect(folderPath(index, '11').map((f) => f.id)).toEqual(['-1', '10', '11']);
  });

  it('picks the first normal device: not a VHF receiver, not an example when there is another', () => {
    const index = buildIndex(sample());
    expect(firstNormalDevice(index, 'device')?.device.Caption).toBe('Stork A');
    // on /share only devices with ShareDevice count: the own devices have it
    expect(firstNormalDevice(index, 'share')?.device.Caption).toBe('Stork A');
    const examplesOnly = buildIndex(
      tree(
        folder('-1', 'Org', { devices: [treeDevice('1', { Type: DeviceType.VHFReceiver })] }),
        folder('0', 'Experience', { example: true, devices: [treeDevice('2', { Example: true, Caption: 'Sample' })] }),
      ),
    );
    expect(firstNormalDevice(examplesOnly, 'device')?.device.Caption).toBe('Sample');
    expect(firstNormalDevice(buildIndex(tree(folder('-1', 'Org'))), 'device')).toBeUndefined();
  });

  it('offers folder and device actions by kind (§2.4, §6)', () => {
    const index = buildIndex(sample());
    expect(folderActions(index.folderById.get('-1')!)).toEqual({ add: true, rename: false, remove: false, move: false });
    expect(folderActions(index.folderById.get('10')!)).toEqual({ add: true, rename: true, remove: true, move: true });
    expect(folderActions(index.folderById.get('0')!)).toEqual({ add: false, rename: false, remove: false, move: false });
    expect(folderActions(index.folderById.get('share-7')!)).toEqual({ add: false, rename: false, remove: false, move: false });
    const example = index.deviceByKey.get('d:0:860000000009001')!;
    expect(deviceActions(example)).toEqual({ move: false, remark: true });
    expect(deviceActions(index.deviceByKey.get('d:share-7:860000000007001')!)).toEqual({ move: false, remark: true });
    expect(deviceActions(index.deviceByKey.get('d:-1:860000000000002')!)).toEqual({ move: true, remark: true });
  });
});

describe('filtering', () => {
  const index = buildIndex(sample());

  it('shows every folder with the server counts when no filter applies', () => {
    const result = filterTree(index, NO_FILTERS, 'device', false);
    expect(result.nodes.map((n) => n.title)).toEqual(['Qinling Reserve', 'Experience', 'Li Wei']);
    expect(result.nodes[0]!.count).toBe(4);
    expect(names(result.nodes)).toContain('Empty');
    expect(result.matched).toBe(7);
  });

  it('searches name, remark name and IMEI, keeping the folders above each match', () => {
    const byRemark = filterTree(index, { ...NO_FILTERS, search: 'berth' }, 'device', false);
    expect(deviceNames(byRemark.nodes)).toEqual(['Bertha']);
    expect(byRemark.folderKeys.sort()).toEqual(['f:-1', 'f:10']);
    expect(byRemark.nodes[0]!.count).toBe(1);

    const byImei = filterTree(index, { ...NO_FILTERS, search: '7002' }, 'device', false);
    expect(deviceNames(byImei.nodes)).toEqual(['Shared fisher']);
    expect(byImei.matched).toBe(1);

    const byFolder = filterTree(index, { ...NO_FILTERS, search: 'honghe' }, 'device', false);
    expect(deviceNames(byFolder.nodes)).toEqual(['Stork A']);

    expect(filterTree(index, { ...NO_FILTERS, search: 'nothing like it' }, 'device', false).nodes).toEqual([]);
  });

  it('filters by sensor and by right, never keeping VHF receivers for the right filters', () => {
    const acc = filterTree(index, { ...NO_FILTERS, sensor: 1 }, 'device', false);
    expect(deviceNames(acc.nodes).sort()).toEqual(['Deer', 'Stork A']);
    expect(names(acc.nodes)).not.toContain('Empty');
    const download = filterTree(index, { ...NO_FILTERS, right: 'download' }, 'device', false);
    expect(deviceNames(download.nodes)).not.toContain('VHF station');
    expect(deviceNames(download.nodes)).toContain('Shared seal');
    expect(deviceNames(download.nodes)).not.toContain('Shared fisher');
    const share = filterTree(index, { ...NO_FILTERS, right: 'share' }, 'device', false);
    expect(deviceNames(share.nodes)).toContain('Shared fisher');
    expect(deviceNames(share.nodes)).not.toContain('Sample stork');
  });

  it('greys out what the page may not select and leaves a folder with nothing to check without a checkbox', () => {
    const result = filterTree(index, NO_FILTERS, 'instr', true);
    const flat = (nodes: TreeNode[]): TreeNode[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);
    const byTitle = new Map(flat(result.nodes).map((n) => [n.title, n]));
    expect(byTitle.get('VHF station')?.disabled).toBe(true);
    expect(byTitle.get('Deer')?.disabled).toBe(true); // status 5 takes no instructions
    expect(byTitle.get('Stork A')?.disabled).toBeUndefined();
    expect(byTitle.get('Li Wei')?.disableCheckbox).toBe(true);
    expect(byTitle.get('Empty')?.disableCheckbox).toBe(true);
    expect(checkedImeis(index, ['f:10', 'd:10:860000000000012', 'd:11:860000000000011', 'd:11:860000000000011'])).toEqual(['860000000000012', '860000000000011']);
  });

  // Its time is measured in bench/tree-filter (npm run bench -- tree-filter), not asserted here.
  it('filters 10,000 devices in 1,000 folders', () => {
    const folders = Array.from({ length: 1000 }, (_, f) =>
      folder(String(100 + f), `Folder ${f}`, {
        devices: Array.from({ length: 10 }, (_, d) => treeDevice(String(860000000000000 + f * 10 + d), { Caption: `Tag ${f}-${d}`, Sensor: d % 2 ? GNSS : GNSS | Temperature })),
      }),
    );
    const big = buildIndex(tree(folder('-1', 'Big', { folders })));
    const result = filterTree(big, { ...NO_FILTERS, search: '860000000005', sensor: 2 }, 'device', false);
    expect(result.matched).toBe(500); // IMEIs …5000 to …5999, every other one with a thermometer
  });
});

describe('rows and checks (the virtualized tree)', () => {
  const index = buildIndex(sample());
  const titles = (rows: TreeRow[]): string[] => rows.map((r) => `${'  '.repeat(r.depth)}${r.node.title}`);

  it('draws the nodes below expanded folders only, in tree order', () => {
    const { nodes } = filterTree(index, NO_FILTERS, 'device', false);
    expect(titles(visibleRows(nodes, new Set()))).toEqual(['Qinling Reserve', 'Experience', 'Li Wei']);
    const rows = visibleRows(nodes, new Set(['f:-1', 'f:11']));
    // Honghe's own expansion waits for Storks to open
    expect(titles(rows)).toEqual(['Qinling Reserve', '  Storks', '  Empty', '  VHF station', '  Deer', 'Experience', 'Li Wei']);
    expect(rows[1]).toMatchObject({ parentKey: 'f:-1', hasChildren: true, expanded: false });
    expect(rows[2]).toMatchObject({ hasChildren: false, expanded: false }); // an empty folder has no switcher
    const all = visibleRows(nodes, new Set(filterTree(index, NO_FILTERS, 'device', false).folderKeys));
    expect(all).toHaveLength(13);
    expect(all.find((r) => r.node.title === 'Stork A')).toMatchObject({ depth: 3, parentKey: 'f:11' });
  });

  it('checks a folder as every checkable device below it, and shows a folder half-checked when some are', () => {
    const { nodes } = filterTree(index, NO_FILTERS, 'instr', true);
    const root = nodes[0]!;
    // Deer (status 5) and the VHF receiver can't be checked on /instr: the root checks the two storks
    const checked = toggleCheck(nodes, [], root, true);
    expect(checked.sort()).toEqual(['d:10:860000000000012', 'd:11:860000000000011', 'f:-1', 'f:10', 'f:11']);
    const storks = root.children!.find((n) => n.title === 'Storks')!;
    const unchecked = toggleCheck(nodes, checked, storks.children!.find((n) => n.title === 'Honghe')!, false);
    expect(unchecked.sort()).toEqual(['d:10:860000000000012']);
    const states = folderChecks(nodes, new Set(unchecked));
    expect(states.get('f:-1')).toBe('some');
    expect(states.get('f:10')).toBe('some');
    expect(states.has('f:11')).toBe(false);
    expect(states.has('f:20')).toBe(false); // nothing to check in it
  });

  it('keeps devices checked earlier that the filters hide now', () => {
    const { nodes } = filterTree(index, { ...NO_FILTERS, search: 'stork a' }, 'instr', true);
    const checked = toggleCheck(nodes, ['d:10:860000000000012'], nodes[0]!, true);
    expect(checked).toContain('d:10:860000000000012');
    expect(checked).toContain('d:11:860000000000011');
  });
});

describe('the move-to picker', () => {
  const folders = [
    {
      IdStr: '-1',
      ParentIdStr: '',
      Name: 'Org',
      DeviceCount: 0,
      Folders: [
        { IdStr: '10', ParentIdStr: '-1', Name: 'A', DeviceCount: 0, Folders: [{ IdStr: '11', ParentIdStr: '10', Name: 'A1', DeviceCount: 0, Folders: [] }] },
        { IdStr: '20', ParentIdStr: '-1', Name: 'B', DeviceCount: 0, Folders: [] },
      ],
    },
    { IdStr: '0', ParentIdStr: '', Name: 'Experience', DeviceCount: 0, Folders: [] },
  ];
  const ids = (nodes: ReturnType<typeof moveTargets>): string[] => nodes.flatMap((n) => [n.key, ...ids(n.children)]);

  it('leaves out the experience folder, and for a folder itself and everything below it', () => {
    expect(ids(moveTargets(folders, { rootLabel: 'All' }))).toEqual(['-1', '10', '11', '20']);
    expect(ids(moveTargets(folders, { moving: '10', current: '-1', rootLabel: 'All' }))).toEqual(['-1', '20']);
    const forDevice = moveTargets(folders, { current: '20', rootLabel: 'All' });
    expect(forDevice[0]!.title).toBe('All');
    expect(forDevice[0]!.children[1]!.disabled).toBe(true);
  });
});

describe('the marks', () => {
  const state = (rows: [string, number | null, number][]) => ({ IMEI: rows.map((r) => r[0]), LastWorkAt: rows.map((r) => r[1]), ReportGapMinutes: rows.map((r) => r[2]) });
  const NOW = Date.UTC(2026, 10, 24, 10, 0, 0);

  it('looks the marks up by IMEI and judges them against the clock', () => {
    const links = linkIndex(state([['A', NOW - 12 * 60_000, 10], ['B', null, 420]]));
    expect(markOf(links, 'A', NOW)).toBe('online');
    expect(markOf(links, 'A', NOW + 10 * 60_000)).toBe('late');
    expect(markOf(links, 'B', NOW)).toBe('never');
    expect(markOf(links, 'C', NOW)).toBeNull();
    expect(markOf(undefined, 'A', NOW)).toBeNull();
  });

  it('tells which devices reported between two answers', () => {
    const before = state([['A', 1, 10], ['B', null, 420], ['C', 5, 10]]);
    const after = state([['A', 1, 10], ['B', 7, 420], ['C', 9, 60], ['D', 3, 10]]);
    expect([...reportedSince(before, after)].sort()).toEqual(['B', 'C']);
    expect(reportedSince(after, after).size).toBe(0);
  });
});
