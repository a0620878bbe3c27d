// `bench inspect`'s answer: runs init #0 and returns the consolidated options (every known key, null when unset);
// with the execution requirements, the derived scenarios, totalDuration and maxVUs as well.
import { formatGoDuration } from '../core/durations';
import { Logger } from './engine/logger';
import { type PrepareInput, prepareRun } from './engine/prepare';
import { OPTION_KEYS } from './options/option-keys';

export async function inspectScript(
  input: Omit<PrepareInput, 'logger' | 'noThresholds'>,
  executionRequirements: boolean,
): Promise<Record<string, unknown>> {
  const logger = new Logger({ verbose: false, format: 'text', output: 'stderr', tty: false, noColor: true });
  const plan = await prepareRun({ ...input, noThresholds: true, logger });
  try {
    const source = executionRequirements ? plan.testOptions : plan.options;
    const out: Record<string, unknown> = {};
    for (const [key] of OPTION_KEYS) out[key] = source[key] ?? null;
    for (const [key, value] of Object.entries(source)) if (!(key in out)) out[key] = value;
    if (executionRequirements) {
      out.totalDuration = formatGoDuration(Math.round(plan.plan.maxDuration / 100) * 100);
      out.maxVUs = plan.plan.maxVUs;
    }
    return out;
  } finally {
    plan.script.dispose();
  }
}
