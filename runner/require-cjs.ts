// CommonJS packages loaded with require() instead of `import`: when an ES module imports a CommonJS one, Node first
// scans its source for export names (cjs-module-lexer, in JavaScript on Node 20), which cost more than loading it:
// esbuild 89 ms of CPU by import against 22 ms by require, eslint-scope 72 against 12 (process.cpuUsage around each).
import { createRequire } from 'node:module';

export const requireCjs = createRequire(import.meta.url);
