// Every `bench run` flag as data (name, alias, argument, description, how it sets the parsed result), so help
// text and parsing come from one table. Parsing is pure: tests call parseRunFlags without running anything.

import { parseDuration, parseGoDuration } from '../../core/durations';
import { usageError } from '../../core/errors';
import type { Options } from './consolidate';
import { parseOptionText } from './env-options';

export interface ParsedRun {
  script: string | undefined;
  /** The arguments as given (bench run --instances passes them on to its instances). */
  argv: string[];
  cliOptions: Options;
  cliEnv: Record<string, string>;
  out: string[];
  summaryExport?: string;
  summaryMode?: 'compact' | 'full' | 'disabled';
  noThresholds?: boolean;
  vuThreads?: number;
  /** `--secret-source` values, in order (runner/modules/secrets.ts). */
  secretSources?: string[];
  /** bench `--offline`: remote modules only from the module cache (runner/script/remote-modules.ts). */
  offline?: boolean;
  /** bench `--instances N`: the test as N segmented processes on this machine, one merged result. */
  instances?: number;
  includeSystemEnvVars?: boolean;
  quiet: boolean;
  noColor?: boolean;
  verbose: boolean;
  logFormat?: string;
  logOutput?: string;
  consoleOutput?: string;
  configFile?: string;
  /** Flags k6 has that change nothing here (REST API, cloud, feature flags): reported as a warning. */
  ignoredFlags: string[];
  help: boolean;
}

type Arg = 'none' | 'value' | 'optional';

export interface Flag {
  name: string;
  alias?: string;
  arg: Arg;
  description: string;
  apply(r: ParsedRun, value: string | undefined): void;
}

/** NAME=VALUE of a flag such as --env. */
export function kv(value: string, flag: string): [string, string] {
  const eq = value.indexOf('=');
  if (eq <= 0) throw usageError(`--${flag} expects NAME=VALUE, got "${value}"`);
  return [value.slice(0, eq), value.slice(eq + 1)];
}

function bool(value: string | undefined): boolean {
  return value === undefined ? true : (parseOptionText('bool', value) as boolean);
}

function int(value: string | undefined, flag: string): number {
  if (value === undefined || !/^\d+$/.test(value))
    throw usageError(`--${flag} expects a whole number, got "${value}"`);
  return Number(value);
}

function duration(value: string | undefined, flag: string): string {
  try {
    parseDuration(value ?? '');
  } catch {
    throw usageError(`--${flag} expects a duration like 30s or 1m30s, got "${value}"`);
  }
  return value as string;
}

const opt =
  (key: string, parse: (v: string | undefined, flag: string) => unknown) =>
  (r: ParsedRun, v: string | undefined) => {
    r.cliOptions[key] = parse(v, key);
  };

/** The help text of a k6 flag whose option bench accepts but does not implement (it warns when set). */
export const NOT_IMPLEMENTED = 'accepted, not implemented (warns)';

