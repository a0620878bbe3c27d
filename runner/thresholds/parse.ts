// Threshold definitions -> typed values (pure).
//
// Grammar:
//   key        := metric [ "{" selector "}" ]         the "}" must close at the very end
//   selector   := pair { "," pair }                   pair split at its first ":"; spaces and quotes trimmed
//   definition := expr | { threshold: expr, abortOnFail?: bool, delayAbortEval?: duration }
//   expr       := aggregation operator number         spaces optional
//   operator   := first found of "<=", "<", ">=", ">", "===", "==", "!="
//   aggregation:= count | rate | value | avg | min | max | med | p(N)   (allowed set depends on the metric type)
import { parseDuration } from '../../core/durations';

export type Operator = '<=' | '<' | '>=' | '>' | '===' | '==' | '!=';
const OPERATORS: Operator[] = ['<=', '<', '>=', '>', '===', '==', '!='];

export interface ThresholdExpression {
  /** The expression as written: the key in summaries and JSON output. */
  source: string;
  /** "count", "rate", "value", "avg", "min", "max", "med" or "p(N)". */
  aggregation: string;
  /** N of p(N); undefined for other aggregations. */
  percentile?: number;
  operator: Operator;
  value: number;
  abortOnFail: boolean;
  /** ms; 0 when unset. */
  delayAbortEval: number;
  delayAbortEvalSource?: string;
}

export interface ThresholdKey {
  /** The key as written, e.g. `http_req_duration{status:200}`. */
  key: string;
  metric: string;
  /** Sub-metric tag selector; undefined for the parent metric. */
  tags?: Record<string, string>;
}

function trimQuotes(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return t.slice(1, -1);
  return t;
}

/** Splits `metric{a:b,c:d}`; throws an Error naming the problem. */
export function parseThresholdKey(key: string): ThresholdKey {
  const open = key.indexOf('{');
  if (open < 0) {
    if (key.includes('}')) throw new Error(`malformed sub-metric selector in "${key}"`);
    return { key, metric: key.trim() };
  }
  if (!key.endsWith('}')) throw new Error(`malformed sub-metric selector in "${key}": it must end with "}"`);
  const metric = key.slice(0, open).trim();
  const inner = key.slice(open + 1, -1);
  if (inner.trim() === '') throw new Error(`empty sub-metric selector in "${key}"`);
  const tags: Record<string, string> = {};
  for (const part of inner.split(',')) {
    const colon = part.indexOf(':');
    if (colon < 0) throw new Error(`malformed tag "${part.trim()}" in "${key}": expected name:value`);
    const name = trimQuotes(part.slice(0, colon));
    if (name === '') throw new Error(`empty tag name in "${key}"`);
    tags[name] = trimQuotes(part.slice(colon + 1));
  }
  return { key, metric, tags };
}

const AGGREGATIONS_BY_TYPE: Record<string, string[]> = {
  counter: ['count', 'rate'],
  gauge: ['value'],
  rate: ['rate'],
  trend: ['avg', 'min', 'max', 'med', 'p(N)'],
};

/** Parses one expression; `metricType` restricts the aggregation. Throws an Error naming the problem. */
export function parseExpression(
  source: string,
  metricType: string,
): Omit<ThresholdExpression, 'abortOnFail' | 'delayAbortEval'> {
  let at = -1;
  let operator: Operator | undefined;
  for (const op of OPERATORS) {
    at = source.indexOf(op);
    if (at >= 0) {
      operator = op;
      break;
    }
  }
  if (!operator) throw new Error(`malformed threshold expression "${source}": no comparison operator found`);
  const aggregation = source.slice(0, at).trim();
  const numberText = source.slice(at + operator.length).trim();
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(numberText))
    throw new Error(`malformed threshold expression "${source}": "${numberText}" is not a number`);
  let percentile: number | undefined;
  let kind = aggregation;
  const p = /^p\((\d+(\.\d+)?)\)$/.exec(aggregation);
  if (p) {
    percentile = Number(p[1]);
    if (percentile < 0 || percentile > 100)
      throw new Error(`invalid percentile in "${source}": it must be between 0 and 100`);
    kind = 'p(N)';
  }
  const allowed = AGGREGATIONS_BY_TYPE[metricType] ?? [];
  if (!allowed.includes(kind))
    throw new Error(
      `invalid aggregation method "${aggregation}" in "${source}" for a ${metricType} metric: use one of ${allowed.join(', ')}`,
    );
  return { source, aggregation, percentile, operator, value: Number(numberText) };
}

/** Parses one entry of a threshold list (string or object form). */
export function parseDefinition(def: unknown, metricType: string): ThresholdExpression {
  if (typeof def === 'string')
    return { ...parseExpression(def, metricType), abortOnFail: false, delayAbortEval: 0 };
  if (def && typeof def === 'object' && !Array.isArray(def)) {
    const o = def as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      if (!['threshold', 'abortOnFail', 'delayAbortEval'].includes(k))
        throw new Error(
          `unknown field "${k}" in threshold object (use threshold, abortOnFail, delayAbortEval)`,
        );
    }
    if (typeof o.threshold !== 'string') throw new Error('threshold object needs a "threshold" string');
    const delay =
      o.delayAbortEval === undefined || o.delayAbortEval === null ? 0 : parseDuration(o.delayAbortEval);
    return {
      ...parseExpression(o.threshold, metricType),
      abortOnFail: o.abortOnFail === true,
      delayAbortEval: delay,
      delayAbortEvalSource: typeof o.delayAbortEval === 'string' ? o.delayAbortEval : undefined,
    };
  }
  throw new Error(
    `invalid threshold ${JSON.stringify(def)}: use a string like "p(95)<500" or { threshold, abortOnFail }`,
  );
}
