// `bench version` (and `bench --version`): one line as `k6 version` prints it, or JSON with --json.
import { versionJson, versionLine } from '../../runner';

export async function versionCommand(argv: string[]): Promise<number> {
  process.stdout.write(`${argv.includes('--json') ? versionJson() : versionLine()}\n`);
  return 0;
}
