// Runs before every web test file: jest-dom matchers, a clean DOM and clean storage per test.
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor wait up to 5 s, not 1: a screen behind a lazy route is transformed on first
// use, which on a loaded 2-core machine (the API suites run beside these) can take over a second.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
