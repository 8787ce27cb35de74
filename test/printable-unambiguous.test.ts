/**
 * Printed user text reads one way only: a tab is written out like the other controls (not a
 * space, which `a b` already is), and a backslash that would read as the start of an escape is
 * doubled, so the text `x\u000ay` and `x` + a line break + `y` never look alike. Checked where
 * values are printed: the dry-run plan, the run summary, `evals show` and `evals compare`.
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

  it('a backslash that would read as an escape is doubled; others are kept', () => {
    assert.equal(printable('x\\u000ay'), 'x\\\\u000ay');
    assert.equal(printable('x\ny'), 'x\\u000ay');
    assert.equal(printable('a\\\nb'), 'a\\\\\\u000ab');
    assert.equal(printable('a\\\\ub'), 'a\\\\\\\\ub');
    assert.equal(printable('C:\\Temp\\r.json'), 'C:\\Temp\\r.json');
    const values = ['x\\u000ay', 'x\ny', 'x\\\ny', 'x\\\\u000ay', 'a\tb', 'a b', 'a\\u0009b'];
    assert.equal(new Set(values.map(printable)).size, values.length);
  });
});

describe('grid values that differ read differently in every command', () => {
  const dir = jsonlProject(
    [{ n: 1, output: 'x' }],
    [
      'hash: [n]',
      'grid:',
      '  style: ["a\\tb", "a b", "x\\\\u000ay", "x\\ny"]',
      'evaluators:',
      '  - { id: ok, use: is-equals, with: { expected: "x" } }',
    ],
  );
  const shown = ['a\\u0009b', 'a b', 'x\\\\u000ay', 'x\\u000ay'];

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
