// The "env" option layer: K6_* environment variables parsed by each option's kind; bad values name the variable.

import { parseDuration } from '../../core/durations';
import { BenchError } from '../../core/errors';
import { EXIT_INVALID_CONFIG } from '../../core/exit-codes';
import type { Options } from './consolidate';
import { envNameOf, OPTION_KEYS, type OptionKind } from './option-keys';

/** Parses one option value given as text (env variable or CLI argument). Throws Error with the reason. */
export function parseOptionText(kind: OptionKind, text: string): unknown {
  switch (kind) {
    case 'int': {
      if (!/^-?\d+$/.test(text.trim())) throw new Error(`"${text}" is not an integer`);
      return Number(text);
    }
    case 'float': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) throw new Error(`"${text}" is not a number`);
      return n;
    }
    case 'bool': {
      const t = text.trim().toLowerCase();
      if (['1', 'true', 't', 'yes'].includes(t) || t === '') return true;
      if (['0', 'false', 'f', 'no'].includes(t)) return false;
      throw new Error(`"${text}" is not a boolean (use true or false)`);
    }
    case 'duration':
      parseDuration(text);
      return text;
    case 'string':
      return text;
    case 'list':
      return text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    case 'tags': {
      const tags: Record<string, string> = {};
      for (const part of text.split(',')) {
        if (part.trim() === '') continue;
        const eq = part.indexOf('=');
        if (eq <= 0) throw new Error(`"${part}" is not a NAME=VALUE tag`);
        tags[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
      }
      return tags;
    }
    case 'json':
      return JSON.parse(text);
  }
}

/** Options set through K6_* variables. `scenarios` cannot be set from the environment (as in k6). */
export function optionsFromEnv(env: Record<string, string | undefined>): Options {
  const options: Options = {};
  for (const [key, kind] of OPTION_KEYS) {
    if (key === 'scenarios') continue;
    const name = envNameOf(key);
    const text = env[name];
    if (text === undefined) continue;
    try {
      options[key] = parseOptionText(kind, text);
    } catch (error) {
      throw new BenchError(
        `invalid value of environment variable ${name}: ${(error as Error).message}`,
        EXIT_INVALID_CONFIG,
        `unset ${name} or give it a valid ${kind} value`,
      );
    }
  }
  return options;
}
