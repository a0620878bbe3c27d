// Option layers (defaults < config file < script < K6_* env < CLI flags) merged the way k6 does: each key is
// replaced as a whole, and a layer that sets any execution option discards all execution options below it.
import { EXECUTION_KEYS } from './option-keys';

/** A k6 options object as the user wrote it (durations stay strings; parsing happens when deriving scenarios). */
export type Options = Record<string, unknown>;

export interface OptionLayer {
  /** k6's name for the layer in warnings: "config", "script", "env", "cli". */
  name: string;
  options: Options;
}

export interface Consolidated {
  options: Options;
  warnings: string[];
}

function setsExecution(options: Options): boolean {
  return EXECUTION_KEYS.some((k) => options[k] !== undefined && options[k] !== null);
}

/** Merges layers from lowest to highest. Pure. */
export function consolidate(layers: OptionLayer[]): Consolidated {
  const options: Options = {};
  const warnings: string[] = [];
  for (const layer of layers) {
    if (setsExecution(layer.options)) {
      if (
        options.scenarios !== undefined &&
        options.scenarios !== null &&
        layer.options.scenarios === undefined
      ) {
        warnings.push(`"${layer.name}" level configuration overrode scenarios configuration entirely`);
      }
      for (const k of EXECUTION_KEYS) delete options[k];
    }
    for (const [k, v] of Object.entries(layer.options)) {
      if (v !== undefined) options[k] = v;
    }
  }
  return { options, warnings };
}
