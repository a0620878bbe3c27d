// `make backlog` / `make backlog-smoke`: experiment 1 with a profile of scripts/backlog-profiles.ts against a
// fresh local emulator. Extra arguments go to `bench run` (e.g. `-e SEED=42 --out json=results/scratch/x.json`).
//
//   tsx scripts/run-backlog.ts <local|smoke> [bench run flags...]
import { mkdirSync } from 'node:fs';
import { PROFILES, type ProfileName } from './backlog-profiles';
import { envFlags } from './env-flags';
import { runWithEmulator } from './with-emulator';

const [name, ...extra] = process.argv.slice(2);
if (!name || !(name in PROFILES)) {
  process.stderr.write(
    `usage: tsx scripts/run-backlog.ts <${Object.keys(PROFILES).join('|')}> [bench run flags...]\n`,
  );
  process.exit(2);
}
const profile = PROFILES[name as ProfileName];
mkdirSync((profile.env as Record<string, string>).RESULTS_DIR ?? 'results', { recursive: true });
process.stderr.write(`backlog: ${profile.description}\n`);
try {
  process.exitCode = await runWithEmulator({
    emulatorArgs: profile.emulator,
    runArgs: ['build/backlog.js', ...envFlags(profile.env), ...extra],
  });
} catch (error) {
  process.stderr.write(`backlog: ${(error as Error).message}\n`);
  process.exitCode = 2;
}
