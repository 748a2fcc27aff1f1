// Unit and component tests of the web app (happy-dom). The root vitest config lists this file as
// the `web` project; it also runs alone: `npx vitest run --config apps/web/vitest.config.ts`.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const rootDir = decodeURIComponent(new URL('.', import.meta.url).pathname);
const srcDir = decodeURIComponent(new URL('./src', import.meta.url).pathname);

export default defineConfig({
  root: rootDir,
  plugins: [react()],
  resolve: { alias: { '@': srcDir } },
  test: {
    name: 'web',
    root: rootDir,
    environment: 'happy-dom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // Component tests click through whole screens; on a loaded 2-core machine 5 s is not always enough.
    testTimeout: 15_000,
  },
});
