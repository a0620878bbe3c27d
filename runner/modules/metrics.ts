// The `k6/metrics` module: Counter, Gauge, Rate, Trend (declared in init code, added to in VU code).
import { nowMs } from '../control-block';
import { METRIC_NAME } from '../metrics/builtin';
import type { MetricType, ValueType } from '../metrics/sinks';
import type { VuRuntime } from '../vu/runtime';

/** Metrics this realm declared: name -> [type, contains] (init #0 reports them for threshold validation). */
export type DeclaredMetrics = Map<string, [MetricType, ValueType]>;

export function createMetricsModule(rt: VuRuntime, declared: DeclaredMetrics) {
  function make(type: MetricType) {
    return class {
      readonly name: string;
      readonly type = type;
      private readonly contains: ValueType;

      constructor(name: string, isTime = false) {
        if (!rt.inInitContext()) throw new Error('metrics must be declared in the init context');
        if (typeof name !== 'string' || !METRIC_NAME.test(name))
          throw new Error(`invalid metric name '${name}': it must match ${METRIC_NAME.source}`);
        this.name = name;
        this.contains = isTime ? 'time' : 'default';
        const existing = declared.get(name);
        if (existing && (existing[0] !== type || existing[1] !== this.contains))
          throw new Error(`metric '${name}' already exists but with type ${existing[0]}, instead of ${type}`);
        if (!existing) {
          declared.set(name, [type, this.contains]);
          rt.encoder.define(name, type, this.contains);
        }
      }

      add(value: unknown, tags?: Record<string, unknown>): boolean {
        if (rt.inInitContext()) throw new Error('Adding to metrics in the init context is not supported');
        let v: number;
        if (typeof value === 'boolean') v = value ? 1 : 0;
        else if (typeof value === 'number') v = value;
        else if (typeof value === 'string' && value.trim() !== '') v = Number(value);
        else v = Number.NaN;
        if (Number.isNaN(v)) {
          const msg = `${this.name}.add(${String(value)}): the value is not a number`;
          if (rt.httpOptions.throw) throw new Error(msg);
          rt.log('warn', msg);
          return false;
        }
        // Without tags of its own the sample carries the VU's shared tag set (encoded by identity, see VuRuntime.tags).
        let t: Readonly<Record<string, string>> = rt.tags();
        if (tags && Object.keys(tags).length > 0) {
          const own = { ...t };
          for (const [k, val] of Object.entries(tags)) {
            if (typeof val !== 'string' && typeof val !== 'number' && typeof val !== 'boolean')
              throw new TypeError(`invalid tag value for "${k}": tags must be strings, numbers or booleans`);
            own[k] = String(val);
          }
          t = own;
        }
        rt.emit([{ metric: this.name, time: nowMs(), value: v, tags: t, metadata: rt.metadata() }]);
        return true;
      }
    };
  }
  return { Counter: make('counter'), Gauge: make('gauge'), Rate: make('rate'), Trend: make('trend') };
}
