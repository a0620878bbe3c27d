// The layering of bench's top-level parts, checked by `make test` (npx depcruise). Each rule says what it keeps
// apart and why; a wrong import fails CI with the rule's name and comment. The layout is drawn in README.md.
//
//   scenarios ─> lib ─> core            the k6 side: pure code, no Node, no other part
//   cli ─> runner | emulator | report   each through its index.ts; only cli sees every part
//   runner, emulator, report ─> core    and lib's pure modules (emulator: the wire types; report: results, charts)
//   runner, report ─> charts ─> core     drawing chart specs (SVG, the HTML page) for the report and the dashboard
//   benchmarks, scripts, tests          outside the product: may read any part, nothing reads them
const TEST = '\\.test\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle: split the shared piece into a module both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-is-a-leaf',
      severity: 'error',
      comment:
        'core/ holds what every part shares; it imports no part, or the parts would depend on each other through it.',
      from: { path: '^core/' },
      to: { path: '^(cli|charts|runner|emulator|report|lib|scenarios|scripts|benchmarks|tests)/' },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment:
        'core/ is imported by the k6 side (lib/, scenarios/), which runs where Node modules do not exist.',
      from: { path: '^core/', pathNot: TEST },
      to: { dependencyTypes: ['core', 'npm', 'npm-dev'] },
    },
    {
      name: 'lib-is-the-k6-side',
      severity: 'error',
      comment:
        'lib/ runs inside k6 (and on Grafana k6): it may import lib/, core/ and k6 modules only, never Node or npm code.',
      from: { path: '^lib/', pathNot: `${TEST}|/testdata/` },
      to: { pathNot: '^(lib|core)/|^k6(/|$)|^package\\.json$' },
    },
    {
      name: 'scenarios-are-entries',
      severity: 'error',
      comment: 'A k6 entry file imports its experiment from lib/ and nothing else.',
      from: { path: '^scenarios/' },
      to: { pathNot: '^(lib|core)/|^k6(/|$)' },
    },
    {
      name: 'charts-draw-only',
      severity: 'error',
      comment:
        'charts/ turns chart specs into SVG and HTML for the report and the dashboard; it knows neither.',
      from: { path: '^charts/', pathNot: TEST },
      to: { path: '^(cli|runner|emulator|report|lib|scenarios|scripts|benchmarks|tests)/' },
    },
    {
      name: 'runner-stands-alone',
      severity: 'error',
      comment: 'The runner runs any k6 script: it knows no experiment, no emulator and no report.',
      from: { path: '^runner/', pathNot: TEST },
      to: { path: '^(cli|emulator|report|lib|scenarios|scripts|benchmarks|tests)/' },
    },
    {
      name: 'emulator-stands-alone',
      severity: 'error',
      comment:
        'The emulator serves the turbopuffer API: it shares the wire types in lib/, nothing of the runner or report.',
      from: { path: '^emulator/', pathNot: TEST },
      to: { path: '^(cli|runner|report|scenarios|scripts|benchmarks|tests)/' },
    },
    {
      name: 'report-stands-alone',
      severity: 'error',
      comment: 'The report reads result files; it needs neither the runner nor the emulator.',
      from: { path: '^report/', pathNot: TEST },
      to: { path: '^(cli|runner|emulator|scenarios|scripts|benchmarks|tests)/' },
    },
    {
      name: 'cli-through-public-entries',
      severity: 'error',
      comment:
        "cli/ calls each part through its index.ts, so a part's insides can change without touching the command.",
      from: { path: '^cli/', pathNot: TEST },
      to: { path: '^(runner|emulator|report)/', pathNot: '^(runner|emulator|report)/index\\.ts$' },
    },
    {
      name: 'nothing-imports-the-command',
      severity: 'error',
      comment: 'cli/ is the top: no part depends on the command that wires them.',
      from: { pathNot: '^(cli|tests|benchmarks)/' },
      to: { path: '^cli/' },
    },
    {
      name: 'product-ignores-tools',
      severity: 'error',
      comment:
        'benchmarks/ and tests/ measure and check the product; the product never imports them (test files may use tests/ helpers).',
      from: { path: '^(cli|core|runner|emulator|report|lib|scenarios|scripts)/', pathNot: TEST },
      to: { path: '^(benchmarks|tests)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|build|dist|\\.venv|results|runs)/' },
    tsConfig: { fileName: 'tsconfig.node.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
