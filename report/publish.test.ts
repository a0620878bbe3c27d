import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newestRun, PublishRefused, publishRun } from './publish';

describe('make publish', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-publish-'));
  const runs = join(dir, 'runs');
  const results = join(dir, 'results');
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (name: string, result: object, ageS = 0) => {
    mkdirSync(runs, { recursive: true });
    writeFileSync(join(runs, `${name}.md`), `# ${name}\n`);
    writeFileSync(join(runs, `${name}.json`), JSON.stringify(result));
    const at = Date.now() / 1000 - ageS;
    utimesSync(join(runs, `${name}.json`), at, at);
    return join(runs, `${name}.json`);
  };

  it('copies the newest complete run pair into results/', () => {
    run('old', { status: 'complete' }, 60);
    run('new', { status: 'complete', versions: { dirty: false } });
    const newest = newestRun(runs);
    expect(newest).toBe(join(runs, 'new.json'));
    expect(publishRun(newest as string, results)).toEqual([
      join(results, 'new.md'),
      join(results, 'new.json'),
    ]);
    expect(readdirSync(results).sort()).toEqual(['new.json', 'new.md']);
    expect(() => publishRun(join(runs, 'new.md'), results)).toThrow('exists already');
  });

  it('refuses an aborted run and one built from a dirty tree, copying nothing', () => {
    const aborted = run('aborted', { status: 'aborted', status_reason: 'interrupted by a signal' });
    expect(() => publishRun(aborted, results)).toThrow(PublishRefused);
    expect(() => publishRun(aborted, results)).toThrow('aborted run (interrupted by a signal)');
    const dirty = run('dirty', { status: 'complete', versions: { dirty: true, commit: 'abc' } });
    expect(() => publishRun(dirty, results)).toThrow('built from a dirty tree');
    expect(() => publishRun(join(runs, 'missing.json'), results)).toThrow('does not exist');
    expect(readdirSync(dir)).toEqual(['runs']);
  });
});
