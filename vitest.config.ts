import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    // build/ and dist/ are generated bundles; node_modules and .venv (the Python SDK suite's) are not ours.
    exclude: ['node_modules/**', '.venv/**', 'build/**', 'dist/**'],
    // Integration tests spawn dist/bench.js and build/*.js: build them once before any test runs.
    globalSetup: ['tests/global-setup.ts'],
    // Tests that start servers and runners are slow on a loaded 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
