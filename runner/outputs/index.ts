// --out TYPE[=ARG] -> output; the only list of output types.
import type { Threshold } from '../thresholds/threshold-set';
import { CsvOutput, parseCsvArgument } from './csv';
import { JsonOutput } from './json';
import type { Output } from './output';

export const OUTPUT_TYPES = ['json', 'csv'];

export function createOutput(
  spec: string,
  thresholds: Threshold[],
  systemTags: readonly string[],
  env: Record<string, string | undefined>,
): Output {
  const eq = spec.indexOf('=');
  const type = eq < 0 ? spec : spec.slice(0, eq);
  const arg = eq < 0 ? '' : spec.slice(eq + 1);
  switch (type) {
    case 'json':
      return new JsonOutput(arg, thresholds);
    case 'csv':
      return new CsvOutput(parseCsvArgument(arg, env), systemTags);
    default:
      throw new Error(`invalid output type '${type}', available types are: ${OUTPUT_TYPES.join(', ')}`);
  }
}
