// An experiment's knobs as one table: each environment variable's name, the default as people read it, what it
// means, and its parser. The config readers parse through it, `-e HELP=1` prints it, and a strict-name check can
// refuse names it does not list. Pure.
import type { Options } from 'k6/options';
import { EnvError, type EnvReader, type EnvRecord } from './env';
import { textTable } from './results/table';

export interface Knob<T> {
  /** The default as the knob help prints it: `1000000`, `random`, `QUERY_RATE`. */
  default: string;
  /** One line: what the knob changes (and its unit). */
  meaning: string;
  /** Reads the knob; the EnvReader's parsers name the variable in every error. */
  read: (e: EnvReader, name: string) => T;
}

export function knob<T>(dflt: string, meaning: string, read: (e: EnvReader, name: string) => T): Knob<T> {
  return { default: dflt, meaning, read };
}

/** Knobs of any value type (T appears only as a result, so every Knob<T> is a Knob<unknown>). */
export type KnobTable = Readonly<Record<string, Knob<unknown>>>;

/** The parsed value of every knob of a table, by name. */
export type KnobValues<T extends KnobTable> = { [K in keyof T]: ReturnType<T[K]['read']> };

/** Parses every knob of the table, in table order (the first bad one throws). */
export function readKnobs<T extends KnobTable>(table: T, e: EnvReader): KnobValues<T> {
  const out: Record<string, unknown> = {};
  for (const [name, k] of Object.entries(table)) out[name] = k.read(e, name);
  return out as KnobValues<T>;
}

/** The knob that asks a script for its knob table instead of a run. */
const HELP_KNOB = 'HELP';

/** The knob that turns the misspelt-knob check off (for a variable the environment has for another reason). */
const STRICT_KNOBS_KNOB = 'STRICT_KNOBS';

/** The knobs about knobs, last in every experiment's table. */
export const META_KNOBS = {
  [STRICT_KNOBS_KNOB]: knob(
    '1',
    '0 lets through variables that look like misspelt knobs (otherwise refused before anything runs)',
    (e, n) => e.bool(n, true),
  ),
  [HELP_KNOB]: knob('0', '1 prints this table and runs nothing', (e, n) => e.bool(n, false)),
};

/** True when `-e HELP=1` (or true/yes/on) was given. */
export function wantsHelp(env: EnvRecord): boolean {
  const v = env[HELP_KNOB]?.trim().toLowerCase();
  return v === '1' || v === 'true' || v === 'yes' || v === 'on';
}

/** The knob table as console text: a title, usage lines, then name / default / meaning columns. */
export function knobHelp(title: string, usage: readonly string[], table: KnobTable): string {
  const rows = Object.entries(table).map(([name, k]) => [name, k.default, k.meaning]);
  return `${['', title, '', ...usage.map((u) => `  ${u}`), '', ...textTable(['knob', 'default', 'meaning'], rows), ''].join('\n')}\n`;
}

/**
 * What a script exports under `-e HELP=1`: one no-op iteration, no setup work, no thresholds, and a handleSummary
 * that prints the knob table (once, on stdout), so `k6 run script.js -e HELP=1` lists the knobs and exits 0 without
 * touching any target. `execs` are the scenario functions the script exports, all no-ops here.
 */
export function knobHelpScript<E extends string>(
  text: string,
  execs: readonly E[],
): {
  options: Options;
  setup: () => undefined;
  teardown: () => void;
  handleSummary: () => Record<string, string>;
} & Record<E, () => void> {
  const noop = () => {};
  const fns = Object.fromEntries(execs.map((name) => [name, noop])) as Record<E, () => void>;
  return {
    ...fns,
    options: {
      scenarios: { help: { executor: 'shared-iterations', exec: execs[0], vus: 1, iterations: 1 } },
    },
    setup: () => undefined,
    teardown: noop,
    handleSummary: () => ({ stdout: text }),
  };
}

