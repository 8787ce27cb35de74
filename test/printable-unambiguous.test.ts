/**
 * Printed user text: a tab is written out like the other controls (not a space, which `a b`
 * already is), so `a\tb` and `a b` never read alike. Checked where values are printed: the
 * dry-run plan, the run summary, `evals show` and `evals compare`. Backslashes are left alone:
 * printed lines hold JSON-quoted values, whose escapes must keep reading as JSON's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { printable } from '../src/shared/text-table.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

describe('printable is unambiguous', () => {
  it('a tab is written out, as a line break is', () => {
    assert.equal(printable('a\tb'), 'a\\u0009b');
    assert.notEqual(printable('a\tb'), printable('a b'));
  });

  it('leaves backslashes alone, so a JSON-quoted value keeps its escapes', () => {
    assert.equal(printable('got "a\\u001bb"'), 'got "a\\u001bb"');
    assert.equal(printable('C:\\Temp\\r.json'), 'C:\\Temp\\r.json');
  });
});

describe('grid values that differ by a tab read differently in every command', () => {
  const dir = jsonlProject(
    [{ n: 1, output: 'x' }],
    [
      'hash: [n]',
      'grid:',
      '  style: ["a\\tb", "a b", "x\\ny"]',
      'evaluators:',
      '  - { id: ok, use: is-equals, with: { expected: "x" } }',
    ],
  );
  const shown = ['a\\u0009b', 'a b', 'x\\u000ay'];

  it('the dry run, the summary, show and compare', async () => {
    const plan = await runInProcess(['run', '--dry-run'], dir);
    assert.equal(plan.code, 0, plan.stderr);
    const planText = plan.stdout + plan.stderr;
    assert.ok(planText.includes(shown.map((v) => `style=${v}`).join(' · ')), planText);

    const run = await runInProcess(['run', '-o', 'r.json'], dir);
    assert.equal(run.code, 0, run.stderr);
    const summary = run.stdout + run.stderr;
    for (const value of shown) assert.match(summary, new RegExp(`\\n +${escape(value)} +PASS`));

    const show = await runInProcess(['show', 'r.json', '--grid', 'style=a\tb'], dir);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /run +s · style=a\\u0009b\n/);

    const compare = await runInProcess(['compare', 'r.json', 'r.json'], dir);
    const compared = compare.stdout + compare.stderr;
    for (const value of shown) assert.ok(compared.includes(`style=${value}`), compared);
  });
});

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
