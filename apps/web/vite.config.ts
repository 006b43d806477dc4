import react from '@vitejs/plugin-react';
import { createReadStream, cpSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { messageResources } from '../../packages/contract/src/messages';
import { CATALOGUE_MODULE_PREFIX, cataloguePart, messagesPart, type CataloguePart } from './src/i18n/parts';

const root = fileURLToPath(new URL('.', import.meta.url));
/** Where the dev server forwards /prod-api; the server's default port unless WILDTRACK_API says otherwise. */
const apiTarget = process.env.WILDTRACK_API ?? 'http://localhost:8080';

/** Where CesiumJS finds its run-time files (CESIUM_BASE_URL in src/map/globe/cesium.ts). */
const CESIUM_BASE = 'cesium';
/** What the globe loads at run time: web workers, textures (the offline NaturalEarthII imagery), wasm. */
const CESIUM_DIRS = ['Workers', 'Assets', 'ThirdParty'];
const CESIUM_TYPES: Record<string, string> = {
  '.js': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm', '.png': 'image/png',
  '.jpg': 'image/jpeg', '.svg': 'image/svg+xml', '.xml': 'application/xml', '.css': 'text/css',
};

/**
 * CesiumJS's static files come from the installed package, never from the repository: the dev server
 * answers /cesium/... from node_modules, and the build copies them into dist/cesium.
 */
function cesiumAssets(): Plugin {
  const source = join(createRequire(import.meta.url).resolve('cesium/package.json'), '..', 'Build', 'Cesium');
  let outDir = '';
  return {
    name: 'wildtrack-cesium-assets',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use(`/${CESIUM_BASE}/`, (req, res, next) => {
        const file = join(source, normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!)));
        const inside = CESIUM_DIRS.some((dir) => file.startsWith(join(source, dir) + sep));
        if (!inside || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
          res.statusCode = 404;
          return res.end();
        }
        res.setHeader('content-type', CESIUM_TYPES[extname(file)] ?? 'application/octet-stream');
        createReadStream(file).on('error', next).pipe(res);
      });
    },
    writeBundle() {
      for (const dir of CESIUM_DIRS) cpSync(join(source, dir), join(outDir, CESIUM_BASE, dir), { recursive: true });
    },
  };
}

/**
 * A part of a language's texts as a module of its own (src/i18n/parts.ts): `virtual:wildtrack-i18n/zh-CN-signedOut`
 * is the signed-out pages' namespaces of src/i18n/zh-CN.json, `zh-CN-signedIn` the rest (the chunks are
 * named so: zh-CN-signedOut-<hash>.js). The catalogue stays
 * one file per language (the key-set test compares them); only the chunks are two. Tests use it too
 * (vitest.config.ts).
 */
export function i18nParts(): Plugin {
  const resolved = `\0${CATALOGUE_MODULE_PREFIX}`;
  return {
    name: 'wildtrack-i18n-parts',
    resolveId(id) {
      return id.startsWith(CATALOGUE_MODULE_PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      if (!id.startsWith(resolved)) return null;
      const [, file, part] = /^([a-z]{2}-[A-Z]{2})-(signedOut|signedIn)$/.exec(id.slice(resolved.length)) ?? [];
      if (!file || !part) return this.error(`unknown catalogue part ${id.slice(1)}`);
      const path = join(root, 'src', 'i18n', `${file}.json`);
      this.addWatchFile(path);
      const texts = cataloguePart(JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>, part as CataloguePart);
      const messages = messagesPart(messageResources(file === 'zh-CN' ? 'zh' : 'en'), part as CataloguePart);
      // JSON.parse of a string literal: faster for the browser to read than an object literal this size.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(texts))});\nexport const contract = JSON.parse(${JSON.stringify(JSON.stringify(messages))});`;
    },
  };
}

/**
 * In the production build the contract's message catalogue (packages/contract/src/messages.ts, both
 * languages) is not code: its `./messages.js` resolves to src/i18n/contract-messages.ts, which holds what
 * the language parts above brought (`contract`). /login then carries its language's form sentences only.
 * The dev server and the tests keep the contract's module.
 */
export function contractMessages(): Plugin {
  const replacement = join(root, 'src', 'i18n', 'contract-messages.ts');
  return {
    name: 'wildtrack-contract-messages',
    enforce: 'pre',
    apply: 'build',
    resolveId(source, importer) {
      if (source !== './messages.js' || !importer) return null;
      return /[\\/]packages[\\/]contract[\\/]src[\\/][^\\/]+\.ts$/.test(importer) ? replacement : null;
    },
  };
}

// The dev server forwards the API to the local server (npm run dev -w @wildtrack/server or the built one);
// the production build lands in apps/web/dist, which the server serves with an SPA fallback.
export default defineConfig({
  root,
  plugins: [react(), cesiumAssets(), i18nParts(), contractMessages()],
  server: {
    port: 5173,
    proxy: { '/prod-api': { target: apiTarget, changeOrigin: true } },
  },
  preview: {
    proxy: { '/prod-api': { target: apiTarget, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // CesiumJS is one chunk of about 3.8 MB, loaded only by the /map3d screen.
    chunkSizeWarningLimit: 4000,
    rolldownOptions: {
      output: {
        // The map engines and React have chunks of their own (they change less often than the app, so they
        // stay cached across releases). Everything else, antd included, is split by the bundler per set of
        // screens that use it: a group that caught all of antd made every page load the whole 1.1 MB
        // library (the sign-in page needs a form, a button and the feedback components; /login's budget
        // is checked by npm run bench -- firstload).
        codeSplitting: {
          groups: [
            // Vite's helper for dynamic imports: every lazy screen needs it, so it must not sit in one of the
            // library chunks below (the entry would load that whole chunk to get it).
            { name: 'preload-helper', test: /^\0vite\/preload-helper/, priority: 10 },
            // The map library is large and only the map views need it: a chunk of its own, loaded on demand.
            // CesiumJS (the /map3d globe) likewise; the few small libraries both map engines use sit apart,
            // so neither map's chunk pulls in the other.
            { name: 'geo-common', test: /node_modules[\\/](earcut|kdbush|quickselect|topojson-client)[\\/]/, priority: 6 },
            { name: 'cesium', test: /node_modules[\\/](cesium|@cesium|@spz-loader|@tweenjs|@zip\.js|autolinker|bitmap-sdf|dompurify|draco3d|grapheme-splitter|jsep|ktx-parse|lerc|mersenne-twister|meshoptimizer|nosleep\.js|pako|protobufjs|@protobufjs|long|rbush|urijs)[\\/]/, priority: 5 },
            { name: 'maplibre', test: /node_modules[\\/](maplibre-gl|@maplibre|world-atlas|topojson-client|@mapbox|gl-matrix|kdbush|supercluster|earcut|potpack|quickselect|tinyqueue|pbf|murmurhash-js|geojson-vt)[\\/]/, priority: 4 },
            // deck.gl draws the tracks over the 2D map: on demand with it, in a chunk of its own.
            { name: 'deckgl', test: /node_modules[\\/](@deck\.gl|@luma\.gl|@math\.gl|@probe\.gl|@loaders\.gl|mjolnir\.js|h3-js|a5-js|long)[\\/]/, priority: 4 },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 3 },
          ],
        },
      },
    },
  },
});
