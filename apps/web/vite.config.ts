// Vite for the Karoo web app: React, Tailwind 4, `@/` for src, and /api proxied to the API in dev.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const srcDir = decodeURIComponent(new URL('./src', import.meta.url).pathname);

/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to every text file of the build above 1 KB, once,
 * at the best ratio: the API serves them as they are (@fastify/static `preCompressed`), so no
 * request ever pays for compression.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? walk(full) : [full];
    });
  return {
    name: 'karoo-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of walk(outDir)) {
        if (!/\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/.test(file) || statSync(file).size < 1024) continue;
        // The build's manifest (.vite/) is read by the server, never sent.
        if (file.includes(`${path.sep}.vite${path.sep}`)) continue;
        const body = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }));
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

// Two builds: the browser's (dist/) and the server renderer's (`vite build --ssr`, dist-server/,
// decision 044), which the API imports; the server's needs neither compressed copies nor chunk groups.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), ...(isSsrBuild ? [] : [precompress()])],
  resolve: { alias: { '@': srcDir } },
  // The server renderer carries its libraries (React, React Router, TanStack Query...) in its own
  // files: the API's image installs only the API's packages (Dockerfile), and finds them there.
  ssr: isSsrBuild ? { noExternal: true } : {},
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: true } },
  },
  build: isSsrBuild
    ? { outDir: 'dist-server', emptyOutDir: true, copyPublicDir: false, sourcemap: false, target: 'node24', rolldownOptions: { input: 'src/entry-server.tsx' } }
    : {
        outDir: 'dist',
        emptyOutDir: true,
        sourcemap: false,
        // dist/.vite/manifest.json: the chunks of each source file, so the server names a rendered
        // page's route chunks in its head (modulepreload) rather than the browser finding them late.
        manifest: true,
        rolldownOptions: {
          // @karoo/shared is pure code (schemas, rules, constants) read through one index: treating its
          // modules as free of side effects lets the bundler drop what a chunk does not use. The one
          // exception is src/zod.ts, whose only job is a side effect (zod's compiler off in browsers,
          // before any schema exists): it re-exports zod's `z`, so a bundler that thought it free of
          // effects would resolve `z` to zod itself and drop the setting. Only modules with schemas
          // import it, and the public pages import none of those (decision 053).
          treeshake: { moduleSideEffects: (id: string) => !/[\\/]packages[\\/]shared[\\/]/.test(id) || /[\\/]packages[\\/]shared[\\/]src[\\/]zod\.ts$/.test(id) },
          output: {
            // Libraries change less often than the app: separate chunks stay cached across releases.
            // Only what the landing page needs may end up in a chunk the entry loads: the heavy
            // libraries of lazy screens (forms, map, charts) get chunks of their own.
            codeSplitting: {
              groups: [
                { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser|clsx)[\\/]/ },
                // TanStack Table (and its store) only for the admin lists: not in the landing page's query chunk.
                { name: 'table', test: /node_modules[\\/]@tanstack[\\/](react-table|table-core|react-store|store)[\\/]/ },
                { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
                { name: 'forms', test: /node_modules[\\/](zod|react-hook-form|@hookform)[\\/]/ },
                { name: 'map', test: /node_modules[\\/](leaflet|react-leaflet|@react-leaflet)[\\/]/ },
                { name: 'charts', test: /node_modules[\\/](recharts|d3-[a-z-]+|victory-vendor|@reduxjs|redux|reselect|immer|decimal\.js-light|es-toolkit|eventemitter3)[\\/]/ },
              ],
            },
          },
        },
      },
}));
