// bench/firstload: the JavaScript /login loads (gzip) from the built web app, against the budget of
// issue 9 §7 (<= 350 kB). Build first: npm run build -w @wildtrack/web (or name another dist folder). Exits 1 over the budget, or when
// a map chunk (MapLibre, deck.gl, Cesium) is part of the first load.
import fs from 'node:fs';
import path from 'node:path';
import { BUDGET_GZIP, MAP_CHUNKS, measureFirstLoad } from './measure.js';

const dist = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../../apps/web/dist'));
if (!fs.existsSync(path.join(dist, 'index.html'))) {
  console.error(`no build at ${dist}: run npm run build -w @wildtrack/web first`);
  process.exit(2);
}

const { chunks, gzip } = await measureFirstLoad(dist);
const kB = (n: number) => (n / 1000).toFixed(1).padStart(8);
console.log(`first load of /login: ${chunks.length} scripts`);
console.log(`${'raw kB'.padStart(8)} ${'gzip kB'.padStart(8)}  file`);
for (const c of chunks) console.log(`${kB(c.bytes)} ${kB(c.gzip)}  ${c.file}`);
console.log(`${kB(chunks.reduce((s, c) => s + c.bytes, 0))} ${kB(gzip)}  total (budget ${BUDGET_GZIP / 1000} kB gzip)`);

const maps = chunks.filter((c) => MAP_CHUNKS.test(c.file));
if (maps.length > 0) console.error(`map code on the first load: ${maps.map((c) => c.file).join(', ')}`);
if (gzip > BUDGET_GZIP) console.error(`over budget by ${((gzip - BUDGET_GZIP) / 1000).toFixed(1)} kB gzip`);
process.exit(gzip > BUDGET_GZIP || maps.length > 0 ? 1 : 0);
