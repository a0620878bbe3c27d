// `make filter-cost` / `make filter-cost-smoke`: experiment 2 over every namespace configuration of a profile
// (scripts/filter-cost-profiles.ts), then the merged report. `default` is the local profile against fresh
// emulators, or the real-service profile when TURBOPUFFER_API_KEY is set (which also needs
// TPUF_BENCH_CONFIRM_COST=1). Other arguments go to every `bench run`.
//
//   tsx scripts/run-filter-cost.ts <default|local|smoke|service> [--configs a,b] [--repeats N] [bench run flags...]
import { LaunchRefused, launchFilterCost } from './filter-cost-launch';
import { PROFILES, type ProfileName } from './filter-cost-profiles';

const USAGE =
  'usage: tsx scripts/run-filter-cost.ts <default|local|smoke|service> [--configs a,b] [--repeats N] [bench run flags...]\n';

function parse(argv: string[]) {
  const [requested, ...rest] = argv;
  if (!requested || !(requested === 'default' || requested in PROFILES)) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const name: ProfileName =
    requested === 'default'
      ? process.env.TURBOPUFFER_API_KEY
        ? 'service'
        : 'local'
      : (requested as ProfileName);
  let only: string[] | undefined;
  let repeats = 1;
  const extra: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--configs' && i + 1 < rest.length) only = rest[++i].split(',').map((s) => s.trim());
    else if (rest[i] === '--repeats' && i + 1 < rest.length) {
      repeats = Number(rest[++i]);
      if (!Number.isInteger(repeats) || repeats < 1 || repeats > 20) {
        process.stderr.write(`--repeats: "${rest[i]}" is not a whole number between 1 and 20\n${USAGE}`);
        process.exit(2);
      }
    } else extra.push(rest[i]);
  }
  return { name, only, repeats, extra };
}

const { name, only, repeats, extra } = parse(process.argv.slice(2));
try {
  const result = await launchFilterCost({
    profileName: name,
    profile: PROFILES[name],
    only,
    repeats,
    extraArgs: extra,
  });
  process.exitCode = result.exitCode;
} catch (error) {
  process.stderr.write(`filter-cost: ${(error as Error).message}\n`);
  process.exitCode = error instanceof LaunchRefused ? 2 : 1;
}
