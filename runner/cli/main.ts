// bin entry of `bench`: picks the subcommand. (Stub until the runner lands: prints usage and exits 2.)
const USAGE = `Usage: bench <command> [flags]

Commands:
  run <script.js|script.ts>   run a k6 script (k6-compatible runner)
  emulator                    start the local turbopuffer-compatible server
  inspect <script>            print the script's consolidated options as JSON
  version                     print the version
`;

process.stderr.write(USAGE);
process.exitCode = 2;
