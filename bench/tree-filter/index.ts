// bench/tree-filter: the device tree's search and sensor filter in the browser (the web's filterTree) over
// 10,000 devices in 1,000 folders, the case the tree's model test once timed with a wall-clock assertion
// (< 100 ms). Budget: one filter well within a frame of typing, <= 16 ms median. The baseline, measured in
// the same run, is a bare scan of the same devices by the same test (IMEI or caption contains the search,
// sensor flag set): the ratio says what the tree's own work (folders kept, counts, nodes built) costs on top.
import { SensorFlag, type TreeDevice } from '@wildtrack/contract';
import { buildIndex, filterTree, NO_FILTERS } from '../../apps/web/src/widgets/device-tree/model/index';
import { folder, tree, treeDevice } from '../../apps/web/src/test/devices';

const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const { GNSS, Temperature } = SensorFlag;
const devices: TreeDevice[] = [];
const folders = Array.from({ length: 1000 }, (_, f) =>
  folder(String(100 + f), `Folder ${f}`, {
    devices: Array.from({ length: 10 }, (_, d) => {
      const device = treeDevice(String(860000000000000 + f * 10 + d), { Caption: `Tag ${f}-${d}`, Sensor: d % 2 ? GNSS : GNSS | Temperature });
      devices.push(device);
      return device;
    }),
  }),
);
const index = buildIndex(tree(folder('-1', 'Big', { folders })));
const filters = { ...NO_FILTERS, search: '860000000005', sensor: 2 };

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
function time(run: () => number, expected: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const matched = run();
    out.push(performance.now() - started);
    if (matched !== expected) throw new Error(`matched ${matched}, expected ${expected}`);
  }
  return out;
}

const tree10k = time(() => filterTree(index, filters, 'device', false).matched, 500);
const scan = time(() => devices.filter((d) => (d.IMEI.includes(filters.search) || d.Caption.includes(filters.search)) && (d.Sensor & Temperature) !== 0).length, 500);
const m = median(tree10k);
const b = median(scan);
console.log(`tree filter, 10,000 devices in 1,000 folders, ${RUNS} runs: median ${m.toFixed(2)} ms, max ${Math.max(...tree10k).toFixed(2)} ms (budget <= 16 ms: ${m <= 16 ? 'met' : 'NOT met'})`);
console.log(`baseline, a bare scan of the devices: median ${b.toFixed(3)} ms; ratio tree / scan ${(m / b).toFixed(1)}`);
