// The one rule every experiment make target follows to pick its target, said out loud before anything runs:
//   BENCH_TARGET=emulator|service when given, otherwise the real service when TURBOPUFFER_API_KEY is set (in the
//   environment or as `-e` in ARGS) and a fresh local emulator when it is not.
// Against the emulator the service's variables are set aside (never passed to the run) and named; a target without
// a real-service profile (the smoke runs) refuses the service instead of quietly running locally. Pure.
import { readTarget } from '../../lib/common-knobs';
import { EnvError, EnvReader } from '../../lib/env';
import type { MakeTarget, Profile } from './experiments';

/** The variables that point a run at the real service. */
export const SERVICE_VARIABLES = [
  'TURBOPUFFER_API_KEY',
  'TURBOPUFFER_REGION',
  'TURBOPUFFER_BASE_URL',
  'TPUF_BENCH_CONFIRM_COST',
] as const;

export type TargetChoice =
  | {
      kind: 'emulator';
      profile: Profile;
      /** What the launcher prints first: the target and why, and every variable set aside. */
      lines: string[];
      /** Service variables present that the run must not see. */
      setAside: string[];
    }
  | { kind: 'service'; profile: Profile; lines: string[] };

/** The target cannot be used as asked; the message says why and what to change. Nothing has run. */
export class TargetRefused extends Error {}

type Env = Readonly<Record<string, string | undefined>>;

const present = (env: Env, name: string) => (env[name] ?? '').trim() !== '';

export function chooseTarget(makeTarget: string, t: MakeTarget, env: Env): TargetChoice {
  const asked = env.BENCH_TARGET?.trim() || undefined;
  if (asked !== undefined && asked !== 'emulator' && asked !== 'service')
    throw new TargetRefused(
      `BENCH_TARGET: "${asked}" is not a target: use emulator or service, or leave it unset`,
    );
  const hasKey = present(env, 'TURBOPUFFER_API_KEY');
  const kind = asked ?? (hasKey ? 'service' : 'emulator');
  const why =
    asked !== undefined
      ? `BENCH_TARGET=${asked}`
      : hasKey
        ? 'TURBOPUFFER_API_KEY is set'
        : 'TURBOPUFFER_API_KEY is not set';

  if (kind === 'service') {
    if (t.service === null)
      throw new TargetRefused(
        `make ${makeTarget} runs only against the local emulator (its profile needs the emulator's scaled limits), ` +
          `but ${why}, which means the real service. Unset TURBOPUFFER_API_KEY or add BENCH_TARGET=emulator; ` +
          `make ${t.experiment} has a real-service profile`,
      );
    if (!hasKey)
      throw new TargetRefused(
        'BENCH_TARGET=service needs TURBOPUFFER_API_KEY (and TURBOPUFFER_REGION or TURBOPUFFER_BASE_URL)',
      );
    let baseUrl: string;
    let loopback: boolean;
    try {
      const target = readTarget(new EnvReader(env));
      baseUrl = target.baseUrl;
      loopback = target.kind === 'emulator';
    } catch (error) {
      if (error instanceof EnvError) throw new TargetRefused(error.message);
      throw error;
    }
    const where = loopback
      ? `the emulator you started at ${baseUrl} (a loopback TURBOPUFFER_BASE_URL with a key)`
      : `the real turbopuffer service at ${baseUrl}`;
    return {
      kind: 'service',
      profile: t.service,
      lines: [
        `target: ${where}, because ${why}`,
        loopback
          ? `profile: ${t.service.description}`
          : `profile: ${t.service.description}; the script prints its plan and cost estimate first and runs only ` +
            'with TPUF_BENCH_CONFIRM_COST=1',
      ],
    };
  }

  const setAside = SERVICE_VARIABLES.filter((name) => present(env, name));
  const flags = t.emulator.emulator ?? [];
  return {
    kind: 'emulator',
    profile: t.emulator,
    setAside,
    lines: [
      `target: a fresh local emulator (bench emulator${flags.length > 0 ? ` ${flags.join(' ')}` : ''}), because ${why}`,
      `profile: ${t.emulator.description}`,
      ...(setAside.length > 0
        ? [
            `set aside, not passed to the run: ${setAside.join(', ')}` +
              (hasKey ? '' : ' (without TURBOPUFFER_API_KEY they point nowhere)'),
          ]
        : []),
    ],
  };
}
