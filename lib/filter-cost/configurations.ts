// The namespace configurations of the study, named as the published write-up names them: `baseline-head` (no
// attribute), `int-100`, `string-10k`, `int-unique`, `int-10k-unfiltered` (`filterable: false`). CONFIGURATIONS is a
// comma-separated list of such names, run in order, one fresh namespace each. Pure.
import { EnvError } from '../env';
import type { AttributeType } from './attribute-values';

export interface Attribute {
  type: AttributeType;
  /** Distinct values (`unique` = ROWS). */
  cardinality: number;
  /** Declared `filterable`; false is what turbopuffer bills 50% less for (and cannot filter on). */
  filterable: boolean;
}

export interface Configuration {
  name: string;
  /** null: the baseline, rows with id and vector only. */
  attribute: Attribute | null;
}

/**
 * The published matrix in run order: the baseline first and last (their difference is the run's drift), int and
 * string adjacent at every cardinality (so each pair shares the machine's conditions), then the non-filterable twins.
 */
export const PUBLISHED_CONFIGURATIONS = [
  'baseline-head',
  'int-2',
  'string-2',
  'int-100',
  'string-100',
  'int-10k',
  'string-10k',
  'int-100k',
  'string-100k',
  'int-unique',
  'string-unique',
  'int-10k-unfiltered',
  'string-10k-unfiltered',
  'baseline-tail',
] as const;

const NAME = /^(?:(baseline)(?:-[a-z0-9]+)?|(int|string)-(\d+[kM]?|unique)(-unfiltered)?)$/;

/** "2" -> 2, "10k" -> 10000, "1M" -> 1000000, "unique" -> rows; null when the text is no cardinality. */
export function parseCardinality(text: string, rows: number): number | null {
  if (text === 'unique') return rows;
  const m = /^(\d+)([kM]?)$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * (m[2] === 'k' ? 1000 : m[2] === 'M' ? 1_000_000 : 1);
}

/** 2 -> "2", 10000 -> "10k", 100000 -> "100k", 2000000 -> "2M", 12345 -> "12345". */
export function formatCount(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`;
  return String(n);
}

/** Parses CONFIGURATIONS; every refusal names the variable, the entry and what would be accepted. */
export function parseConfigurations(text: string, rows: number): Configuration[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) throw new EnvError('CONFIGURATIONS', 'lists no configuration');
  const seen = new Set<string>();
  return names.map((name) => {
    if (seen.has(name))
      throw new EnvError('CONFIGURATIONS', `${name} is listed twice (names name namespaces)`);
    seen.add(name);
    const m = NAME.exec(name);
    if (!m)
      throw new EnvError(
        'CONFIGURATIONS',
        `"${name}" is not a configuration: use baseline[-word], int-<cardinality> or string-<cardinality> ` +
          '(2, 100, 10k, 100k, 1M, any count, or unique), optionally with -unfiltered, e.g. int-10k-unfiltered',
      );
    if (m[1]) return { name, attribute: null };
    const cardinality = parseCardinality(m[3], rows) as number;
    if (cardinality < 1 || cardinality > rows)
      throw new EnvError(
        'CONFIGURATIONS',
        `${name}: ${cardinality} distinct values cannot fit in ROWS=${rows}: raise ROWS or leave ${name} out`,
      );
    return { name, attribute: { type: m[2] as AttributeType, cardinality, filterable: m[4] === undefined } };
  });
}

/** True for the configurations whose attribute queries can filter on (only they get filtered cells). */
export function isFilterable(c: Configuration): c is Configuration & { attribute: Attribute } {
  return c.attribute?.filterable === true;
}

/** "int, 100 values, filterable" / "no attribute" / "string, unique values, not filterable". */
export function describeConfiguration(c: Configuration, rows: number): string {
  const a = c.attribute;
  if (a === null) return 'no attribute';
  const values = a.cardinality === rows ? 'unique values' : `${formatCount(a.cardinality)} values`;
  return `${a.type}, ${values}, ${a.filterable ? 'filterable' : 'not filterable'}`;
}
