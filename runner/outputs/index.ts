// --out TYPE[=ARG] -> output; the only list of output types. The spec is read twice: once before the script loads
// (outputTargets: type known, file writable) and once to build the output when the run starts.
import { BenchError } from '../../core/errors';
import { EXIT_GENERIC_ERROR } from '../../core/exit-codes';
import type { Threshold } from '../thresholds/threshold-set';
import { CsvOutput, parseCsvArgument } from './csv';
import { JsonOutput } from './json';
import type { Output, OutputErrorSink } from './output';
import type { OutputTarget } from './writable';

const OUTPUT_TYPES = ['json', 'csv', 'web-dashboard'];

/** `--out web-dashboard[=params]` is not a sample sink like the others: run-test.ts starts it (web-dashboard/). */
export const WEB_DASHBOARD = 'web-dashboard';

export function splitSpec(spec: string): { type: string; arg: string } {
  const eq = spec.indexOf('=');
  return eq < 0 ? { type: spec, arg: '' } : { type: spec.slice(0, eq), arg: spec.slice(eq + 1) };
}

// k6 gives output errors no exit code of their own (its generic -1, i.e. 255), unknown types included.
function outputError(type: string, error: unknown): BenchError {
  return new BenchError(
    `could not create the '${type}' output: ${(error as Error).message}`,
    EXIT_GENERIC_ERROR,
  );
}

function unknownType(type: string): BenchError {
  return new BenchError(
    `invalid output type '${type}', available types are: ${OUTPUT_TYPES.join(', ')}`,
    EXIT_GENERIC_ERROR,
  );
}

/** The file each --out spec writes (stdout is "" or "-"); throws for an unknown type or a bad argument. */
export function outputTargets(
  specs: readonly string[],
  env: Record<string, string | undefined>,
): OutputTarget[] {
  return specs.flatMap((spec) => {
    const { type, arg } = splitSpec(spec);
    switch (type) {
      case WEB_DASHBOARD:
        // Its export file is checked with the dashboard's variables (run-test.ts).
        return [];
      case 'json':
        return { flag: '--out json', path: arg };
      case 'csv':
        try {
          return { flag: '--out csv', path: parseCsvArgument(arg, env).fileName };
        } catch (error) {
          throw outputError(type, error);
        }
      default:
        throw unknownType(type);
    }
  });
}

export function createOutput(
  spec: string,
  thresholds: Threshold[],
  systemTags: readonly string[],
  env: Record<string, string | undefined>,
  onError: OutputErrorSink,
): Output {
  const { type, arg } = splitSpec(spec);
  switch (type) {
    case 'json':
      return new JsonOutput(arg, thresholds, onError);
    case 'csv':
      try {
        return new CsvOutput(parseCsvArgument(arg, env), systemTags, onError);
      } catch (error) {
        throw outputError(type, error);
      }
    default:
      throw unknownType(type);
  }
}