export const RUN_FLAGS: Flag[] = [
  { name: 'vus', alias: 'u', arg: 'value', description: 'number of virtual users', apply: opt('vus', int) },
  {
    name: 'duration',
    alias: 'd',
    arg: 'value',
    description: 'test duration (e.g. 30s)',
    apply: opt('duration', duration),
  },
  {
    name: 'iterations',
    alias: 'i',
    arg: 'value',
    description: 'total iterations shared by the VUs',
    apply: opt('iterations', int),
  },
  {
    name: 'stage',
    alias: 's',
    arg: 'value',
    description: 'ramp stage DURATION:TARGET (repeatable)',
    apply: (r, v) => {
      const m = /^(.+):(\d+)$/.exec(v ?? '');
      if (!m || parseGoDuration(m[1]) === undefined)
        throw usageError(`--stage expects DURATION:TARGET like 30s:10, got "${v}"`);
      const stages = (r.cliOptions.stages as unknown[] | undefined) ?? [];
      stages.push({ duration: m[1], target: Number(m[2]) });
      r.cliOptions.stages = stages;
    },
  },
  {
    name: 'env',
    alias: 'e',
    arg: 'value',
    description: 'add NAME=VALUE to __ENV (repeatable)',
    apply: (r, v) => {
      const [k, val] = kv(v ?? '', 'env');
      r.cliEnv[k] = val;
    },
  },
  {
    name: 'include-system-env-vars',
    arg: 'optional',
    description: 'copy the process environment into __ENV (default true)',
    apply: (r, v) => {
      r.includeSystemEnvVars = bool(v);
    },
  },
  {
    name: 'out',
    alias: 'o',
    arg: 'value',
    description: 'output: json=FILE[.gz], csv=FILE (repeatable)',
    apply: (r, v) => {
      r.out.push(v ?? '');
    },
  },
  {
    name: 'summary-export',
    arg: 'value',
    description: 'write the old-format JSON summary to FILE',
    apply: (r, v) => {
      r.summaryExport = v;
    },
  },
  {
    name: 'summary-mode',
    arg: 'value',
    description: 'compact (default), full or disabled',
    apply: (r, v) => {
      if (v !== 'compact' && v !== 'full' && v !== 'disabled')
        throw usageError(`--summary-mode must be compact, full or disabled, got "${v}"`);
      r.summaryMode = v;
    },
  },
  {
    name: 'summary-trend-stats',
    arg: 'value',
    description: 'trend columns, e.g. avg,p(95),p(99)',
    apply: opt('summaryTrendStats', (v) => parseOptionText('list', v ?? '')),
  },
  {
    name: 'summary-time-unit',
    arg: 'value',
    description: 'fixed time unit: s, ms or us',
    apply: opt('summaryTimeUnit', (v) => v),
  },
  {
    name: 'tag',
    arg: 'value',
    description: 'run-level tag NAME=VALUE (repeatable)',
    apply: (r, v) => {
      const [k, val] = kv(v ?? '', 'tag');
      if (val === '') throw usageError(`--tag ${k}: the value must not be empty`);
      r.cliOptions.tags = { ...((r.cliOptions.tags as Record<string, string>) ?? {}), [k]: val };
    },
  },
  {
    name: 'system-tags',
    arg: 'value',
    description: 'enabled system tags (comma list)',
    apply: opt('systemTags', (v) => parseOptionText('list', v ?? '')),
  },
  {
    name: 'quiet',
    alias: 'q',
    arg: 'none',
    description: 'no banner, header or progress',
    apply: (r) => {
      r.quiet = true;
    },
  },
  {
    name: 'no-color',
    arg: 'none',
    description: 'disable ANSI colours',
    apply: (r) => {
      r.noColor = true;
    },
  },
  {
    name: 'verbose',
    alias: 'v',
    arg: 'none',
    description: 'debug logs',
    apply: (r) => {
      r.verbose = true;
    },
  },
  {
    name: 'no-thresholds',
    arg: 'none',
    description: 'do not evaluate thresholds',
    apply: (r) => {
      r.noThresholds = true;
    },
  },
  { name: 'no-setup', arg: 'none', description: 'skip setup()', apply: opt('noSetup', () => true) },
  { name: 'no-teardown', arg: 'none', description: 'skip teardown()', apply: opt('noTeardown', () => true) },
  {
    name: 'http-debug',
    arg: 'optional',
    description: 'log HTTP requests and responses (=full adds bodies)',
    apply: opt('httpDebug', (v) => (v === 'full' ? 'full' : 'headers')),
  },
  {
    name: 'vu-threads',
    arg: 'value',
    description: 'bench: host the VUs on N shared threads, async APIs only (highest rates; runner/README.md)',
    apply: (r, v) => {
      r.vuThreads = int(v, 'vu-threads');
    },
  },
  {
    name: 'offline',
    arg: 'none',
    description:
      'bench: load remote modules only from the module cache (BENCH_MODULE_CACHE); one missing stops the run naming its URL',
    apply: (r) => {
      r.offline = true;
    },
  },
  {
    name: 'instances',
    arg: 'value',
    description:
      'bench: run the test as N execution segments in N processes here, setup/teardown once, one merged result',
    apply: (r, v) => {
      r.instances = int(v, 'instances');
      if (r.instances < 1) throw usageError('--instances must be at least 1');
    },
  },
  {
    name: 'insecure-skip-tls-verify',
    arg: 'none',
    description: 'skip TLS certificate checks',
    apply: opt('insecureSkipTLSVerify', () => true),
  },
  {
    name: 'throw',
    alias: 'w',
    arg: 'none',
    description: 'throw on failed requests and invalid metric values',
    apply: opt('throw', () => true),
  },
  {
    name: 'max-redirects',
    arg: 'value',
    description: 'redirects to follow (10)',
    apply: opt('maxRedirects', int),
  },
  {
    name: 'batch',
    arg: 'value',
    description: 'parallel requests per http.batch (20)',
    apply: opt('batch', int),
  },
  {
    name: 'batch-per-host',
    arg: 'value',
    description: 'parallel batch requests per host (6)',
    apply: opt('batchPerHost', int),
  },
  { name: 'user-agent', arg: 'value', description: 'User-Agent header', apply: opt('userAgent', (v) => v) },
  {
    name: 'discard-response-bodies',
    arg: 'none',
    description: 'read and drop response bodies',
    apply: opt('discardResponseBodies', () => true),
  },
  {
    name: 'no-connection-reuse',
    arg: 'none',
    description: 'no keep-alive',
    apply: opt('noConnectionReuse', () => true),
  },
  {
    name: 'no-vu-connection-reuse',
    arg: 'none',
    description: 'close idle connections after each iteration',
    apply: opt('noVUConnectionReuse', () => true),
  },
  {
    name: 'min-iteration-duration',
    arg: 'value',
    description: 'pad shorter iterations',
    apply: opt('minIterationDuration', duration),
  },
  {
    name: 'setup-timeout',
    arg: 'value',
    description: 'setup() timeout (60s)',
    apply: opt('setupTimeout', duration),
  },
  {
    name: 'teardown-timeout',
    arg: 'value',
    description: 'teardown() timeout (60s)',
    apply: opt('teardownTimeout', duration),
  },
  {
    name: 'config',
    alias: 'c',
    arg: 'value',
    description: 'JSON config file (an option layer)',
    apply: (r, v) => {
      r.configFile = v;
    },
  },
  {
    name: 'log-format',
    arg: 'value',
    description: 'text, json or raw',
    apply: (r, v) => {
      r.logFormat = v;
    },
  },
  {
    name: 'log-output',
    arg: 'value',
    description: 'stderr, stdout, none or file=PATH',
    apply: (r, v) => {
      r.logOutput = v;
    },
  },
  {
    name: 'console-output',
    arg: 'value',
    description: 'append console.* output to FILE',
    apply: (r, v) => {
      r.consoleOutput = v;
    },
  },
  {
    name: 'execution-segment',
    arg: 'value',
    description: "this instance's part of the test, from:to (e.g. 1/3:2/3; k6's execution segments)",
    apply: opt('executionSegment', (v) => v),
  },
  {
    name: 'execution-segment-sequence',
    arg: 'value',
    description: 'the segments every instance of the test uses, e.g. 0,1/3,2/3,1',
    apply: opt('executionSegmentSequence', (v) => v),
  },
  // k6 flags bench accepts but does not implement: the options become warnings at start-up (engine/prepare.ts;
  // options/option-keys.ts UNIMPLEMENTED_OPTIONS lists them).
  { name: 'rps', arg: 'value', description: NOT_IMPLEMENTED, apply: opt('rps', int) },
  {
    name: 'dns',
    arg: 'value',
    description: NOT_IMPLEMENTED,
    apply: opt('dns', (v) => v),
  },
  {
    name: 'blacklist-ip',
    arg: 'value',
    description: NOT_IMPLEMENTED,
    apply: opt('blacklistIPs', (v) => parseOptionText('list', v ?? '')),
  },
  {
    name: 'block-hostnames',
    arg: 'value',
    description: NOT_IMPLEMENTED,
    apply: opt('blockHostnames', (v) => parseOptionText('list', v ?? '')),
  },
  {
    name: 'local-ips',
    arg: 'value',
    description: NOT_IMPLEMENTED,
    apply: opt('localIPs', (v) => parseOptionText('list', v ?? '')),
  },
  {
    name: 'paused',
    alias: 'p',
    arg: 'none',
    description: NOT_IMPLEMENTED,
    apply: opt('paused', () => true),
  },
  {
    name: 'secret-source',
    arg: 'value',
    description: 'k6/secrets source: file=PATH or mock=KEY=VALUE,... (name=NAME, default); repeatable',
    apply: (r, v) => {
      r.secretSources = [...(r.secretSources ?? []), v ?? ''];
    },
  },
  ...['address', 'compatibility-mode', 'features', 'traces-output'].map(
    (name): Flag => ({
      name,
      arg: 'value',
      description: 'accepted, has no effect in bench (warns)',
      apply: (r) => {
        r.ignoredFlags.push(`--${name}`);
      },
    }),
  ),
  ...['linger', 'new-machine-readable-summary', 'no-usage-report'].map(
    (name): Flag => ({
      name,
      arg: 'none',
      description: 'accepted, has no effect in bench (warns)',
      apply: (r) => {
        r.ignoredFlags.push(`--${name}`);
      },
    }),
  ),
  {
    name: 'help',
    alias: 'h',
    arg: 'none',
    description: 'show this help',
    apply: (r) => {
      r.help = true;
    },
  },
];

