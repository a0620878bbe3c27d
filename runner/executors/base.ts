// Fields every scenario shares (startTime, gracefulStop, exec, env, tags) and the strict field readers the
// executor parsers use: each problem names the scenario, the field and what to write instead, once per field.
import { formatGoDuration, parseDuration } from '../../core/durations';
import type { Stripe } from './stripe';

export interface BaseScenarioConfig {
  name: string;
  executor: string;
  /** ms after the test start (after setup). */
  startTime: number;
  /** ms in-flight iterations get after the regular end. */
  gracefulStop: number;
  /** Exported function each iteration calls. */
  exec: string;
  /** True when `exec` was given explicitly (it then appears in the description). */
  execSet: boolean;
  env: Record<string, string>;
  tags: Record<string, string>;
  /** `options.browser.type` ('chromium'): only such a scenario's iterations may use k6/browser, as in k6. */
  browserType: string | null;
  /** Set under execution segments: this instance's part of the scenario (its counts are already its share). */
  part?: ScenarioPart;
}

/** What an instance needs to know about its part beyond its own counts. */
export interface ScenarioPart {
  /** The segment's length (1 = the whole test), for descriptions. */
  share: number;
  /** The test-wide numbers of this instance's iterations: local iteration k is iteration stripeItem(iterations, k). */
  iterations: Stripe;
}

/**
 * Reads fields off a raw scenario object, recording problems instead of throwing so all are reported at once. A field
 * that could not be read (missing though required, or of the wrong type) reads as a stand-in value; the rules on
 * values (invalid()) skip it, or its one mistake would come back as a second, wrong one about the stand-in.
 */
export class FieldReader {
  private readonly used = new Set<string>(['executor']);
  private readonly unread = new Set<string>();

  constructor(
    readonly scenario: string,
    private readonly raw: Record<string, unknown>,
    readonly problems: string[],
  ) {}

  private problem(message: string): void {
    this.problems.push(`scenario "${this.scenario}": ${message}`);
  }

  private unreadable(field: string, message: string): void {
    this.unread.add(field);
    this.problem(message);
  }

  /** Reports a rule that the values of `fields` break, unless one of them could not be read (reported already). */
  invalid(fields: string | readonly string[], message: string): void {
    const about = typeof fields === 'string' ? [fields] : fields;
    if (about.some((field) => this.unread.has(field))) return;
    this.problem(message);
  }

  has(field: string): boolean {
    return this.raw[field] !== undefined && this.raw[field] !== null;
  }

  duration(field: string, fallback: number | undefined): number {
    this.used.add(field);
    const v = this.raw[field];
    if (v === undefined || v === null) {
      if (fallback === undefined) this.unreadable(field, `${field} is required (e.g. ${field}: '30s')`);
      return fallback ?? 0;
    }
    try {
      return parseDuration(v);
    } catch (error) {
      this.unreadable(field, `${field}: ${(error as Error).message}`);
      return fallback ?? 0;
    }
  }

  int(field: string, fallback: number | undefined): number {
    this.used.add(field);
    const v = this.raw[field];
    if (v === undefined || v === null) {
      if (fallback === undefined) this.unreadable(field, `${field} is required`);
      return fallback ?? 0;
    }
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      this.unreadable(field, `${field} must be an integer, got ${JSON.stringify(v)}`);
      return fallback ?? 0;
    }
    return v;
  }

  string(field: string, fallback: string): string {
    this.used.add(field);
    const v = this.raw[field];
    if (v === undefined || v === null) return fallback;
    if (typeof v !== 'string') {
      this.unreadable(field, `${field} must be a string, got ${JSON.stringify(v)}`);
      return fallback;
    }
    return v;
  }

  stringMap(field: string): Record<string, string> {
    this.used.add(field);
    const v = this.raw[field];
    if (v === undefined || v === null) return {};
    if (typeof v !== 'object' || Array.isArray(v)) {
      this.unreadable(field, `${field} must be an object of strings`);
      return {};
    }
    const out: Record<string, string> = {};
    for (const [k, val] of Object.entries(v)) out[k] = String(val);
    return out;
  }

  stages(field: string): Array<{ duration: number; target: number }> {
    this.used.add(field);
    const v = this.raw[field];
    if (!Array.isArray(v) || v.length === 0) {
      this.unreadable(field, `${field} is required: at least one { duration, target } stage`);
      return [];
    }
    // A stage that cannot be read makes the whole list a stand-in for the rules on it (e.g. "a target above 0").
    return v.map((stage: unknown, i) => {
      const s = (stage ?? {}) as Record<string, unknown>;
      let duration = 0;
      try {
        duration = parseDuration(s.duration);
      } catch (error) {
        this.unreadable(field, `${field}[${i}].duration: ${(error as Error).message}`);
      }
      const target = s.target ?? 0;
      if (typeof target !== 'number' || !Number.isInteger(target) || target < 0)
        this.unreadable(
          field,
          `${field}[${i}].target must be a non-negative integer, got ${JSON.stringify(target)}`,
        );
      if (duration < 0) this.problem(`${field}[${i}].duration must not be negative`);
      return { duration, target: Number(target) };
    });
  }

  /** Marks a field as known without checking it, and returns it as given (e.g. browser `options`). */
  accept(field: string): unknown {
    this.used.add(field);
    return this.raw[field];
  }

  /** Reports every field that no reader asked for (k6 parses scenarios strictly). */
  rejectUnknown(): void {
    for (const key of this.unknownFields()) this.problem(`unknown field "${key}"`);
  }

  /** The fields no reader asked for (call after the executor's parser). */
  unknownFields(): string[] {
    return Object.keys(this.raw).filter((key) => !this.used.has(key));
  }
}

export function readBase(name: string, executor: string, r: FieldReader): BaseScenarioConfig {
  const startTime = r.duration('startTime', 0);
  if (startTime < 0) r.invalid('startTime', 'startTime must not be negative');
  const gracefulStop = r.duration('gracefulStop', 30_000);
  if (gracefulStop < 0) r.invalid('gracefulStop', 'gracefulStop must not be negative');
  const execSet = r.has('exec');
  const exec = r.string('exec', 'default');
  if (exec === '') r.invalid('exec', 'exec must not be empty (omit it to call the default function)');
  const options = r.accept('options');
  return {
    browserType: browserTypeOf(options),
    name,
    executor,
    startTime,
    gracefulStop,
    exec,
    execSet,
    env: r.stringMap('env'),
    tags: r.stringMap('tags'),
  };
}

/** The scenario's `options.browser.type`, when it names one. */
function browserTypeOf(options: unknown): string | null {
  const browser = (options as { browser?: { type?: unknown } } | null | undefined)?.browser;
  return typeof browser?.type === 'string' && browser.type !== '' ? browser.type : null;
}

/** The "(facts)" suffix of a scenario description: executor facts, exec, startTime, gracefulStop. */
export function describeFacts(base: BaseScenarioConfig, executorFacts: string[]): string {
  const facts = [...executorFacts];
  if (base.execSet) facts.push(`exec: ${base.exec}`);
  if (base.startTime > 0) facts.push(`startTime: ${formatGoDuration(base.startTime)}`);
  if (base.gracefulStop > 0) facts.push(`gracefulStop: ${formatGoDuration(base.gracefulStop)}`);
  return facts.length > 0 ? ` (${facts.join(', ')})` : '';
}
