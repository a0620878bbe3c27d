// Built-in and custom metrics by name, with their sinks and sub-metrics; rejects bad names and type clashes.
import { BUILTIN_METRICS, METRIC_NAME } from './builtin';
import { type AnySink, createSink, type MetricType, type ValueType } from './sinks';

export interface Submetric {
  /** Full name as written, e.g. `http_req_duration{status:200}`. */
  name: string;
  /** The selector text without braces, e.g. `status:200`. */
  suffix: string;
  tags: Record<string, string>;
  sink: AnySink;
  parent: Metric;
}

export interface Metric {
  name: string;
  type: MetricType;
  contains: ValueType;
  sink: AnySink;
  submetrics: Submetric[];
  builtin: boolean;
}

export class MetricRegistry {
  readonly metrics = new Map<string, Metric>();

  constructor() {
    for (const def of BUILTIN_METRICS)
      this.metrics.set(def.name, this.make(def.name, def.type, def.contains, true));
  }

  private make(name: string, type: MetricType, contains: ValueType, builtin: boolean): Metric {
    return { name, type, contains, sink: createSink(type), submetrics: [], builtin };
  }

  get(name: string): Metric | undefined {
    return this.metrics.get(name);
  }

  /** Registers a custom metric; the same name and type returns the existing one. Throws on a clash or bad name. */
  define(name: string, type: MetricType, contains: ValueType): Metric {
    const existing = this.metrics.get(name);
    if (existing) {
      if (existing.type !== type || existing.contains !== contains)
        throw new Error(`metric '${name}' already exists but with type ${existing.type}, instead of ${type}`);
      return existing;
    }
    if (!METRIC_NAME.test(name))
      throw new Error(
        `invalid metric name '${name}': it must match ${METRIC_NAME.source} (letters, digits, "_", 2-129 characters)`,
      );
    const metric = this.make(name, type, contains, false);
    this.metrics.set(name, metric);
    return metric;
  }

  /** The metric a sample names; unknown names (emitted before their definition arrived) become counters. */
  resolve(name: string): Metric {
    return this.metrics.get(name) ?? this.define(name, 'counter', 'default');
  }

  addSubmetric(parent: Metric, name: string, tags: Record<string, string>): Submetric {
    const found = parent.submetrics.find((s) => s.name === name);
    if (found) return found;
    const open = name.indexOf('{');
    const sub: Submetric = {
      name,
      suffix: name.slice(open + 1, -1),
      tags,
      sink: createSink(parent.type),
      parent,
    };
    parent.submetrics.push(sub);
    return sub;
  }
}

/** True when `tags` contains every pair of `selector`. */
export function matches(selector: Record<string, string>, tags: Record<string, string>): boolean {
  for (const k in selector) if (tags[k] !== selector[k]) return false;
  return true;
}
