/**
 * A grid value holding a line break (`"a\nb"`) is shown as `a\u000ab`, as the terminal summary
 * and `evals show` show it, wherever a run is named: `evals compare` (text and markdown), the
 * dry run's plan. `evals compare` showed it as a space, so runs `a\nb` and `a b` read alike, and
 * the plan printed the line break itself, breaking its grid points line in two.
 */
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

let dir = '';

before(async () => {
  dir = jsonlProject(
    [{ n: 1, output: 'x' }],
    [
      'hash: [n]',
      'grid: { style: ["a\\nb", "a b", "tab\\there"] }',
      'evaluators:',
      '  - { id: exact, use: is-equals, with: { expected: x } }',
    ],
  );
  const run = await runInProcess(['run', '-o', 'base.json'], dir);
  assert.equal(run.code, 0, run.stderr);
  copyFileSync(join(dir, 'base.json'), join(dir, 'head.json'));
});

describe('a grid value with a line break is shown escaped, never as a space', () => {
  it('evals compare (text) names the runs a\\u000ab and a b apart', async () => {
    const result = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^s · style=a\\u000ab {2}/m);
    assert.match(result.stdout, /^s · style=a b {2}/m);
  });

  it('evals compare --format md names them apart too', async () => {
    const result = await runInProcess(['compare', 'base.json', 'head.json', '--format', 'md'], dir);
    assert.equal(result.code, 0, result.stderr);
    // Markdown escapes the backslash, which then reads as one.
    assert.match(result.stdout, /^#### s · style=a\\\\u000ab · /m);
    assert.match(result.stdout, /^#### s · style=a b · /m);
  });

  it('evals run --dry-run lists the grid points on one line, the line break escaped', async () => {
    const result = await runInProcess(['run', '--dry-run'], dir);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /style=a\\u000ab · style=a b · style=tab\\u0009here\n/);
  });
});
