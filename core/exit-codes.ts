// k6's process exit codes as named constants, so every error carries the code k6 would exit with.

/** The run finished and nothing failed (failed check()s never change the exit code). */
export const EXIT_OK = 0;
/** One or more thresholds failed, at the end or through abortOnFail. */
export const EXIT_THRESHOLDS_FAILED = 99;
/** setup() ran longer than setupTimeout. */
export const EXIT_SETUP_TIMEOUT = 100;
/** teardown() ran longer than teardownTimeout. */
export const EXIT_TEARDOWN_TIMEOUT = 101;
/** Any other timeout (k6 keeps it for compatibility). */
export const EXIT_GENERIC_TIMEOUT = 102;
/** Invalid options, scenarios, thresholds or env values: the run never started. */
export const EXIT_INVALID_CONFIG = 104;
/** SIGINT/SIGTERM: the first is graceful (teardown and summary still run), the second exits at once. */
export const EXIT_EXTERNAL_ABORT = 105;
/** A script exception in init, setup or teardown, or an unsupported import. */
export const EXIT_SCRIPT_EXCEPTION = 107;
/** The script called exec.test.abort(). */
export const EXIT_SCRIPT_ABORTED = 108;
/** The runner itself crashed (k6 maps Go panics here). */
export const EXIT_INTERNAL_ERROR = 109;
/** The script called exec.test.fail(): the run went to its end but is marked failed. */
export const EXIT_MARKED_AS_FAILED = 110;
/** CLI usage errors, unreadable script and anything else (k6 exits with -1, i.e. 255). */
export const EXIT_GENERIC_ERROR = 255;
