// Bundles the server (and the contract it imports) into dist/; native and heavy packages stay external.
import { build } from 'esbuild';

await build({
  // shp-worker: the shapefile import's worker thread, started from beside the bundle (modules/fence/shp-import.ts).
  entryPoints: { main: 'src/main.ts', cli: 'src/cli.ts', 'shp-worker': 'src/modules/fence/shp-worker.ts' },
  // SERVER_OUTDIR: a private build (e.g. dist-mine) beside dist, so that its external packages still resolve.
  outdir: process.env.SERVER_OUTDIR ?? 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  // The contract and the sample-fleet generator are TypeScript sources in the workspace: bundled in.
  plugins: [
    {
      name: 'bundle-workspace-packages',
      setup(b) {
        b.onResolve({ filter: /^@wildtrack\/contract$/ }, () => ({ path: new URL('../../packages/contract/src/index.ts', import.meta.url).pathname }));
        b.onResolve({ filter: /^@wildtrack\/sample-fleet$/ }, () => ({ path: new URL('../../packages/sample-fleet/src/index.ts', import.meta.url).pathname }));
      },
    },
  ],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'info',
});
