// Sentinels thrown through user code when an iteration must stop (never catch them in runner code without
// rethrowing): interruption at a hard stop, exec.test.abort(), and errors that carry a k6 exit code.

/** Thrown by sleep/http/etc. when the iteration was interrupted (gracefulStop expired, ramp-down, abort). */
export class IterationInterrupted extends Error {
  constructor() {
    super('iteration interrupted');
    this.name = 'IterationInterrupted';
  }
}

/** Thrown by exec.test.abort(msg): the whole run stops with exit 108. */
export class TestAbort extends Error {
  constructor(readonly reason: string) {
    super(reason === '' ? 'test aborted' : `test aborted: ${reason}`);
    this.name = 'TestAbort';
  }
}
