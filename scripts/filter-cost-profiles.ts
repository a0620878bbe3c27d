// Experiment 2's profiles in one place for `make filter-cost`, `make filter-cost-smoke` and the smoke test: the
// namespace configurations to loop over (in run order), the knobs every run shares and the emulator's flags.
// Each configuration is one `bench run build/filter-cost.js` (lib/filter-cost/config.ts reads the knobs).

/** One namespace configuration: the knobs that differ between runs. */
export interface ConfigurationEnv {
  ATTRIBUTE: 'none' | 'int' | 'string';
  CARDINALITY?: string;
  FILTERABLE?: '0' | '1';
}

export interface FilterCostProfile {
  description: string;
  /** Flags for `bench emulator` (a fresh emulator per configuration); null = the real service, no emulator. */
  emulator: string[] | null;
  /** Knobs every configuration shares (`-e K=V`). */
  env: Record<string, string>;
  configurations: ConfigurationEnv[];
  /** Parent of the run's directory: `<dir>/filter-cost-<timestamp>/`. */
  resultsParent: string;
}

const NONE: ConfigurationEnv = { ATTRIBUTE: 'none' };

/** Both types at each cardinality (adjacent, so the int/string comparison shares the machine's conditions). */
function matrix(cardinalities: string[]): ConfigurationEnv[] {
  return cardinalities.flatMap((c) => [
    { ATTRIBUTE: 'int', CARDINALITY: c } as ConfigurationEnv,
    { ATTRIBUTE: 'string', CARDINALITY: c } as ConfigurationEnv,
  ]);
}

const UNFILTERED: ConfigurationEnv[] = [
  { ATTRIBUTE: 'int', CARDINALITY: 'unique', FILTERABLE: '0' },
  { ATTRIBUTE: 'string', CARDINALITY: 'unique', FILTERABLE: '0' },
];

export const PROFILES = {
  // 50,000 rows per namespace keeps 12 runs (about 1.7 GiB of vectors in all) inside 15 minutes on a 2-core machine.
  // QUERY_VUS stays at its default (one per query/s: a stall under a second drops no arrival, it shows as latency).
  // 100k distinct values cannot exist in 50,000 rows, so the local matrix is 2, 100, 10k and unique. The baseline
  // without an attribute runs first and last: the spread of its two runs shows how much the machine drifted.
  local: {
    description:
      'local profile: 11 configurations (12 runs, the baseline first and last) x 50,000 rows against fresh emulators, 6 s per cell at 20 queries/s (<= 15 min)',
    emulator: [],
    env: {
      ROWS: '50000',
      QUERY_RATE: '20',
      QUERY_DURATION_S: '6',
      QUERY_WARMUP_S: '1',
      CELL_GAP_S: '1',
      JIT_WARMUP_S: '3',
      RECALL_QUERIES: '10',
    },
    configurations: [NONE, ...matrix(['2', '100', '10000', 'unique']), ...UNFILTERED, NONE],
    resultsParent: 'results',
  },
  // The tiny profile `make test` runs (tests/filter-cost/smoke.test.ts): every kind of configuration once.
  smoke: {
    description: 'smoke profile: 4 namespaces x 2,000 rows, 2 s per cell (about a minute)',
    emulator: [],
    env: {
      ROWS: '2000',
      QUERY_RATE: '10',
      QUERY_DURATION_S: '2',
      QUERY_WARMUP_S: '1',
      CELL_GAP_S: '1',
      JIT_WARMUP_S: '2',
      RECALL_QUERIES: '3',
      WRITE_BATCH_ROWS: '500',
    },
    configurations: [
      NONE,
      { ATTRIBUTE: 'int', CARDINALITY: '2' },
      { ATTRIBUTE: 'string', CARDINALITY: 'unique' },
      { ATTRIBUTE: 'int', CARDINALITY: 'unique', FILTERABLE: '0' },
    ],
    resultsParent: 'results/scratch',
  },
  // The published experiment on the real service (TURBOPUFFER_API_KEY + TPUF_BENCH_CONFIRM_COST=1): 13 namespaces
  // of 1M rows, the script's defaults for everything else.
  service: {
    description:
      'real-service profile: 13 namespaces x 1,000,000 rows (costs money; needs TPUF_BENCH_CONFIRM_COST=1)',
    emulator: null,
    env: {},
    configurations: [NONE, ...matrix(['2', '100', '10000', '100000', 'unique']), ...UNFILTERED],
    resultsParent: 'results',
  },
} satisfies Record<string, FilterCostProfile>;

export type ProfileName = keyof typeof PROFILES;

/** The knobs of one configuration's run: profile, then configuration, then the caller's overrides. */
export function configurationEnv(
  profile: FilterCostProfile,
  configuration: ConfigurationEnv,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return { ...profile.env, ...configuration, ...overrides } as Record<string, string>;
}
