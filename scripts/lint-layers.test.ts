import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// Each layer rule of eslint.config.js (drawn in docs/architecture.md) is shown failing on a planted file
// that breaks it and passing on the import the layer does allow. The planted files are virtual: ESLint
// lints the text as if it sat at the given path, and the imports resolve to the real tree, so nothing is
// written and the test follows the tree as it changes (modules and features are looked up, not named).
// The import circle is the exception: `import-x/no-cycle` reads the other file from disk, so its two
// files are written to a temporary folder in the tree and removed after.

const root = join(import.meta.dirname, '..');
const at = (...parts: string[]) => join(root, ...parts);
const folders = (dir: string) =>
  readdirSync(at(dir), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
const files = (dir: string) =>
  readdirSync(at(dir), { withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name).sort();

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The import rules' complaints about `code` placed at `path` (relative to the repository). */
async function complaints(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: at(path) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.startsWith('import-x/') || m.fatal)
    .map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

/** `from` as an import specifier relative to the planted file `path` (both relative to the repository). */
function spec(path: string, target: string): string {
  const s = relative(join(at(path), '..'), at(target)).replace(/\.tsx?$/, '.js');
  return s.startsWith('.') ? s : `./${s}`;
}

describe('server: a module never imports another module\'s repository', () => {
  const modules = folders('apps/server/src/modules');
  const owner = modules.find((m) => existsSync(at('apps/server/src/modules', m, 'repository.ts')));
  const other = modules.find((m) => m !== owner);

  it('fails on a planted file in one module that reads another module\'s repository', async () => {
    expect(owner && other, 'two modules, one with a repository.ts').toBeTruthy();
    const planted = `apps/server/src/modules/${other}/planted.ts`;
    const found = await complaints(planted, `import '${spec(planted, `apps/server/src/modules/${owner}/repository.ts`)}';\n`);
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*another module's repository/)]);
  });

  it('fails the same way from a sub-folder, with the path spelled through modules/', async () => {
    const planted = `apps/server/src/modules/${other}/deep/planted.ts`;
    const found = await complaints(planted, `import '${spec(planted, `apps/server/src/modules/${owner}/repository.ts`)}';\n`);
    expect(found).toHaveLength(1);
  });

  it('fails on a repository by another name (device/gate-repository.ts)', async () => {
    const named = 'apps/server/src/modules/device/gate-repository.ts';
    expect(existsSync(at(named)), named).toBe(true);
    const planted = 'apps/server/src/modules/fix/planted.ts';
    const found = await complaints(planted, `import '${spec(planted, named)}';\n`);
    expect(found).toEqual([expect.stringMatching(/another module's repository/)]);
  });

  it('passes a module reading its own repository and another module\'s service', async () => {
    const planted = `apps/server/src/modules/${owner}/planted.ts`;
    const service = modules
      .filter((m) => m !== owner)
      .map((m) => `apps/server/src/modules/${m}/service.ts`)
      .find((f) => existsSync(at(f)));
    expect(service, 'another module with a service.ts').toBeDefined();
    const code = `import './repository.js';\nimport '${spec(planted, service!)}';\n`;
    expect(await complaints(planted, code)).toEqual([]);
  });
});

describe('server: http/ imports no module', () => {
  const planted = 'apps/server/src/http/planted.ts';

  it('fails on a planted transport file that imports a module', async () => {
    const module = folders('apps/server/src/modules').find((m) => files(`apps/server/src/modules/${m}`).includes('routes.ts'));
    const found = await complaints(planted, `import '${spec(planted, `apps/server/src/modules/${module}/routes.ts`)}';\n`);
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*http\/ is the transport/)]);
  });

  it('passes the transport importing the database layer and the contract', async () => {
    const code = `import '../db/connect.js';\nimport '@wildtrack/contract';\n`;
    expect(await complaints(planted, code)).toEqual([]);
  });
});

describe('server: lib/ imports nothing of the app', () => {
  const planted = 'apps/server/src/lib/planted.ts';

  it('fails on a planted lib file that imports the database layer, a module or the transport', async () => {
    const found = await complaints(planted, `import '../db/connect.js';\nimport '../modules/fence/service.js';\nimport '../http/errors.js';\n`);
    expect(found).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*lib\/ is the server's lowest room/),
      expect.stringMatching(/^import-x\/no-restricted-paths: .*lib\/ is the server's lowest room/),
      expect.stringMatching(/^import-x\/no-restricted-paths: .*lib\/ is the server's lowest room/),
    ]);
  });

  it('passes lib importing its own files and Node, and a module importing lib', async () => {
    const own = files('apps/server/src/lib').find((f) => /\.ts$/.test(f) && !f.includes('.test.'));
    expect(own, 'a file in lib/').toBeDefined();
    expect(await complaints(planted, `import './${own!.replace(/\.ts$/, '.js')}';\nimport 'node:events';\n`)).toEqual([]);
    expect(await complaints('apps/server/src/modules/fence/planted.ts', `import '../../lib/${own!.replace(/\.ts$/, '.js')}';\n`)).toEqual([]);
  });
});

describe('server: domain/ imports only lib/ and the contract', () => {
  const planted = 'apps/server/src/domain/planted.ts';

  it('fails on a planted domain file that imports the database layer, a module or the transport', async () => {
    const found = await complaints(planted, `import '../db/connect.js';\nimport '../modules/fence/service.js';\nimport '../http/errors.js';\n`);
    expect(found).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*domain\/ holds rules/),
      expect.stringMatching(/^import-x\/no-restricted-paths: .*domain\/ holds rules/),
      expect.stringMatching(/^import-x\/no-restricted-paths: .*domain\/ holds rules/),
    ]);
  });

  it('passes domain importing its own files, lib and the contract, and ingest and a module importing domain', async () => {
    expect(await complaints(planted, `import './event-bus.js';\nimport '../lib/listeners.js';\nimport '@wildtrack/contract';\n`)).toEqual([]);
    expect(await complaints('apps/server/src/ingest/planted.ts', `import '../domain/device-events.js';\n`)).toEqual([]);
    expect(await complaints('apps/server/src/modules/fence/planted.ts', `import '../../domain/track-days.js';\n`)).toEqual([]);
  });
});

