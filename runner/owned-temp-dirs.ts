// The runner's directories in the OS temp dir (a run's bundled script, `bench run --instances`' streams), and the
// clean-up of the ones a killed run left behind: a SIGKILL skips every exit handler, and one 1M-row run's instance
// streams held 4.6 GB. Each directory names its owner's pid in OWNER_FILE; a later run removes those of its kind whose
// owner is gone. Directories without the file (written before it existed, or by a process killed between mkdtemp and
// the write) are left alone: nothing says whose they are.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `bench run --instances`: the coordinator's instance streams. */
export const INSTANCES_DIR_PREFIX = 'bench-instances-';
/** Every `bench run`: the bundled script (and its hosted form). */
export const BUNDLE_DIR_PREFIX = 'bench-run-';
export const OWNER_FILE = 'owner.pid';

/** True while a process with this pid exists (signal 0 only checks). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates a directory `<parent>/<prefix>XXXXXX` owned by this process, first removing the `<prefix>*` ones whose
 * owner is gone (returned in `removed`), so every kind of directory is cleaned up where it is made.
 */
export function createOwnedDir(parent: string, prefix: string): { dir: string; removed: string[] } {
  const removed = removeAbandonedDirs(parent, prefix);
  const dir = mkdtempSync(join(parent, prefix));
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
  return { dir, removed };
}

/** Removes the `<prefix>*` directories under `parent` whose owner is gone; returns their paths. */
export function removeAbandonedDirs(
  parent: string,
  prefix: string,
  alive: (pid: number) => boolean = processAlive,
): string[] {
  let names: string[];
  try {
    names = readdirSync(parent).filter((n) => n.startsWith(prefix));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const dir = join(parent, name);
    let pid: number;
    try {
      pid = Number(readFileSync(join(dir, OWNER_FILE), 'utf8').trim());
    } catch {
      continue;
    }
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || alive(pid)) continue;
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}
