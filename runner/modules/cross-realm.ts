// Type checks that hold for values of any realm. A hosted VU's script (`--vu-threads`) runs in its own vm context, so
// its errors, ArrayBuffers and Dates are not `instanceof` the runner's constructors.
import { types } from 'node:util';

export function isError(value: unknown): value is Error {
  return types.isNativeError(value) || Object.prototype.toString.call(value) === '[object Error]';
}

export const isArrayBuffer: (value: unknown) => value is ArrayBuffer = types.isArrayBuffer;

export const isDate: (value: unknown) => value is Date = types.isDate;