export function runHelp(): string {
  const rows = RUN_FLAGS.map((f) => {
    const name = `${f.alias ? `-${f.alias}, ` : '    '}--${f.name}${f.arg === 'value' ? ' VALUE' : f.arg === 'optional' ? '[=VALUE]' : ''}`;
    return `  ${name.padEnd(38)} ${f.description}`;
  });
  return `Usage: bench run [flags] <script.js|script.ts>\n\nFlags:\n${rows.join('\n')}\n`;
}

/** Parses `bench run` arguments; throws a usage error (exit 255) naming the bad flag. */
/** One command-line argument as parsed: a flag with its value and the tokens it took, or the script (no flag). */
export interface RunArg {
  flag: Flag | undefined;
  value: string | undefined;
  tokens: string[];
}

/** Splits `bench run`'s arguments into flags and the script; unknown flags and missing values are usage errors. */
export function splitRunArgs(argv: string[]): RunArg[] {
  const byName = new Map(RUN_FLAGS.map((f) => [f.name, f]));
  const byAlias = new Map(RUN_FLAGS.filter((f) => f.alias).map((f) => [f.alias as string, f]));
  const out: RunArg[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-' || !a.startsWith('-')) {
      out.push({ flag: undefined, value: a, tokens: [a] });
      continue;
    }
    let flag: Flag | undefined;
    let value: string | undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      if (eq >= 0) value = a.slice(eq + 1);
      flag = byName.get(name);
      if (!flag) throw usageError(`unknown flag --${name}`, 'run `bench run --help` for the list of flags');
    } else {
      flag = byAlias.get(a.slice(1, 2));
      if (!flag) throw usageError(`unknown flag ${a}`, 'run `bench run --help` for the list of flags');
      if (a.length > 2) value = a.slice(2).replace(/^=/, '');
    }
    const tokens = [a];
    if (flag.arg === 'value' && value === undefined) {
      if (i + 1 >= argv.length) throw usageError(`--${flag.name} needs a value`);
      value = argv[++i];
      tokens.push(value);
    }
    if (flag.arg === 'none' && value !== undefined && a.startsWith('--'))
      throw usageError(`--${flag.name} takes no value`);
    out.push({ flag, value, tokens });
  }
  return out;
}

export function parseRunFlags(argv: string[]): ParsedRun {
  const r: ParsedRun = {
    ignoredFlags: [],
    script: undefined,
    argv,
    cliOptions: {},
    cliEnv: {},
    out: [],
    quiet: false,
    verbose: false,
    help: false,
  };
  for (const { flag, value } of splitRunArgs(argv)) {
    if (flag) {
      flag.apply(r, value);
      continue;
    }
    if (r.script !== undefined)
      throw usageError(`unexpected argument "${value}": bench run takes one script`);
    r.script = value;
  }
  return r;
}
