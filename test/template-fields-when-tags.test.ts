/**
 * The `{{ case.x }}` check before a run (validate, run, run --dry-run) reads, for an evaluator
 * with `when: { tags }`, the rows it applies to, not every selected row: such an evaluator is
 * never resolved on the others. `run --tag b` no longer refuses a template of an evaluator that
 * only applies to rows tagged `a` (it evaluates none of the selected rows), and a template whose
 * field none of the evaluator's own rows has is refused although other rows have it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runInProcess } from './helpers/in-process.ts';
import { scratch, writeFiles } from './helpers/cli.ts';

function project(when: string): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: v',
      '    testset:',
      '      cases:',
      '        - { q: "a", x: "a", __tags__: [a] }',
      '        - { q: "b", __tags__: [b] }',
      '    target: { type: command, run: [echo, "{{case.q}}"] }',
      '    evaluators:',
      `      - { use: is-equals, with: { expected: "{{case.x}}" }, when: { tags: [${when}] } }`,
      '',
    ].join('\n'),
  });
  return dir;
}

describe('{{ case.x }} of an evaluator with when: tags', () => {
  it('is not refused when --tag selects none of the rows the evaluator applies to', async () => {
    const dir = project('a');
    const dry = await runInProcess(['run', '--dry-run', '--tag', 'b'], dir);
    assert.equal(dry.code, 0, dry.stderr);
    const run = await runInProcess(['run', '--tag', 'b', '-o', 'r.json'], dir);
    // It runs (no usage error); with its only evaluator judging none of the rows, the run fails
    // the gate's `judged` condition (docs/config.md#evaluators).
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /✗ judged: /);
  });

  it('is refused when none of the rows the evaluator applies to has the field', async () => {
    const validate = await runInProcess(['validate'], project('b'));
    assert.equal(validate.code, 2);
    assert.match(
      validate.stderr,
      /evals\.yaml:10:\d+ {2}suites\[0\]\.evaluators\[0\]\.with\.expected: template \{\{ case\.x \}\}: no row of the testset has the field "x"/,
    );
  });

  it('is checked against every row the when: tags cover', async () => {
    const validate = await runInProcess(['validate'], project('a, b'));
    assert.equal(validate.code, 0, validate.stderr);
  });
});
