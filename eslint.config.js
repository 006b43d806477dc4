import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;
const at = (...parts) => join(root, ...parts);
const subfolders = (...parts) => {
  try {
    return readdirSync(at(...parts), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
};

// The layer rules (docs/architecture.md draws them; scripts/lint-layers.test.ts plants a violation of
// each). Imports are resolved to files first, so a rule holds whichever way the import is spelled
// (`../device/repository.js`, `../../modules/device/repository.js`, a package name that links into tools/).
const serverModules = subfolders('apps/server/src/modules');
const webFeatures = subfolders('apps/web/src/features');
const layerZones = [
  // (a) A module reaches another module through its service, never through its repository: the
  // repository is the module's private access to its tables.
  ...serverModules.map((name) => ({
    target: at('apps/server/src/modules', name),
    from: [at('apps/server/src/modules/*/**/*repository*'), at('apps/server/src/modules/*/**/*repository*/**')],
    except: [at('apps/server/src/modules', name, '**')],
    message: 'A module may not read another module\'s repository: call that module\'s service (shared/CONVENTIONS.md 14).',
  })),
  // (b) The transport resolves the caller and the envelope for every module; it depends on none.
  {
    target: at('apps/server/src/http'),
    from: at('apps/server/src/modules'),
    message: 'http/ is the transport under every module and imports none (shared/CONVENTIONS.md 14).',
  },
  // Ingest (the device protocol) sits under the modules: what it shares with the console is in db/ or the contract.
  {
    target: at('apps/server/src/ingest/**/!(*.test).ts'),
    from: at('apps/server/src/modules'),
    message: 'ingest/ imports no module: what it shares with one moves to db/ or the contract (docs/architecture.md).',
  },
  // The server's lowest room: small generic pieces (Listeners) every layer may use; it knows none of them.
  {
    target: at('apps/server/src/lib'),
    from: at('apps/server/src'),
    except: [at('apps/server/src/lib')],
    message: 'lib/ is the server\'s lowest room and imports nothing of the app (docs/architecture.md).',
  },
  // The rules more than one owner keeps (device events, track days) and the in-process event bus: above
  // lib/, under db/, ingest and every module; no query, no transport, so any of them may use them.
  {
    target: at('apps/server/src/domain'),
    from: at('apps/server/src'),
    except: [at('apps/server/src/domain'), at('apps/server/src/lib')],
    message: 'domain/ holds rules and the event bus: it imports only lib/ and the contract (docs/architecture.md).',
  },
  // (c) The production server ships without the developer tools.
  {
    target: at('apps/server'),
    from: at('tools'),
    message: 'The server imports nothing from tools/: shared code belongs in a package under packages/.',
  },
  // (d) A web screen stands alone; what two screens share lives in components/, lib/, map/ or a slot.
  ...webFeatures.map((name) => ({
    target: at('apps/web/src/features', name),
    from: [at('apps/web/src/features/*/**')],
    except: [at('apps/web/src/features', name, '**')],
    message: 'A web feature does not import another feature: move what both need to shared code (shared/CONVENTIONS.md 9, 14).',
  })),
  // What every screen stands on (shared components, lib, map, slots, i18n) imports no screen and not the
  // app shell: otherwise one screen's change reaches every other through the floor. (Its tests may
  // render through the app's providers.)
  {
    target: at('apps/web/src/{components,lib,map,widgets,i18n}/**/!(*.test).{ts,tsx}'),
    from: [at('apps/web/src/features'), at('apps/web/src/app')],
    message: 'Shared web code imports no feature and not the app shell (shared/CONVENTIONS.md 14).',
  },
  // The web's lowest room: the browser's own facilities read safely (its key-value stores); it knows none of the app.
  {
    target: at('apps/web/src/browser'),
    from: at('apps/web/src'),
    except: [at('apps/web/src/browser')],
    message: 'browser/ is the web\'s lowest room and imports nothing of the app (docs/architecture.md).',
  },
  // The texts stand under lib/: the API client, live stream and forms ask i18n for the language, so i18n asks lib nothing.
  {
    target: at('apps/web/src/i18n/**/!(*.test).{ts,tsx}'),
    from: at('apps/web/src/lib'),
    message: 'i18n/ imports nothing of lib/ (lib asks i18n for the language): what both need moves down to browser/ (docs/architecture.md).',
  },
  // The floor stands under the slots: a slot is made of the floor, so the floor importing one is a circle
  // of rooms (a piece the floor needs from a slot moves down, or the slot's user passes it in as a prop).
  {
    target: at('apps/web/src/{components,lib,map,i18n}/**/!(*.test).{ts,tsx}'),
    from: at('apps/web/src/widgets'),
    message: 'The web floor (components, lib, map, i18n) imports no slot: move the piece down, or let the screen pass it in (docs/architecture.md).',
  },
  // (e) The contract is the ground floor: both apps import it, it imports neither.
  {
    target: at('packages/contract'),
    from: [at('apps'), at('tools'), at('e2e'), at('bench')],
    message: 'The contract imports no app or tool: it is the ground floor both sides stand on.',
  },
  // The two apps talk through the contract only.
  { target: at('apps/web'), from: at('apps/server'), message: 'The web imports the contract, not the server.' },
  { target: at('apps/server'), from: at('apps/web'), message: 'The server imports the contract, not the web.' },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-*/**', '**/node_modules/**', 'data/**', 'e2e/artifacts/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['{apps,packages,tools}/**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      // Files the rules that read other files (no-cycle) parse: TypeScript ones with typescript-eslint's parser.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // TypeScript sources import each other with `.js` suffixes (verbatimModuleSyntax, Bundler resolution).
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: layerZones }] },
  },
  {
    // No import circle in the sources: a circle makes two rooms one (neither can change or be tested
    // alone) and leaves the load order to chance. What both sides need moves down to the room both
    // import, or is passed in. Type-only imports count too. Tests may import what they like.
    files: ['apps/server/src/**/*.{ts,tsx}', 'apps/web/src/**/*.{ts,tsx}', 'packages/*/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/test/**'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Server tests build their data at a fixed instant (shared/CONVENTIONS.md 16, 22): the server reads its time
    // through lib/clock.ts `now()`, which a test fixes with test/clock.ts `useFixedClock` and moves with
    // `advanceClock`. So a test reads no wall clock (`Date.now()`, `new Date()`) and fakes no `Date` through
    // Vitest (the server does not read it when fixed). A duration is timed on `performance.now()`; a test that
    // truly needs the wall clock (server processes of their own, the real clock's own test) says why:
    // `// eslint-disable-next-line no-restricted-syntax -- <why>`. scripts/lint-clock.test.ts plants each.
    files: ['apps/server/src/**/*.test.ts', 'apps/server/src/test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          "NewExpression[callee.name='Date'][arguments.length=0]",
        ].map((selector) => ({
          selector,
          message: 'A server test reads no wall clock: build the data at a fixed instant (test/clock.ts useFixedClock, test/fixed-time.ts NOW) and read the server\'s clock with now().',
        })),
        ...[
          "CallExpression[callee.object.name='vi'][callee.property.name='setSystemTime']",
          "CallExpression[callee.object.name='vi'][callee.property.name='useFakeTimers'][arguments.length=0]",
          "CallExpression[callee.object.name='vi'][callee.property.name='useFakeTimers'] Literal[value='Date']",
        ].map((selector) => ({
          selector,
          message: 'A server test does not fake Date: fix the server\'s clock (test/clock.ts useFixedClock, setClock, advanceClock); fake only the timers (toFake: [\'setTimeout\', ...]).',
        })),
      ],
    },
  },
  {
    // (e) The contract imports only what its package.json declares (tests may use the root's dev tools),
    // and nothing of Node's: the browser loads it too.
    files: ['packages/contract/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-extraneous-dependencies': ['error', { packageDir: [at('packages/contract')], devDependencies: false }],
      'import-x/no-nodejs-modules': 'error',
    },
  },
  {
    files: ['packages/contract/src/**/*.test.ts'],
    rules: {
      'import-x/no-extraneous-dependencies': ['error', { packageDir: [at('packages/contract'), root] }],
    },
  },
);
