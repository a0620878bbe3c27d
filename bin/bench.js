#!/usr/bin/env node
// Launcher for the `bench` CLI: runs the bundle scripts/build.ts writes to dist/ (npm ci builds it via `prepare`).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/bench.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'bench: dist/bench.js is missing. Build it with `make build` (or `npm ci`), then retry.\n',
  );
  process.exit(2);
}
process.setSourceMapsEnabled(true);
await import(cli.href);
