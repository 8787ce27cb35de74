/**
 * A tag of an evaluator's `when: { tags }` that no row of the testset has was taken without a
 * word: with another tag of the list matching (`[smok, slow]`), the rows tagged `smoke` were
 * never evaluated and the run passed. Like a testset's `tags:` and a `--tag` no row has, it is
 * refused before anything runs, at the tag, with the nearest tag the rows have (exit 2). A tag
 * that `--tag` leaves out of this run, but some row of the testset has, is no mistake.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const ROWS = [
  { id: 'a', output: 'x', __tags__: ['smoke'] },
  { id: 'b', output: 'y', __tags__: ['slow'] },
];

function project(tags: string): string {
  return jsonlProject(ROWS, [
    'hash: [id]',
    'evaluators:',
    `  - { id: says-x, use: is-equals, with: { expected: x }, when: { tags: [${tags}] } }`,
  ]);
}

describe('a when: tag no row of the testset has', () => {
  it('is refused by validate, run and run --dry-run at the tag, naming the nearest', async () => {
    const dir = project('slow, smok');
    for (const command of [['validate'], ['run', '-o', 'out.json'], ['run', '--dry-run']]) {
      const r = await runInProcess(command, dir);
      assert.equal(r.code, 2, `${command.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(
        r.stderr,
        /evals\.yaml:7:\d+ {2}suites\[0\]\.evaluators\[0\]\.when\.tags\[1\]: when: no row of the testset has the tag smok \(did you mean smoke\? their tags: slow, smoke\), so says-x would evaluate no row for it; tag the rows, or remove it/,
        command.join(' '),
      );
    }
  });

  it('says so when the rows have no tags at all', async () => {
    const dir = jsonlProject(
      [{ id: 'a', output: 'x' }],
      [
        'hash: [id]',
        'evaluators:',
        '  - { use: is-equals, with: { expected: x }, when: { tags: [smoke] } }',
      ],
    );
    const r = await runInProcess(['validate'], dir);
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /no row of the testset has the tag smoke \(they have no __tags__\)/);
  });

  it('is taken when a row has it, even one --tag leaves out of the run', async () => {
    const dir = project('smoke');
    const r = await runInProcess(['run', '-o', 'out.json', '--tag', 'slow'], dir);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, /says-x skipped every one/);
    const whole = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(whole.code, 0, whole.stdout + whole.stderr);
  });
});
