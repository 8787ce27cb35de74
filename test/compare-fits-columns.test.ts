/**
 * `evals compare` fits its statistics rows and its fixed text to the terminal's width
 * (`COLUMNS` through a pipe), as it fits its run headings: a row too wide gives up the end of its
 * note and of its change (the CI, the case counts), never `a → b`, the test's p or the label;
 * the footnote and warnings are broken between words, nothing of them lost. With no width known,
 * nothing is cut or broken.
 */
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { textWidth } from '../src/shared/text-table.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

let dir = '';

before(async () => {
  dir = jsonlProject(
    Array.from({ length: 12 }, (_, n) => ({ n, output: n < 8 ? 'x' : 'y' })),
    [
      'hash: [n]',
      'evaluators:',
      '  - { id: exact-answer, use: is-equals, with: { expected: "x" } }',
    ],
  );
  const run = await runInProcess(['run', '-o', 'base.json'], dir);
  assert.equal(run.code, 1, run.stderr);
  copyFileSync(join(dir, 'base.json'), join(dir, 'head.json'));
});

describe('evals compare fits the terminal width', () => {
  it('every line fits COLUMNS=72; the rows keep a → b, p and the label', async () => {
    const result = await runInProcess(['compare', 'base.json', 'head.json'], dir, {
      COLUMNS: '72',
    });
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.split('\n');
    for (const line of lines) assert.ok(textWidth(line) <= 72, `${textWidth(line)}: ${line}`);
    assert.match(result.stdout, /\n {2}pass rate +66\.7% → 66\.7% .*McNemar p = 1 +unchanged/);
    assert.match(result.stdout, /\n {2}exact-answer +0\.667 → 0\.667 .*p = 1 +unchanged/);
  });

  it('the footnote is broken between words and loses none of them', async () => {
    const whole = await runInProcess(['compare', 'base.json', 'head.json'], dir, { COLUMNS: '' });
    const fitted = await runInProcess(['compare', 'base.json', 'head.json'], dir, {
      COLUMNS: '72',
    });
    const footnote = (text: string): string =>
      text.slice(text.indexOf('Scores and pass rates:')).trim();
    assert.ok(!footnote(whole.stdout).includes('\n'), whole.stdout);
    assert.ok(footnote(fitted.stdout).includes('\n'), fitted.stdout);
    assert.equal(footnote(fitted.stdout).replace(/\n/g, ' '), footnote(whole.stdout));
  });

  it('with no width known, the rows are whole', async () => {
    const result = await runInProcess(['compare', 'base.json', 'head.json'], dir, { COLUMNS: '' });
    assert.match(result.stdout, /0 pass→fail, 0 fail→pass\)/);
  });
});
