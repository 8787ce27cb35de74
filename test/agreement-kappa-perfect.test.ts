/**
 * A κ rule over a judge that agreed with people on every labelled row, all of one verdict: κ is
 * 0 / 0 there (chance agreement is 1), and the gate failed the judge for agreeing. It reads it
 * as κ 1 now and says why; an upper bound below 1 still fails, as does a truly undefined κ (no
 * labelled row judged). The real CLI, `evals run`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

/** Ten rows answered `ok`, judged by `is-equals ok` against the `human` labels `labels(i)`. */
function project(label: (i: number) => string, kappa: string): string {
  const dir = scratch();
  const rows = Array.from({ length: 10 }, (_, i) =>
    JSON.stringify({ id: `a${i}`, output: 'ok', human: label(i) }),
  );
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.jsonl }',
      '    hash: [id]',
      '    evaluators: [ { id: eq, use: is-equals, with: { expected: ok }, agreement: { column: human } } ]',
      `    gate: { evaluators: { eq: { agreement: { kappa: ${kappa} } } } }`,
      '',
    ].join('\n'),
    'rows.jsonl': `${rows.join('\n')}\n`,
  });
  return dir;
}

async function kappaCondition(dir: string) {
  const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
  const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as ResultsArtifact;
  const condition = out.runs[0]?.gate.conditions.find(
    (c) => c.name === 'evaluators.eq.agreement.kappa',
  );
  assert.ok(condition !== undefined, r.stdout + r.stderr);
  return { r, condition };
}

const PERFECT =
  '1 (perfect agreement: every label and every verdict "pass" on 10 labelled rows; κ, 0 / 0 there, is read as 1)';

describe('a κ rule over perfect agreement of one verdict', () => {
  it('passes a lower bound, saying κ is read as 1 and why', async () => {
    const { r, condition } = await kappaCondition(project(() => 'pass', '{ gte: 0.6 }'));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(condition, {
      name: 'evaluators.eq.agreement.kappa',
      expected: '≥ 0.6',
      actual: PERFECT,
      passed: true,
    });
  });

  it('fails an upper bound below 1, as κ 1 would', async () => {
    const { r, condition } = await kappaCondition(project(() => 'pass', '{ lte: 0.5 }'));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(condition.actual, PERFECT);
    assert.equal(condition.passed, false);
    assert.ok(r.stdout.includes(`got ${PERFECT}`), r.stdout);
  });

  it('a truly undefined κ (no labelled row judged) still fails, saying so', async () => {
    const { r, condition } = await kappaCondition(project(() => '', '{ gte: 0.6 }'));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(condition.actual, 'no labelled row judged');
    assert.equal(condition.passed, false);
  });

  it('disagreement on rows of one label is no perfect agreement: κ 0, failing', async () => {
    // Every label "fail", every verdict "pass": κ is defined (0) and fails the rule.
    const { r, condition } = await kappaCondition(project(() => 'fail', '{ gte: 0.6 }'));
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(condition.passed, false);
    assert.match(condition.actual, /^0\b/);
  });
});
