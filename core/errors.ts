// Error classes that carry their k6 exit code and an optional hint, set where the error is raised; the CLI only reads them.
import { EXIT_GENERIC_ERROR, EXIT_INTERNAL_ERROR } from './exit-codes';

export class BenchError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'BenchError';
  }
}

/** The exit code an arbitrary thrown value maps to: a BenchError's own code, else an internal error. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof BenchError) return error.exitCode;
  return EXIT_INTERNAL_ERROR;
}

/** A usage error of the CLI itself (bad flag, missing argument). */
export function usageError(message: string, hint?: string): BenchError {
  return new BenchError(message, EXIT_GENERIC_ERROR, hint);
}
