// Script errors as k6 logs them: the message and the script's own stack frames, without the runner's.

/** The error's stack without the runner's own frames (k6 shows only the script's). */
export function scriptStack(error: Error): string {
  const lines = (error.stack ?? String(error)).split('\n');
  const runnerFrame = /\/dist\/[\w.-]+\.js:|\(node:|at node:|\[nodejs\.internal/;
  return lines.filter((l, i) => i === 0 || !runnerFrame.test(l)).join('\n');
}
