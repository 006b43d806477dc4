// npm run bench -- <name> [args]: runs bench/<name>/index.ts with tsx.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const names = fs.readdirSync(here).filter((d) => fs.existsSync(path.join(here, d, 'index.ts')));
const [name, ...args] = process.argv.slice(2);
if (!name || !names.includes(name)) {
  console.error(`usage: npm run bench -- <${names.join('|')}> [args]`);
  process.exit(2);
}
const r = spawnSync('npx', ['tsx', path.join(here, name, 'index.ts'), ...args], { stdio: 'inherit' });
process.exit(r.status ?? 1);
