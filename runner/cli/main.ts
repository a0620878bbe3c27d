// bin entry of `bench`: picks the subcommand and turns its result into the process exit code.
// (`run`, `inspect` and `version` are stubs until the runner lands: they print usage and exit 2.)
const USAGE = `Usage: bench <command> [flags]

Commands:
  run <script.js|script.ts>   run a k6 script (k6-compatible runner)
  emulator                    start the local turbopuffer-compatible server
  inspect <script>            print the script's consolidated options as JSON
  version                     print the version
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'emulator') {
    const emulator = await import('../../emulator/main');
    return emulator.main(rest);
  }
  process.stderr.write(USAGE);
  return 2;
}

export {};

process.exitCode = await main(process.argv.slice(2));
