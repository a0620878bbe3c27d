// `bench run`: flags -> RunInput -> runTest.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { usageError } from '../../core/errors';
import {
  checkOutputTargets,
  coordinatorLink,
  INSTANCE_ENV,
  instancesHost,
  Logger,
  type OutputTarget,
  type ParsedRun,
  parseRunFlags,
  parseSecretSources,
  runHelp,
  runTest,
  SECRET_SOURCES_ENV,
  secretRedactor,
} from '../../runner';

function envBool(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  return !['0', 'false', 'f', 'no', ''].includes(v.toLowerCase());
}

function envInt(v: string | undefined, name: string): number | undefined {
  if (v === undefined || v === '') return undefined;
  if (!/^\d+$/.test(v)) throw usageError(`${name} must be a whole number, got "${v}"`);
  return Number(v);
}

export async function runCommand(argv: string[]): Promise<number> {
  const flags = parseRunFlags(argv);
  if (flags.help) {
    process.stdout.write(runHelp());
    return 0;
  }
  if (!flags.script) throw usageError('bench run needs a script', 'bench run [flags] <script.js|script.ts>');
  if (flags.script === '-') return runFromStdin(flags);
  return runParsed({ ...flags, script: flags.script });
}

/** `bench run -`: the script comes from standard input (written to a temporary file beside nothing else). */
async function runFromStdin(flags: ParsedRun): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const dir = mkdtempSync(join(tmpdir(), 'bench-stdin-'));
  try {
    const file = join(dir, 'stdin.js');
    writeFileSync(file, Buffer.concat(chunks));
    return await runParsed({ ...flags, script: file });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runParsed(flags: ParsedRun & { script: string }): Promise<number> {
  const env = process.env;
  // The script loader reads it (runner/script/remote-modules.ts), as do the processes of --instances.
  if (flags.offline) env.BENCH_OFFLINE = '1';
  const noColor = flags.noColor ?? envBool(env.K6_NO_COLOR) ?? env.NO_COLOR !== undefined;
  const logOutput = flags.logOutput ?? env.K6_LOG_OUTPUT ?? 'stderr';
  const logFormat = (flags.logFormat ?? env.K6_LOG_FORMAT ?? 'text') as 'text' | 'json' | 'raw';
  if (!['text', 'json', 'raw'].includes(logFormat))
    throw usageError(`--log-format must be text, json or raw, got "${logFormat}"`);
  const summaryMode =
    flags.summaryMode ?? (env.K6_SUMMARY_MODE as 'compact' | 'full' | 'disabled' | undefined) ?? 'compact';
  if (!['compact', 'full', 'disabled'].includes(summaryMode))
    throw usageError(`K6_SUMMARY_MODE must be compact, full or disabled, got "${summaryMode}"`);
  const consoleOutput = flags.consoleOutput ?? (flags.cliOptions.consoleOutput as string | undefined);
  // Log files are known before anything runs: check them with the other outputs' rule (runTest checks those).
  const logFiles: OutputTarget[] = [];
  if (logOutput.startsWith('file=')) logFiles.push({ flag: '--log-output', path: logOutput.slice(5) });
  if (consoleOutput) logFiles.push({ flag: '--console-output', path: consoleOutput });
  checkOutputTargets(logFiles);
  // k6 reads its secret sources before the script: a bad one stops the run (exit 255 in k6 as here).
  let redact: ((line: string) => string) | undefined;
  if (flags.secretSources) {
    try {
      redact = secretRedactor(parseSecretSources(flags.secretSources));
    } catch (error) {
      throw usageError((error as Error).message);
    }
    // Every realm's thread reads the same sources (runner/modules/secrets.ts).
    env[SECRET_SOURCES_ENV] = JSON.stringify(flags.secretSources);
  }
  const logger = new Logger({
    redact,
    verbose: flags.verbose,
    format: logFormat,
    output: logOutput,
    tty: Boolean(process.stderr.isTTY),
    noColor,
    consoleOutput,
  });
  if (flags.ignoredFlags.length > 0)
    logger.warn(`these k6 flags have no effect in bench's runner: ${flags.ignoredFlags.join(', ')}`);
  const out = flags.out.length > 0 ? flags.out : (env.K6_OUT ?? '').split(',').filter(Boolean);
  const instances = flags.instances ?? 1;
  const handed = env[INSTANCE_ENV];
  return runTest({
    scriptPath: flags.script,
    cliOptions: flags.cliOptions,
    cliEnv: flags.cliEnv,
    processEnv: env,
    includeSystemEnvVars: flags.includeSystemEnvVars ?? envBool(env.K6_INCLUDE_SYSTEM_ENV_VARS) ?? true,
    configFile: flags.configFile,
    out,
    summaryExport: flags.summaryExport ?? env.K6_SUMMARY_EXPORT,
    summaryMode,
    noThresholds: flags.noThresholds ?? envBool(env.K6_NO_THRESHOLDS) ?? false,
    vuThreads: flags.vuThreads ?? envInt(env.BENCH_VU_THREADS, 'BENCH_VU_THREADS'),
    quiet: flags.quiet,
    noColor,
    logger,
    stdout: process.stdout,
    handleSignals: true,
    // bench run --instances (runner/instances/): this process coordinates, or is one of the instances.
    remote:
      instances > 1
        ? instancesHost({ argv: flags.argv, script: flags.script, n: instances, env, stderr: process.stderr })
        : undefined,
    handedSetup: handed === undefined ? undefined : coordinatorLink(process.stdin, process.stdout),
  });
}