/** The knob table as a Markdown table (the experiments' manuals carry it; tests keep them equal to the code). */
export function knobMarkdown(table: KnobTable): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = Object.entries(table).map(
    ([name, k]) => `| \`${name}\` | ${cell(k.default)} | ${cell(k.meaning)} |`,
  );
  return `${['| Knob | Default | Meaning |', '|---|---|---|', ...rows].join('\n')}\n`;
}

/**
 * First words that other tools use too: a variable that merely starts with them (BENCH_EMULATOR_NODE_ARGS,
 * TURBOPUFFER_LOG) is not taken for a knob; a near-miss of a whole name still is.
 */
const SHARED_PREFIXES = new Set(['BENCH', 'MAX', 'TOP', 'TURBOPUFFER']);

/** A variable that looks like a knob but is none, with the knob it most likely meant. */
export interface UnknownKnob {
  name: string;
  suggestion: string;
}

/**
 * Variables of `env` that look like knobs of `table` but are not: a known name in other case, a name within a
 * typo or two of a known one (one for names of five characters or fewer), the start of a known name or a known name
 * with more after it, give or take a last letter (SELECTIVITY, SEEDS), or one that starts with a knob's first word and `_` (SEED_COUNT beside
 * SEED_ROWS, ROWS_PER_NS beside ROWS). Everything else the environment holds (PATH,
 * HOME, CI...) is left alone: k6 puts the whole process environment into __ENV.
 */
export function unknownKnobs(table: KnobTable, env: EnvRecord): UnknownKnob[] {
  const names = Object.keys(table);
  const known = new Set(names);
  const prefixes = new Set(
    names.map((n) => n.split('_')[0]).filter((word) => word !== '' && !SHARED_PREFIXES.has(word)),
  );
  const out: UnknownKnob[] = [];
  for (const name of Object.keys(env)) {
    if (known.has(name) || env[name] === undefined) continue;
    const upper = name.toUpperCase();
    const ranked = names
      .map((k) => ({ k, d: editDistance(upper, k) }))
      .sort((a, b) => a.d - b.d || a.k.localeCompare(b.k));
    const best = ranked[0];
    const nearMiss = best !== undefined && best.d <= (best.k.length <= 5 ? 1 : 2);
    const word = upper.split('_')[0];
    const sharesPrefix = upper.includes('_') && prefixes.has(word);
    // SELECTIVITY for SELECTIVITIES, SEEDS for SEED: the shorter name (but for its last letter, when longer than
    // five) starts the other.
    const truncated = names.find((k) => {
      const shorter = Math.min(k.length, upper.length);
      return shorter >= 4 && commonPrefix(k, upper) >= (shorter > 5 ? shorter - 1 : shorter);
    });
    if (!nearMiss && !sharesPrefix && truncated === undefined) continue;
    // A prefix match suggests the closest knob of that family (SEED_ROW -> SEED_ROWS rather than SEED).
    const family = sharesPrefix ? ranked.find((r) => r.k === word || r.k.startsWith(`${word}_`)) : undefined;
    out.push({ name, suggestion: nearMiss ? best.k : (family?.k ?? truncated ?? best.k) });
  }
  return out;
}

/**
 * Refuses (EnvError naming the first one) every variable that looks like a misspelt knob of `table`, unless
 * STRICT_KNOBS=0. `script` names the bundle in the message (`build/backlog.js`).
 */
export function checkKnobNames(table: KnobTable, env: EnvRecord, script: string): void {
  if (env[STRICT_KNOBS_KNOB]?.trim() === '0') return;
  const unknown = unknownKnobs(table, env);
  if (unknown.length === 0) return;
  const [first, ...more] = unknown;
  const others = more.map((u) => `${u.name} (${u.suggestion}?)`).join(', ');
  throw new EnvError(
    first.name,
    `is not a knob of ${script}: did you mean ${first.suggestion}?` +
      (others ? ` Not knobs either: ${others}.` : '') +
      ` Nothing ran. \`-e HELP=1\` lists the knobs; ${STRICT_KNOBS_KNOB}=0 lets such names through`,
  );
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost 1. */
// Hand-written: 15 lines the k6 bundles would otherwise take a dependency for.
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...new Array<number>(b.length).fill(0),
  ]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}
