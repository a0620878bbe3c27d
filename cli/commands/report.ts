// `bench report RESULT.json|DIR...`: charts (SVG), the Markdown's charts section and the HTML report of every result
// named, or of every result in a directory; `--newest DIR` takes only the directory's newest result (what the make
// targets run after an experiment). Files no experiment of this version wrote are named and skipped.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BenchError, usageError } from '../../core/errors';
import { EXIT_GENERIC_ERROR } from '../../core/exit-codes';
import { classifyResult, screenshotPages, writeResultReport } from '../../report';

export const REPORT_USAGE = `Usage: bench report [flags] RESULT.json|DIR...

Draws a result's charts (one SVG each, beside the result), embeds them in its Markdown and writes its
self-contained HTML report (<result>.html: interactive charts, then the tables). A DIR stands for every
*.json result in it.

Flags:
      --newest       of each DIR, only the newest result (by modification time)
      --screenshot   also a full-page PNG of each HTML report (<result>.png; headless Chromium, make chromium)
  -r, --recursive    DIRs include their subdirectories
  -q, --quiet        print nothing but errors
  -h, --help         this text
`;

function resultFiles(dir: string, recursive: boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isDirectory()) {
      if (recursive) out.push(...resultFiles(path, recursive));
    } else if (name.endsWith('.json')) out.push(path);
  }
  return out;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new BenchError(`${file}: not readable as JSON (${(error as Error).message})`, EXIT_GENERIC_ERROR);
  }
}

export async function reportCommand(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  const parse = (args: string[]) =>
    parseArgs({
      args,
      allowPositionals: true,
      options: {
        newest: { type: 'boolean' },
        screenshot: { type: 'boolean' },
        recursive: { type: 'boolean', short: 'r' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  try {
    parsed = parse(argv);
  } catch (error) {
    throw usageError((error as Error).message, 'bench report --help');
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(REPORT_USAGE);
    return 0;
  }
  if (positionals.length === 0)
    throw usageError('bench report needs a result file or directory', 'bench report --help');
  const say = (line: string) => {
    if (!values.quiet) process.stdout.write(`${line}\n`);
  };
  const pages: string[] = [];
  for (const target of positionals) {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(target);
    } catch {
      // After a run that wrote nothing (refused, failed early) there may be no directory yet: nothing to report.
      if (values.newest) continue;
      throw usageError(`${target}: no such file or directory`);
    }
    const named = !stat.isDirectory();
    let files = await Promise.all(
      (named ? [target] : resultFiles(target, values.recursive === true)).map(async (file) => ({
        file,
        known: await classifyResult(readJson(file)),
      })),
    );
    // A named file must be a result; in a directory, other JSON files are only mentioned.
    for (const { file, known } of files)
      if (known.experiment === null) {
        if (named) throw usageError(`${file}: ${known.reason}`);
        say(`skipped ${file}: ${known.reason}`);
      }
    files = files.filter((f) => f.known.experiment !== null);
    if (values.newest)
      files = files.sort((a, b) => statSync(b.file).mtimeMs - statSync(a.file).mtimeMs).slice(0, 1);
    if (files.length === 0) say(`no experiment result in ${target}`);
    for (const { file, known } of files) {
      if (known.experiment === null) continue;
      const outcome = writeResultReport(file, known);
      pages.push(outcome.html);
      say(`${file}: ${known.experiment} result`);
      for (const w of outcome.written) say(`  wrote ${w}`);
      for (const n of outcome.notes) say(`  note: ${n}`);
    }
  }
  if (values.screenshot) {
    const pngs = await screenshotPages(pages.map((p) => resolve(p)));
    for (const png of pngs) say(`wrote ${relative(process.cwd(), png)}`);
  }
  return 0;
}
