// How a run is going, as its lifecycle and its realms report it: the first error (k6's precedence: it decides the
// exit code), whether the run was aborted, and exec.test.fail(). run-test.ts turns it into the exit code at the end.

export class RunStatus {
  /** The first error's exit code; undefined while nothing went wrong. */
  exitCode: number | undefined;
  errorMessage: string | undefined;
  /** exec.test.fail()'s first message ('' when it gave none); undefined when the script did not call it. */
  failedMessage: string | undefined;
  /** Resolves once, on the first abort: whatever waits stops at once. */
  readonly aborted: Promise<void>;
  private abortedFlag = false;
  private resolveAborted: () => void = () => {};

  constructor() {
    this.aborted = new Promise<void>((resolve) => {
      this.resolveAborted = resolve;
    });
  }

  get isAborted(): boolean {
    return this.abortedFlag;
  }

  /** Records an error; a later one changes nothing. */
  setError(code: number, message: string): void {
    if (this.exitCode === undefined) {
      this.exitCode = code;
      this.errorMessage = message;
    }
  }

  /** Records an error and stops the run (a signal, exec.test.abort(), abortOnFail, a coordinator gone). */
  abort(code: number, message: string): void {
    this.setError(code, message);
    if (!this.abortedFlag) {
      this.abortedFlag = true;
      this.resolveAborted();
    }
  }

  /** exec.test.fail(): the run goes on, and ends with exit 110 unless something else failed. */
  markFailed(message: string): void {
    this.failedMessage ??= message;
  }
}
