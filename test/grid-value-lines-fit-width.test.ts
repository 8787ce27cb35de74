/**
 * A line that names a run (its suite and grid values) fits the terminal's width when it is known
 * (a terminal, or `COLUMNS` through a pipe): the grid values are cut in their middle, by display
 * columns (a CJK character takes two), and the cut is marked with `…`, while what follows them
 * (the verdict, `N cases compared`) stays whole. `evals run`, `merge`, `compare`, `show` and the
 * dry run's plan printed such lines whole, as wide as the values, however narrow the terminal.
 */
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { textWidth } from '../src/shared/text-table.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const WIDTH = 60;
const COLUMNS = { COLUMNS: String(WIDTH) };
const LONG = `start ${'long value '.repeat(20)}end`;
const CJK = `開始${'長い値'.repeat(30)}終了`;

let dir = '';

before(async () => {
  dir = jsonlProject(
    [
      { n: 1, output: 'x' },
      { n: 2, output: 'y' },
    ],
    [
      'hash: [n]',
      `grid: { style: [${JSON.stringify(LONG)}, ${JSON.stringify(CJK)}] }`,
      'evaluators:',
      '  - { id: exact, use: is-equals, with: { expected: x } }',
    ],
  );
  for (const shard of ['1/2', '2/2']) {
    const run = await runInProcess(['run', '--shard', shard, '-o', `s${shard[0]}.json`], dir);
    assert.ok(run.code === 0 || run.code === 1, run.stderr);
  }
  assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 1);
  copyFileSync(join(dir, 'base.json'), join(dir, 'head.json'));
});

/** The lines of `text` that name a grid point, each checked to fit and to be marked as cut. */
function gridLines(text: string, least = 2): string[] {
  const lines = text.split('\n').filter((line) => line.includes('style='));
  assert.ok(lines.length >= least, text);
  for (const line of lines) {
    assert.ok(textWidth(line) <= WIDTH, `wider than ${WIDTH}: [${textWidth(line)}] ${line}`);
    assert.match(line, /…/, line);
  }
  return lines;
}

describe(`lines naming a grid point fit COLUMNS=${WIDTH}`, () => {
  it('evals run: each run heading keeps its suite and verdict, and its values cut', async () => {
    const run = await runInProcess(['run', '-o', 'again.json'], dir, COLUMNS);
    assert.equal(run.code, 1, run.stderr);
    const headings = gridLines(run.stdout);
    assert.ok(headings.some((line) => /^s {2}style=start long.*….*end {2}FAIL$/.test(line)));
    assert.ok(headings.some((line) => /^s {2}style=開始.*….*終了 {2}FAIL$/.test(line)));
  });

  it('evals merge reads COLUMNS too, as run does', async () => {
    const merge = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'm.json'], dir, COLUMNS);
    assert.equal(merge.code, 1, merge.stderr);
    gridLines(merge.stdout);
  });

  it('evals compare: the run headings keep "N cases compared"', async () => {
    const compare = await runInProcess(['compare', 'base.json', 'head.json'], dir, COLUMNS);
    assert.equal(compare.code, 0, compare.stderr);
    for (const line of gridLines(compare.stdout)) assert.match(line, /end|終了/);
    assert.match(compare.stdout, /^s · style=st.*….*end {2}2 cases compared$/m);
  });

  it('evals show: the heading and each case', async () => {
    const show = await runInProcess(['show', 'base.json', '--grid', `style=${CJK}`], dir, COLUMNS);
    assert.equal(show.code, 0, show.stderr);
    gridLines(show.stdout);
  });

  it('evals run --dry-run: the grid points line', async () => {
    const plan = await runInProcess(['run', '--dry-run'], dir, COLUMNS);
    assert.equal(plan.code, 0, plan.stderr);
    // Both grid points on one line.
    gridLines(plan.stdout, 1);
  });

  it('with no width known (a pipe, no COLUMNS), show and compare cut nothing', async () => {
    const none = { COLUMNS: undefined };
    const show = await runInProcess(['show', 'base.json', '--grid', `style=${LONG}`], dir, none);
    assert.ok(show.stdout.includes(`run       s · style=${LONG}\n`), show.stdout);
    const compare = await runInProcess(['compare', 'base.json', 'head.json'], dir, none);
    assert.ok(compare.stdout.includes(`s · style=${LONG}  2 cases compared`), compare.stdout);
  });
});
