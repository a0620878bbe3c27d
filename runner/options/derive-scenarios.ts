// k6's shortcut options (iterations, duration, stages, vus) -> the implicit scenario named "default" (pure).
// First matching rule wins: iterations, duration, stages, vus alone, explicit scenarios, nothing.
import type { Options } from './consolidate';

export interface DerivedScenarios {
  scenarios: Record<string, unknown>;
  warnings: string[];
  problems: string[];
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

export function deriveScenarios(options: Options): DerivedScenarios {
  const warnings: string[] = [];
  const problems: string[] = [];
  const { vus, duration, iterations } = options;
  const stages = Array.isArray(options.stages) ? options.stages : undefined;
  const scenarios =
    options.scenarios && typeof options.scenarios === 'object'
      ? (options.scenarios as Record<string, unknown>)
      : undefined;
  const hasScenarios = scenarios !== undefined && Object.keys(scenarios).length > 0;
  const conflict = (a: string, b: string) =>
    problems.push(`using \`${a}\` and \`${b}\` options simultaneously is not allowed`);

  if (isSet(iterations)) {
    if (stages && stages.length > 0) conflict('iterations', 'stages');
    if (hasScenarios) conflict('iterations', 'scenarios');
    const s: Record<string, unknown> = { executor: 'shared-iterations', vus: vus ?? 1, iterations };
    s.maxDuration = isSet(duration) ? duration : '10m';
    return { scenarios: { default: s }, warnings, problems };
  }
  if (isSet(duration)) {
    if (stages && stages.length > 0) conflict('duration', 'stages');
    if (hasScenarios) conflict('duration', 'scenarios');
    if (duration === 0 || duration === '0' || duration === '0s')
      problems.push('duration must be more than 0 (use `iterations` for a fixed number of iterations)');
    return {
      scenarios: { default: { executor: 'constant-vus', vus: vus ?? 1, duration } },
      warnings,
      problems,
    };
  }
  if (stages && stages.length > 0) {
    if (hasScenarios) conflict('stages', 'scenarios');
    return {
      scenarios: { default: { executor: 'ramping-vus', startVUs: vus ?? 1, stages } },
      warnings,
      problems,
    };
  }
  if (isSet(vus)) {
    if (hasScenarios) warnings.push(`\`vus=${vus}\` overrides scenarios configuration`);
    return {
      scenarios: { default: { executor: 'shared-iterations', vus, iterations: vus } },
      warnings,
      problems,
    };
  }
  if (hasScenarios) return { scenarios: scenarios ?? {}, warnings, problems };
  if (stages || scenarios) warnings.push('no executors configured: running one iteration of one VU');
  return {
    scenarios: { default: { executor: 'per-vu-iterations', vus: 1, iterations: 1 } },
    warnings,
    problems,
  };
}
