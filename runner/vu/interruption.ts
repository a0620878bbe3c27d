// Sentinels thrown through user code when an iteration must stop (never catch them in runner code without
// rethrowing): interruption at a hard stop, exec.test.abort(), and errors that carry a k6 exit code.

/** Thrown by sleep/http/etc. when the iteration was interrupted (gracefulStop expired, ramp-down, abort). */
export class IterationInterrupted extends Error {
  constructor() {
    super('iteration interrupted');
    this.name = 'IterationInterrupted';
  }
}

/**
 * Thrown once by the first sleep/http call of setup() after the run was told to stop (Ctrl+C): setup() can catch it
 * and undo what it made (its later calls run normally), since teardown() does not run after a failed setup().
 */
export class SetupInterrupted extends Error {
  constructor(timedOut: boolean) {
    super(
      timedOut
        ? 'setup() was interrupted because it ran past setupTimeout'
        : 'setup() was interrupted because the run was told to stop',
    );
    this.name = 'SetupInterrupted';
  }
}

/** Thrown by exec.test.abort(msg): the whole run stops with exit 108. */
export class TestAbort extends Error {
  constructor(readonly reason: string) {
    super(reason === '' ? 'test aborted' : `test aborted: ${reason}`);
    this.name = 'TestAbort';
  }
}
