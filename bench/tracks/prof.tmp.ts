import Database from 'better-sqlite3';
const db = new Database('/tmp/prof-fixes.db');
const cols = ['pick_time', 'lon', 'lat', 'alt', 'grade', 'valid'];
const sts = cols.map((c) => db.prepare(`select ${c} from fixes where device_id = ? and pick_time >= ? and pick_time <= ? and lon is not null and lat is not null order by pick_time`).pluck(true));
const packed = db.prepare(`select pick_time, lon, lat, alt, (grade << 1) | valid from fixes where device_id = ? and pick_time >= ? and pick_time <= ? and lon is not null and lat is not null order by pick_time`).raw(true);
for (let r = 0; r < 3; r++) {
  let t = performance.now();
  const out = sts.map((s) => s.all(1, 0, 2e12));
  const a = performance.now() - t;
  t = performance.now();
  const times = new Float64Array(1e6);
  let i = 0;
  for (const v of sts[0]!.iterate(1, 0, 2e12)) times[i++] = v as number;
  const b = performance.now() - t;
  t = performance.now();
  const p = packed.all(1, 0, 2e12);
  const c = performance.now() - t;
  console.log({ pluckAll6: a.toFixed(0), iterate1: b.toFixed(0), raw5: c.toFixed(0), n: out[0]!.length, p: p.length });
}
