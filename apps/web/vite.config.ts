import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
/** Where the dev server forwards /prod-api; the server's default port unless WILDTRACK_API says otherwise. */
const apiTarget = process.env.WILDTRACK_API ?? 'http://localhost:8080';

// The dev server forwards the API to the local server (npm run dev -w @wildtrack/server or the built one);
// the production build lands in apps/web/dist, which the server serves with an SPA fallback.
export default defineConfig({
  root,
  plugins: [react()],
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
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            // The map library is large and only the map views need it: a chunk of its own, loaded on demand.
            { name: 'maplibre', test: /node_modules[\\/](maplibre-gl|@maplibre|world-atlas|topojson-client|@mapbox|gl-matrix|kdbush|supercluster|earcut|potpack|quickselect|tinyqueue|pbf|murmurhash-js|geojson-vt)[\\/]/, priority: 4 },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 3 },
            { name: 'antd', test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+)[\\/]/, priority: 2 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
