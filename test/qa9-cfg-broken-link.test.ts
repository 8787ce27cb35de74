/**
 * Config discovery (`evals run` without a config argument, or a folder named) tells a broken
 * `evals.yaml` symbolic link from a missing config: it says the file is a link whose target
 * does not exist, naming the target, and exits 2 (a loop of links is read, and named a loop).
 */
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

/** A folder whose evals.yaml links to `target`, which does not exist. */
function brokenLinkProject(target: string): string {
  const dir = scratch();
  writeFiles(dir, { 'rows.jsonl': '{"q":"a"}\n' });
  symlinkSync(target, join(dir, 'evals.yaml'));
  return dir;
}

describe('a broken evals.yaml symbolic link', () => {
  it('evals run with no config argument names the missing target, exit 2', async () => {
    const dir = brokenLinkProject('../shared-qa9/evals.yaml');
    const result = await runInProcess(['run'], dir);
    assert.equal(result.code, 2, result.stdout);
    assert.equal(
      result.stderr,
      `error: evals.yaml is a symbolic link to ../shared-qa9/evals.yaml (${join(dir, '..', 'shared-qa9', 'evals.yaml')}), which does not exist: point the link at the config file, or replace it with one\n`,
    );
    assert.doesNotMatch(result.stderr, /no config given/);
  });

  it('a folder named as the config, and the link named itself, say the same', async () => {
    const dir = brokenLinkProject('gone.yaml');
    const named = await runInProcess(['validate', dir], scratch());
    assert.equal(named.code, 2);
    assert.match(
      named.stderr,
      new RegExp(`is a symbolic link to gone\\.yaml \\(.*gone\\.yaml\\), which does not exist`),
    );
    assert.doesNotMatch(named.stderr, /is a folder with no/);
    const file = await runInProcess(['run', '--dry-run', 'evals.yaml'], dir);
    assert.equal(file.code, 2);
    assert.match(file.stderr, /^error: evals\.yaml is a symbolic link to gone\.yaml /);
  });

  it('a loop of links found with no config argument is named as a loop, not as missing', async () => {
    const dir = brokenLinkProject('evals.yaml');
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /cannot read the config: a loop of symbolic links; point it at a file$/m,
    );
    assert.doesNotMatch(result.stderr, /no config given|ELOOP/);
  });
});
