/**
 * `evals report RESULTS.json` without `-o` writes the HTML report where the GitHub Action does
 * and where `evals init`'s `.gitignore` expects it: beside the results, named after them
 * (`evals-results.json` → `evals-report.html`, `out/small.json` → `out/small-report.html`). It
 * wrote `report.html` in the working folder, which the `.gitignore` did not list.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { GITIGNORED } from '../src/cli/init.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

describe('evals report names its HTML report as the Action does', () => {
  const dir = jsonlProject(
    [{ n: 1, output: 'x' }],
    ['hash: [n]', 'evaluators:', '  - { id: ok, use: is-equals, with: { expected: "x" } }'],
  );
  mkdirSync(join(dir, 'out'));

  it('evals-results.json → evals-report.html, which init gitignores', async () => {
    const run = await runInProcess(['run', '-o', 'evals-results.json'], dir);
    assert.equal(run.code, 0, run.stderr);
    const report = await runInProcess(['report', 'evals-results.json'], dir);
    assert.equal(report.code, 0, report.stderr);
    assert.match(report.stderr, /HTML report written to evals-report\.html\n/);
    assert.match(readFileSync(join(dir, 'evals-report.html'), 'utf8'), /<html/i);
    assert.equal(existsSync(join(dir, 'report.html')), false);
    assert.ok(GITIGNORED.includes('evals-report.html'));
  });

  it('out/small.json → out/small-report.html', async () => {
    const run = await runInProcess(['run', '-o', 'out/small.json'], dir);
    assert.equal(run.code, 0, run.stderr);
    const report = await runInProcess(['report', 'out/small.json'], dir);
    assert.equal(report.code, 0, report.stderr);
    assert.match(readFileSync(join(dir, 'out', 'small-report.html'), 'utf8'), /<html/i);
  });
});