describe('server: ingest/ imports no module', () => {
  const planted = 'apps/server/src/ingest/planted.ts';

  it('fails on a planted ingest file that imports a module', async () => {
    const found = await complaints(planted, `import '../modules/device/work-status.js';\n`);
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*ingest\/ imports no module/)]);
  });

  it('passes ingest importing the database layer, the transport and the contract', async () => {
    expect(await complaints(planted, `import '../db/connect.js';\nimport '../http/errors.js';\nimport '@wildtrack/contract';\n`)).toEqual([]);
  });
});

describe('server: nothing from tools/', () => {
  const planted = 'apps/server/src/modules/planted.ts';

  it('fails on the simulator by package name, by path, and imported at run time', async () => {
    expect(await complaints(planted, `import '@wildtrack/simulator';\n`)).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*nothing from tools\//),
    ]);
    expect(await complaints(planted, `import '${spec(planted, 'tools/simulator/src/index.ts')}';\n`)).toHaveLength(1);
    expect(await complaints(planted, `export const load = () => import('@wildtrack/simulator');\n`)).toHaveLength(1);
  });

  it('passes the workspace packages the server depends on', async () => {
    expect(await complaints(planted, `import '@wildtrack/contract';\n`)).toEqual([]);
  });
});

describe('web: a feature imports no other feature', () => {
  const features = folders('apps/web/src/features');
  const [mine, theirs] = features;
  const theirFile = theirs ? files(`apps/web/src/features/${theirs}`).find((f) => /\.tsx?$/.test(f)) : undefined;
  const planted = `apps/web/src/features/${mine}/Planted.tsx`;

  it('fails on a planted feature file that imports another feature', async () => {
    expect(theirFile, 'a second feature with a source file').toBeDefined();
    const found = await complaints(planted, `import '${spec(planted, `apps/web/src/features/${theirs}/${theirFile}`)}';\n`);
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*does not import another feature/)]);
  });

  it('passes a feature importing its own files and the shared code', async () => {
    const own = files(`apps/web/src/features/${mine}`).find((f) => /\.tsx?$/.test(f) && !f.includes('.test.'));
    const shared = files('apps/web/src/lib').find((f) => /\.tsx?$/.test(f) && !f.includes('.test.'));
    const code = `import './${own!.replace(/\.tsx?$/, '.js')}';\nimport '../../lib/${shared!.replace(/\.tsx?$/, '.js')}';\n`;
    expect(await complaints(planted, code)).toEqual([]);
  });
});

describe('web: shared code imports no feature and not the app shell', () => {
  const feature = folders('apps/web/src/features')[0];
  const featureFile = feature ? files(`apps/web/src/features/${feature}`).find((f) => /\.tsx?$/.test(f)) : undefined;
  const appFile = files('apps/web/src/app').find((f) => /\.tsx?$/.test(f) && !f.includes('.test.'));

  it('fails on a planted shared file that imports a feature or the app shell', async () => {
    expect(featureFile && appFile, 'a feature file and an app file').toBeTruthy();
    const planted = 'apps/web/src/lib/planted.ts';
    const found = await complaints(planted, `import '${spec(planted, `apps/web/src/features/${feature}/${featureFile}`)}';\nimport '${spec(planted, `apps/web/src/app/${appFile}`)}';\n`);
    expect(found).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*Shared web code imports no feature/),
      expect.stringMatching(/^import-x\/no-restricted-paths: .*Shared web code imports no feature/),
    ]);
  });

  it('passes a shared test rendering through the app shell, and shared code importing shared code', async () => {
    const planted = 'apps/web/src/map/planted.test.tsx';
    expect(await complaints(planted, `import '${spec(planted, `apps/web/src/app/${appFile}`)}';\n`)).toEqual([]);
    const shared = files('apps/web/src/lib').find((f) => /\.tsx?$/.test(f) && !f.includes('.test.'));
    expect(await complaints('apps/web/src/map/Planted.tsx', `import '../lib/${shared!.replace(/\.tsx?$/, '.js')}';\n`)).toEqual([]);
  });
});

