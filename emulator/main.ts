// `bench emulator`: flags -> config -> listen; prints the base URL; clean shutdown on signals. (Stub until it lands.)
export async function main(_argv: string[]): Promise<number> {
  process.stderr.write('bench emulator: not built yet (issue 4).\n');
  return 2;
}
