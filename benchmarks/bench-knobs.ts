// The environment knobs of the benchmark scripts (bench-runner, bench-emulator, bench-vector): read once, checked,
// and refused with the knob's name, what it takes and what it got, before any work starts.

type Env = Readonly<Record<string, string | undefined>>;

/** A knob's value that the script cannot use; the scripts print its message and exit 2. */
export class KnobError extends Error {
  override name = 'KnobError';
}

const given = (env: Env, name: string): string | undefined => {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
};

/** A whole number of at least `min` (underscores allowed as digit separators: 1_000_000). */
export function intKnob(name: string, fallback: number, min = 1, env: Env = process.env): number {
  const raw = given(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value < min)
    throw new KnobError(`${name}: expected a whole number of at least ${min}, got "${raw}"`);
  return value;
}

/** A finite number above zero. */
export function positiveKnob(name: string, fallback: number, env: Env = process.env): number {
  const raw = given(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new KnobError(`${name}: expected a positive number, got "${raw}"`);
  return value;
}

/** One of `allowed`. */
export function choiceKnob<T extends string>(
  name: string,
  allowed: readonly T[],
  fallback: T,
  env: Env = process.env,
): T {
  const raw = given(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw))
    throw new KnobError(`${name}: expected one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** A script's knobs from `read`; a KnobError prints its message alone (no stack) and exits 2. */
export function readKnobs<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof KnobError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}
