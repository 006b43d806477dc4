import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig, type PluginOption } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// @vitejs/plugin-react is hoisted next to Vite 8 (pulled in by Vitest) while this app builds with Vite 7;
// the plugin supports both at run time, only their type declarations differ.
const reactPlugin = react() as unknown as PluginOption;

// The dev server forwards the API to the local server (npm run dev -w @wildtrack/server or the built one);
// the production build lands in apps/web/dist, which the server serves with an SPA fallback.
export default defineConfig({
  root,
  plugins: [reactPlugin],
  server: {
    port: 5173,
    proxy: { '/prod-api': { target: 'http://localhost:8080', changeOrigin: true } },
  },
  preview: {
    proxy: { '/prod-api': { target: 'http://localhost:8080', changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
          if (/node_modules\/(antd|@ant-design|rc-[^/]+|@rc-component)\//.test(id)) return 'antd';
          return 'vendor';
        },
      },
    },
  },
});
