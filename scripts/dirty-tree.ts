// Whether a build's tree was dirty, from `git status --porcelain -z --untracked-files=all` and the files the bundles
// were built from (esbuild's metafile inputs). Pure: scripts/build.ts runs git and esbuild.

/**
 * Dirty when a tracked file differs from HEAD (modified, staged, deleted or renamed, anywhere in the tree), or when an
 * untracked file is one of the inputs: a new source a bundle imports before it is committed. Other untracked files
 * (results, scratch files) leave the build clean, since no bundle contains them. Inputs are paths relative to the
 * repository's top level, as git prints them; ignored files are not in the status and never count.
 */
export function isDirty(porcelainZ: string, inputs: readonly string[]): boolean {
  const wanted = new Set(inputs);
  // Entries are `XY path`, NUL-terminated; a rename or copy has its source path as one more field, but the first
  // tracked entry already decides, so no field after it is read.
  for (const entry of porcelainZ.split('\0')) {
    if (entry === '') continue;
    const status = entry.slice(0, 2);
    if (status === '!!') continue;
    if (status !== '??') return true;
    if (wanted.has(entry.slice(3))) return true;
  }
  return false;
}
