// Globals every k6 runtime provides but @types/k6 leaves to the DOM lib (which the k6 world must not load).
declare const console: {
  log(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
  debug(...args: unknown[]): void;
};
