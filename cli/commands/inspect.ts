// `bench inspect <script>`: the script's consolidated options as JSON (every known key, null when unset);
// --execution-requirements adds the derived scenarios, totalDuration and maxVUs.
import { usageError } from '../../core/errors';
import { inspectScript, parseRunFlags } from '../../runner';

export async function inspectCommand(argv: string[]): Promise<number> {
  const requirements = argv.includes('--execution-requirements');
  const flags = parseRunFlags(argv.filter((a) => a !== '--execution-requirements'));
  if (!flags.script)
    throw usageError('bench inspect needs a script', 'bench inspect [--execution-requirements] <script>');
  const options = await inspectScript(
    {
      scriptPath: flags.script,
      cliOptions: flags.cliOptions,
      cliEnv: flags.cliEnv,
      processEnv: process.env,
      includeSystemEnvVars: flags.includeSystemEnvVars ?? false,
      configFile: flags.configFile,
    },
    requirements,
  );
  process.stdout.write(`${JSON.stringify(options, null, 2)}\n`);
  return 0;
}
