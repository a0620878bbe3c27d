// `make filter-cost` / `make filter-cost-smoke`: experiment 2 as one `bench run` with a profile of
// scripts/filter-cost-profiles.ts. `default` is the local profile against a fresh emulator, or the real-service
// profile when TURBOPUFFER_API_KEY is set (the script then refuses without TPUF_BENCH_CONFIRM_COST=1). Other
// arguments go to `bench run` (e.g. `-e SEED=42`, `-e QUERY_MODE=workers`).
//
//   tsx scripts/run-filter-cost.ts <default|local|smoke|service> [bench run flags...]
import { LaunchRefused, launchFilterCost } from './filter-cost-launch';
import { PROFILES, type ProfileName } from './filter-cost-profiles';

const [requested, ...extra] = process.argv.slice(2);
if (!requested || !(requested === 'default' || requested in PROFILES)) {
  process.stderr.write(
    `usage: tsx scripts/run-filter-cost.ts <default|${Object.keys(PROFILES).join('|')}> [bench run flags...]\n`,
  );
  process.exit(2);
}
const name: ProfileName =
  requested === 'default'
    ? process.env.TURBOPUFFER_API_KEY
      ? 'service'
      : 'local'
    : (requested as ProfileName);
process.stderr.write(`filter-cost: ${PROFILES[name].description}\n`);
try {
  const { exitCode } = await launchFilterCost({ profile: PROFILES[name], extraArgs: extra });
  process.exitCode = exitCode;
} catch (error) {
  process.stderr.write(`filter-cost: ${(error as Error).message}\n`);
  process.exitCode = error instanceof LaunchRefused ? 2 : 1;
}
