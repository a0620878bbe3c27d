// Where a worker entry lives at run time. scripts/build.ts bundles every `*.worker.ts` flat into dist/, next to
// dist/bench.js, so any bundle finds `<name>.worker.js` beside itself.
export function workerUrl(name: `${string}.worker`): URL {
  return new URL(`./${name}.js`, import.meta.url);
}
