// The command prefix that runs a program in a network namespace of its own with only loopback up (unshare -n): the
// scripts that run code or tools written by others (try-k6-scripts, try-tpuf-benchmark) send nothing off the machine.
// `ip link set lo up` inside, since a fresh namespace has loopback down and the programs talk over 127.0.0.1.
export const LOOPBACK_ONLY: readonly string[] = [
  'unshare',
  '--net',
  '--map-root-user',
  '--',
  'sh',
  '-c',
  'ip link set lo up && exec "$@"',
  'sh',
];
