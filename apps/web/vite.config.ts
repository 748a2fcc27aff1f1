// Vite for the Karoo web app: React, Tailwind 4, `@/` for src, and /api proxied to the API in dev.
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const srcDir = decodeURIComponent(new URL('./src', import.meta.url).pathname);

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': srcDir } },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      // @karoo/shared is pure code (schemas, rules, constants) read through one index: treating its
      // modules as free of side effects lets the bundler drop what a chunk does not use, so the
      // landing page does not carry the zod schemas of the forms. The one exception is src/zod.ts,
      // whose only job is a side effect (zod's compiler off in browsers, before any schema exists).
      treeshake: { moduleSideEffects: (id: string) => !/[\\/]packages[\\/]shared[\\/]/.test(id) || /[\\/]packages[\\/]shared[\\/]src[\\/]zod\.ts$/.test(id) },
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        // Only what the landing page needs may end up in a chunk the entry loads: the heavy
        // libraries of lazy screens (forms, map, charts) get chunks of their own.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser|clsx)[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
            { name: 'forms', test: /node_modules[\\/](zod|react-hook-form|@hookform)[\\/]/ },
            { name: 'map', test: /node_modules[\\/](leaflet|react-leaflet|@react-leaflet)[\\/]/ },
            { name: 'charts', test: /node_modules[\\/](recharts|d3-[a-z-]+|victory-vendor|@reduxjs|redux|reselect|immer|decimal\.js-light|es-toolkit|eventemitter3)[\\/]/ },
          ],
        },
      },
    },
  },
});
