// k6's response callbacks: http.expectedStatuses(...) objects decide whether a response is "expected", which drives
// the `expected_response` tag and the http_req_failed rate (docs/k6-behaviour.md §4.5).

/** An inclusive status range, as users pass `{min, max}` to http.expectedStatuses. */
export interface StatusRange {
  min: number;
  max: number;
}

/** The object http.expectedStatuses() returns; the only kind of responseCallback k6 accepts. */
export class ExpectedStatuses {
  constructor(readonly ranges: readonly StatusRange[]) {}

  matches(status: number): boolean {
    for (const range of this.ranges) if (status >= range.min && status <= range.max) return true;
    return false;
  }
}

/** k6's default callback: 200-399 are expected. */
export const DEFAULT_EXPECTED = new ExpectedStatuses([{ min: 200, max: 399 }]);

/** Validates http.expectedStatuses(...) arguments the way k6 does (integers or {min, max} with integers). */
export function expectedStatuses(args: readonly unknown[]): ExpectedStatuses {
  const ranges: StatusRange[] = [];
  args.forEach((arg, index) => {
    if (typeof arg === 'number') {
      if (!Number.isInteger(arg)) {
        throw new TypeError(
          `expectedStatuses: argument ${index + 1} must be an integer or an object {min, max} of integers, got ${arg}`,
        );
      }
      ranges.push({ min: arg, max: arg });
      return;
    }
    if (arg && typeof arg === 'object') {
      const { min, max } = arg as Record<string, unknown>;
      if (
        typeof min === 'number' &&
        typeof max === 'number' &&
        Number.isInteger(min) &&
        Number.isInteger(max)
      ) {
        ranges.push({ min, max });
        return;
      }
    }
    throw new TypeError(
      `expectedStatuses: argument ${index + 1} must be an integer or an object {min, max} of integers, got ${JSON.stringify(arg)}`,
    );
  });
  return new ExpectedStatuses(ranges);
}

/** Checks a value given as params.responseCallback or to http.setResponseCallback: an ExpectedStatuses or null. */
export function toResponseCallback(value: unknown, where: string): ExpectedStatuses | null {
  if (value === null) return null;
  if (value instanceof ExpectedStatuses) return value;
  throw new TypeError(`${where}: unsupported responseCallback; use http.expectedStatuses(...) or null`);
}
