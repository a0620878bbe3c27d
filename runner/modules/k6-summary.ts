// Built-in stand-in for `https://jslib.k6.io/k6-summary/<0.0.x|0.1.0>/index.js`: textSummary, jUnit and
// humanizeValue written from the documented behaviour (the jslib file itself is never copied or fetched).
import { renderClassicSummary } from '../summary/classic-text';
import type { SummaryData, SummaryMetric } from '../summary/data';
import { formatPercent, formatValue } from '../summary/format';
import { renderJUnit } from '../summary/junit';

export function createK6SummaryModule() {
  return {
    textSummary: (data: SummaryData, options?: Parameters<typeof renderClassicSummary>[1]) =>
      renderClassicSummary(data, options),
    jUnit: (data: SummaryData, options?: { name?: string; classname?: string }) => renderJUnit(data, options),
    humanizeValue: (value: number, metric: Pick<SummaryMetric, 'type' | 'contains'>, timeUnit = '') =>
      metric.type === 'rate' ? formatPercent(value) : formatValue(value, metric.contains, timeUnit),
  };
}
