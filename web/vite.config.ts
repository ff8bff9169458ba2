// Vite builds the page into dist/, which hisha-server serves (--static web/dist).
// `npm run dev` proxies the API to a server on 127.0.0.1:8080.
import { defineConfig } from 'vite';
import { serviceWorker } from './pwa-plugin'; // dist/sw.js, the offline app shell

export default defineConfig({
  plugins: [serviceWorker()],
  build: { outDir: 'dist', target: 'es2020', sourcemap: false, chunkSizeWarningLimit: 300 },
  // The browser engine's worker (engine-worker.ts) imports the wasm glue /wasm/hisha.js, an ES module.
  worker: { format: 'es' },
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080', ws: true } },
  },
});
