// The runner's public entry: what the `bench` command (cli/) calls. Everything else in runner/ is internal to it.
export { Logger } from './engine/logger';
export { inspectScript } from './inspect';
export { coordinatorLink, INSTANCE_ENV, instancesHost } from './instances/instances';
export { type MergeStreamsInput, mergeStreams, readExport } from './merge/merge-streams';
export { mergeSummaryExports, type SummaryExport } from './merge/summary-exports';
export { parseSecretSources, SECRET_SOURCES_ENV, secretRedactor } from './modules/secrets';
export { kv, type ParsedRun, parseRunFlags, runHelp } from './options/run-flags';
export { checkOutputTargets, type OutputTarget } from './outputs/writable';
export { runTest } from './run-test';
export { vendorScript } from './script/bundle';
export { moduleCacheDir } from './script/remote-modules';
export { versionJson, versionLine } from './version';
