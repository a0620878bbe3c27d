// The launcher's record of one `make filter-cost` run: the profile, the shared knobs and, per configuration run,
// its exit code and the files it wrote. Written next to the per-configuration results as `runs.json`; the report
// step reads it. Types only (the launcher writes it, scripts/filter-cost-launch.ts).

export interface FilterCostRunEntry {
  configuration: string;
  /** 1-based: the nth run of this configuration in the launch (--repeats, or a profile listing it twice). */
  repeat: number;
  /** The runner's exit code (0 ok, 99 thresholds failed, 107 init error, ...). */
  exit_code: number;
  /** Result JSON written by the run, relative to the run directory; null when it wrote none. */
  result: string | null;
  /** The run's `--out json` stream (raw samples), relative to the repository; null when not kept. */
  samples: string | null;
  started_at: string;
  finished_at: string;
  /** 1-minute load average of the machine when the run started and ended (other work skews figures). */
  load_average: [number, number];
}

export interface FilterCostManifest {
  experiment: 'filter-cost';
  profile: string;
  description: string;
  started_at: string;
  target: 'emulator' | 'turbopuffer';
  /** `bench emulator` flags (a fresh emulator per run); null for the real service. */
  emulator_flags: string[] | null;
  /** Knobs every configuration shared, SEED included (drawn once per launch unless given). */
  env: Record<string, string>;
  /** Extra `bench run` flags given to the launcher (secrets redacted). */
  extra_args: string[];
  /** Logical CPUs of the machine that ran the load (and the emulator). */
  cpus: number;
  runs: FilterCostRunEntry[];
}
