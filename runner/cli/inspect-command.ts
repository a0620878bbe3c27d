// `bench inspect <script>`: runs init #0 and prints the consolidated options as JSON (every known key, null when
// unset); --execution-requirements adds the derived scenarios, totalDuration and maxVUs.
import { Logger } from '../engine/logger';
import { prepareRun } from '../engine/prepare';
import { usageError } from '../errors';
import { formatGoDuration } from '../options/durations';
import { OPTION_KEYS } from '../options/option-keys';
import { parseRunFlags } from './flags';

export async function inspectCommand(argv: string[]): Promise<number> {
  const requirements = argv.includes('--execution-requirements');
  const flags = parseRunFlags(argv.filter((a) => a !== '--execution-requirements'));
  if (!flags.script)
    throw usageError('bench inspect needs a script', 'bench inspect [--execution-requirements] <script>');
  const logger = new Logger({ verbose: false, format: 'text', output: 'stderr', tty: false, noColor: true });
  const plan = await prepareRun({
    scriptPath: flags.script,
    cliOptions: flags.cliOptions,
    cliEnv: flags.cliEnv,
    processEnv: process.env,
    includeSystemEnvVars: flags.includeSystemEnvVars ?? false,
    configFile: flags.configFile,
    noThresholds: true,
    logger,
  });
  try {
    const source = requirements ? plan.testOptions : plan.options;
    const out: Record<string, unknown> = {};
    for (const [key] of OPTION_KEYS) out[key] = source[key] ?? null;
    for (const [key, value] of Object.entries(source)) if (!(key in out)) out[key] = value;
    if (requirements) {
      out.totalDuration = formatGoDuration(Math.round(plan.plan.maxDuration / 100) * 100);
      out.maxVUs = plan.plan.maxVUs;
    }
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  } finally {
    plan.script.dispose();
  }
}
