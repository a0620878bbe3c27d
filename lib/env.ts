// Typed readers for knobs passed as environment variables (k6 `__ENV`): every error names the variable, what it got
// and what it accepts. Pure: the scenario hands `__ENV` in, so Node tests use the same parsers.
import { parseSize } from '../core/sizes';

/** The environment as k6 exposes it: names to string values (missing names are undefined). */
export type EnvRecord = Readonly<Record<string, string | undefined>>;

/** A knob's value could not be used; the message names the variable and the accepted values. */
export class EnvError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'EnvError';
    // A refused knob is the user's input, not a bug: the runner prints the stack, and this one is the message alone.
    this.stack = this.message;
  }
}

interface NumberBounds {
  /** Smallest accepted value (inclusive). */
  min?: number;
  /** Largest accepted value (inclusive). */
  max?: number;
}

/** Reads knobs from one environment; records which were set so results can say what was overridden. */
export class EnvReader {
  constructor(private readonly env: EnvRecord) {}

  /** The raw value, trimmed; undefined when unset or blank (a blank `-e X=` means "use the default"). */
  raw(name: string): string | undefined {
    const value = this.env[name];
    if (value === undefined) return undefined;
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  /** A whole number (digits, optional `_` separators), within bounds. */
  int(name: string, fallback: number, bounds: NumberBounds = {}): number {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    if (!/^-?\d[\d_]*$/.test(text))
      throw new EnvError(name, `"${text}" is not a whole number${range(bounds)}`);
    return checkBounds(name, Number(text.replace(/_/g, '')), bounds);
  }

  /** A decimal number, within bounds. */
  number(name: string, fallback: number, bounds: NumberBounds = {}): number {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!/^-?(\d+\.?\d*|\.\d+)$/.test(text) || !Number.isFinite(value))
      throw new EnvError(name, `"${text}" is not a number${range(bounds)}`);
    return checkBounds(name, value, bounds);
  }

  /** A byte size such as `512MiB`, `1.75GiB` or `4096` (see core/sizes.ts). */
  size(name: string, fallback: number): number {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    try {
      return parseSize(text);
    } catch (error) {
      throw new EnvError(name, (error as Error).message);
    }
  }

  /** `1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off` (case-insensitive). */
  bool(name: string, fallback: boolean): boolean {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    const lower = text.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
    if (['0', 'false', 'no', 'off'].includes(lower)) return false;
    throw new EnvError(name, `"${text}" is not a boolean: use 1 or 0 (also true/false, yes/no, on/off)`);
  }

  /** One of a fixed list of words. */
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const text = this.raw(name);
    if (text === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(text))
      throw new EnvError(name, `"${text}" is not allowed: use one of ${allowed.join(', ')}`);
    return text as T;
  }
}

function range({ min, max }: NumberBounds): string {
  if (min !== undefined && max !== undefined) return ` between ${min} and ${max}`;
  if (min !== undefined) return ` >= ${min}`;
  if (max !== undefined) return ` <= ${max}`;
  return '';
}

function checkBounds(name: string, value: number, bounds: NumberBounds): number {
  if ((bounds.min !== undefined && value < bounds.min) || (bounds.max !== undefined && value > bounds.max))
    throw new EnvError(name, `${value} is out of range: use a value${range(bounds)}`);
  return value;
}