describe('web: browser/ imports nothing of the app, i18n/ nothing of lib/, the floor no slot', () => {
  it('fails on a planted browser file that imports lib or i18n', async () => {
    const planted = 'apps/web/src/browser/planted.ts';
    expect(await complaints(planted, `import '../lib/session.js';\nimport '../i18n/language.js';\n`)).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*browser\/ is the web's lowest room/),
      expect.stringMatching(/^import-x\/no-restricted-paths: .*browser\/ is the web's lowest room/),
    ]);
    expect(await complaints(planted, `import './storage.js';\nimport 'zod';\n`)).toEqual([]);
  });

  it('fails on a planted i18n file that imports lib, and passes it importing browser/', async () => {
    const planted = 'apps/web/src/i18n/planted.ts';
    expect(await complaints(planted, `import '../lib/session.js';\n`)).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*i18n\/ imports nothing of lib\//),
    ]);
    expect(await complaints(planted, `import '../browser/storage.js';\n`)).toEqual([]);
  });

  it.each(['components/Planted.tsx', 'lib/planted.ts', 'map/Planted.tsx', 'i18n/planted.ts'])('fails on a planted %s that imports a slot', async (file) => {
    const slot = folders('apps/web/src/widgets')[0];
    const planted = `apps/web/src/${file}`;
    expect(await complaints(planted, `import '${spec(planted, `apps/web/src/widgets/${slot}/index.ts`)}';\n`)).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*floor .* imports no slot/),
    ]);
  });
});

describe('contract: only its declared dependencies, no app', () => {
  const planted = 'packages/contract/src/planted.ts';

  it('fails on a planted contract file that imports an app', async () => {
    const found = await complaints(planted, `import '${spec(planted, 'apps/server/src/app.ts')}';\n`);
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*contract imports no app/)]);
  });

  it('fails on a package its package.json does not declare, and on a Node module', async () => {
    expect(await complaints(planted, `import 'fastify';\n`)).toEqual([
      expect.stringMatching(/^import-x\/no-extraneous-dependencies: /),
    ]);
    expect(await complaints(planted, `import 'node:fs';\n`)).toEqual([expect.stringMatching(/^import-x\/no-nodejs-modules: /)]);
  });

  it('passes its declared dependencies and its own files', async () => {
    expect(await complaints(planted, `import 'zod';\nimport '@noble/hashes/sha2.js';\nimport './index.js';\n`)).toEqual([]);
  });
});

describe('no import circle in the sources', () => {
  /** Writes `sources` (name → text) to a new folder under `dir`, lints them, removes them; the complaints per file. */
  async function planted(dir: string, sources: Record<string, string>): Promise<Record<string, string[]>> {
    const folder = mkdtempSync(join(at(dir), 'planted-cycle-'));
    try {
      for (const [name, text] of Object.entries(sources)) writeFileSync(join(folder, name), text);
      const results = await eslint.lintFiles(Object.keys(sources).map((name) => join(folder, name)));
      return Object.fromEntries(
        results.map((r) => [
          relative(folder, r.filePath),
          r.messages.filter((m) => m.ruleId?.startsWith('import-x/') || m.fatal).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`),
        ]),
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  const circle = {
    'a.ts': "import { b } from './b.js';\nexport const a = (): number => b() + 1;\n",
    'b.ts': "import { a } from './a.js';\nexport const b = (): number => (a.length > 0 ? 0 : 1);\n",
  };

  it.each(['apps/server/src/lib', 'apps/web/src/lib', 'packages/contract/src'])('fails on two planted files in %s that import each other', async (dir) => {
    expect(await planted(dir, circle)).toEqual({
      'a.ts': [expect.stringMatching(/^import-x\/no-cycle: Dependency cycle/)],
      'b.ts': [expect.stringMatching(/^import-x\/no-cycle: Dependency cycle/)],
    });
  });

  it('fails on a circle through a third file', async () => {
    const found = await planted('apps/server/src/lib', {
      'a.ts': "import { b } from './b.js';\nexport const a = (): number => b();\n",
      'b.ts': "import { c } from './c.js';\nexport const b = (): number => c();\n",
      'c.ts': "import { a } from './a.js';\nexport const c = (): number => a.length;\n",
    });
    expect(Object.values(found).flat()).toEqual(Array(3).fill(expect.stringMatching(/^import-x\/no-cycle: /)));
  });

  it('passes the same two files when only one imports the other', async () => {
    expect(await planted('apps/server/src/lib', { ...circle, 'b.ts': 'export const b = (): number => 1;\n' })).toEqual({ 'a.ts': [], 'b.ts': [] });
  });
});
