// CommonJS packages loaded with require() instead of `import`: when an ES module imports a CommonJS one, Node first
// scans its source for export names (cjs-module-lexer, in JavaScript on Node 20), which costs several times more
// CPU than loading it (docs/runner-measurements.md §4.2).
import { createRequire } from 'node:module';

export const requireCjs = createRequire(import.meta.url);
