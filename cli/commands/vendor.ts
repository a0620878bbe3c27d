// `bench vendor script.js [-o out.js]`: the script with its remote modules bundled in, for runs with no network.
import { basename, dirname, join } from 'node:path';
import { usageError } from '../../core/errors';
import { moduleCacheDir, vendorScript } from '../../runner';

const USAGE = 'bench vendor [--offline] [-o OUT.js] <script.js|script.ts>';

export async function vendorCommand(argv: string[]): Promise<number> {
  let script: string | undefined;
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') {
      process.stdout.write(
        `Usage: ${USAGE}\n\nWrites the script with every remote module it imports bundled in (k6 modules stay imports), so\nit runs with no network under bench (bench run --offline) and under k6. Default output: NAME.vendored.js\nbeside the script. Modules are fetched, or taken from the module cache (${moduleCacheDir()}) when\nthey cannot be, or with --offline.\n`,
      );
      return 0;
    }
    if (a === '-o' || a === '--out') out = argv[++i];
    else if (a.startsWith('--out=')) out = a.slice('--out='.length);
    else if (a === '--offline') process.env.BENCH_OFFLINE = '1';
    else if (a.startsWith('-')) throw usageError(`unknown flag ${a}`, USAGE);
    else if (script === undefined) script = a;
    else throw usageError(`unexpected argument ${a}`, USAGE);
  }
  if (!script) throw usageError('bench vendor needs a script', USAGE);
  const target = out ?? join(dirname(script), `${basename(script).replace(/\.[cm]?[jt]s$/, '')}.vendored.js`);
  for (const note of await vendorScript(script, target)) process.stderr.write(`bench: ${note}\n`);
  process.stderr.write(`bench: wrote ${target}\n`);
  return 0;
}
