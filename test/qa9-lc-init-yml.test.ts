/**
 * QA #5: `evals init` in a folder whose config is an `evals.yml`. `evals run` reads an
 * `evals.yaml` before an `evals.yml`, so the starter's `evals.yaml` would silently take the
 * user's config's place. Refused as for an existing `evals.yaml`: exit 2, nothing written.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

describe('evals init beside an evals.yml', () => {
  it('refuses, naming evals.yml and why, and writes nothing', async () => {
    const dir = scratch();
    const config = 'version: 1\nsuites: []\n';
    writeFiles(dir, { 'evals.yml': config });
    const r = await runInProcess(['init', '.'], dir);
    assert.equal(r.code, 2, r.stdout);
    assert.equal(
      r.stderr,
      `error: evals init writes into a folder without these files, but ${dir} already has: evals.yml (evals run would read the evals.yaml written beside it instead)\n`,
    );
    assert.deepEqual(readdirSync(dir), ['evals.yml']);
    assert.equal(readFileSync(join(dir, 'evals.yml'), 'utf8'), config);
  });

  it('lists evals.yml with the other files already there', async () => {
    const dir = scratch();
    writeFiles(dir, { 'evals.yml': 'version: 1\nsuites: []\n', 'testsets/questions.csv': 'q\n' });
    const r = await runInProcess(['init', '.'], dir);
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /already has: testsets\/questions\.csv, evals\.yml \(evals run would/);
    assert.deepEqual(readdirSync(dir).sort(), ['evals.yml', 'testsets']);
  });
});
