// `-e NAME=value` flags of `bench run`, in one place for the launchers and tests: built from a knob map, read back
// (later ones winning, as for bench run), and redacted before they reach a file.

/** `-e K=V` for every entry, in the map's order. */
export function envFlags(env: Record<string, string>): string[] {
  return Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
}

/** Replaces the value of any `-e NAME=value` flag whose name looks secret (the API key never reaches a file). */
export function redactArgs(args: readonly string[]): string[] {
  return args.map((arg) =>
    arg.replace(
      /^((?:--env=)?(?:TURBOPUFFER_API_KEY|[A-Z_]*(?:KEY|TOKEN|SECRET)[A-Z_]*)=).*$/,
      '$1<redacted>',
    ),
  );
}

/**
 * The `NAME=value` an argument carries on its own in one of the forms bench run reads (`--env=K=V`, `-eK=V`,
 * `-e=K=V`), or undefined. `-e` and `--env` alone take the next argument.
 */
function attachedPair(flag: string): string | undefined {
  if (flag.startsWith('--env=')) return flag.slice('--env='.length);
  if (flag.startsWith('-e') && flag.length > 2 && !flag.startsWith('--'))
    return flag.slice(2).replace(/^=/, '');
  return undefined;
}

const takesNext = (flag: string) => flag === '-e' || flag === '--env';

/** `-e K=V` pairs of a flag list, in every form bench run accepts, later ones winning (as for bench run). */
export function envFromFlags(args: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const pair = takesNext(flag) && i + 1 < args.length ? args[++i] : attachedPair(flag);
    if (pair === undefined) continue;
    const eq = pair.indexOf('=');
    if (eq > 0) out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** The flags without the `-e NAME=value` ones (any form) whose NAME is listed. */
export function withoutEnvFlags(args: readonly string[], names: readonly string[]): string[] {
  const drop = (pair: string) => names.includes(pair.slice(0, pair.indexOf('=')));
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (takesNext(flag) && i + 1 < args.length) {
      if (!drop(args[i + 1])) out.push(flag, args[i + 1]);
      i++;
      continue;
    }
    const pair = attachedPair(flag);
    if (pair === undefined || !drop(pair)) out.push(flag);
  }
  return out;
}
