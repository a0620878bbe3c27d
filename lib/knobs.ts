// An experiment's knobs as one table: each environment variable's name, the default as people read it, what it
// means, and its parser. The config readers parse through it, `-e HELP=1` prints it, and a strict-name check can
// refuse names it does not list. Pure.
import type { Options } from 'k6/options';
import type { EnvReader, EnvRecord } from './env';
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
export const HELP_KNOB = 'HELP';

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

/** The knob table as a Markdown table (the READMEs carry it; a test keeps them equal to the code). */
export function knobMarkdown(table: KnobTable): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = Object.entries(table).map(
    ([name, k]) => `| \`${name}\` | ${cell(k.default)} | ${cell(k.meaning)} |`,
  );
  return `${['| Knob | Default | Meaning |', '|---|---|---|', ...rows].join('\n')}\n`;
}
