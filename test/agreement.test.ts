import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  AgreementTally,
  identityWeights,
  kappa,
  linearWeights,
  wilson,
} from '../src/evaluators/agreement.ts';
import { parseConfig } from '../src/config/load.ts';
import { builtinEvaluators } from '../src/evaluators/registry.ts';
import type { EvaluationResult } from '../src/types/index.ts';

function assertClose(actual: number | null | undefined, expected: number, tolerance = 1e-9): void {
  assert.ok(
    actual !== null && actual !== undefined && Math.abs(actual - expected) <= tolerance,
    `expected ${expected} ± ${tolerance}, got ${actual}`,
  );
}

function verdict(passed: boolean | null, extra: Partial<EvaluationResult> = {}): EvaluationResult {
  return {
    evaluator: 'friendly',
    score: passed === null ? null : passed ? 1 : 0,
    threshold: { gte: 0.5 },
    passed,
    metadata: null,
    error: null,
    durationMs: 1,
    ...extra,
  };
}

function choice(name: string, score: number): EvaluationResult {
  return { ...verdict(null), score, threshold: null, metadata: { choice: name, reason: 'r' } };
}

/** Fills a pass/fail tally from a 2×2 table of counts (rows: human fail/pass, columns: judge). */
function tallyOf(table: number[][]): AgreementTally {
  const tally = new AgreementTally({ column: 'human', choices: null });
  for (const [h, row] of table.entries()) {
    for (const [j, count] of row.entries()) {
      for (let k = 0; k < count; k++) tally.add(h === 1 ? 'pass' : 'fail', verdict(j === 1));
    }
  }
  return tally;
}

describe('kappa: hand-computed fixtures', () => {
  it('is 1 for perfect agreement', () => {
    const summary = tallyOf([
      [12, 0],
      [0, 18],
    ]).summary();
    assert.equal(summary.kappa, 1);
    assert.equal(summary.accuracy, 1);
    assert.equal(summary.compared, 30);
  });

  it('is 0 for agreement no better than chance (margins 10/15 and 15/10)', () => {
    // p_o = (6 + 6) / 25 = 0.48; p_e = 0.4 · 0.6 + 0.6 · 0.4 = 0.48.
    const summary = tallyOf([
      [6, 4],
      [9, 6],
    ]).summary();
    assertClose(summary.kappa, 0, 1e-12);
    assertClose(summary.accuracy ?? NaN, 0.48);
  });

  it('matches a known 2×2 table: κ = 0.4 and its standard error 0.1270', () => {
    // p_o = 35/50 = 0.7; margins human 25/25, judge 30/20: p_e = 0.5·0.6 + 0.5·0.4 = 0.5;
    // κ = 0.2 / 0.5 = 0.4. Fleiss–Cohen–Everitt variance: (0.2116 − 0.01) / (50 · 0.25).
    const summary = tallyOf([
      [20, 5],
      [10, 15],
    ]).summary();
    assertClose(summary.kappa, 0.4);
    assertClose(summary.kappaSe, Math.sqrt(0.2016 / 12.5), 1e-12);
    assertClose(summary.kappaCi?.low, 0.4 - 1.959963984540054 * 0.12699606293110036, 1e-9);
    assert.deepEqual(summary.table, [
      [20, 5],
      [10, 15],
    ]);
    assert.equal(summary.weighted, false);
    assert.deepEqual(summary.categories, ['fail', 'pass']);
  });

  it('weights ordinal choices linearly by score', () => {
    // Scores 0, 0.5, 1 → weights 1, 0.5, 0. Table [[10,2,0],[3,8,2],[1,2,12]], n = 40:
    // p_o = (30 + 0.5 · 9) / 40 = 0.8625; p_e = 0.54875; κ_w = 0.3137 / 0.45125 = 0.69529.
    const result = kappa(
      [
        [10, 2, 0],
        [3, 8, 2],
        [1, 2, 12],
      ],
      linearWeights([0, 0.5, 1]),
    );
    assertClose(result.kappa, 0.6952908587257619, 1e-12);
    assertClose(result.se, 0.08966443845829136, 1e-12);
    const unweighted = kappa(
      [
        [10, 2, 0],
        [3, 8, 2],
        [1, 2, 12],
      ],
      identityWeights(3),
    );
    assertClose(unweighted.kappa, 0.624765478424015, 1e-12);
  });

  it('is undefined with no rows or when every verdict is the same on both sides', () => {
    assert.deepEqual(kappa([], []), { n: 0, kappa: null, se: null });
    const same = tallyOf([
      [0, 0],
      [0, 9],
    ]).summary();
    assert.equal(same.kappa, null);
    assert.equal(same.accuracy, 1);
  });
});

describe('AgreementTally: reading labels and verdicts', () => {
  it('orders choices by score, reads names, scores and the verdict chosen, and weights 3+ choices', () => {
    const tally = new AgreementTally({
      column: 'human',
      choices: { yes: 1, partly: 0.5, no: 0 },
    });
    tally.add('Yes ', choice('yes', 1));
    tally.add(0.5, choice('partly', 0.5));
    tally.add('no', choice('partly', 0.5));
    // With trials a case's score is its trials' mean: the nearest choice is its verdict.
    tally.add('yes', { ...verdict(null), score: 0.8, threshold: null });
    tally.add('', choice('yes', 1)); // unlabelled: left out
    tally.add('maybe', choice('yes', 1)); // not a verdict name
    tally.add('no', { ...verdict(null), error: 'timeout' }); // the judge gave none
    tally.add('no', undefined);
    const summary = tally.summary();
    assert.deepEqual(summary.categories, ['no', 'partly', 'yes']);
    assert.equal(summary.weighted, true);
    assert.equal(summary.compared, 4);
    assert.equal(summary.unrecognized, 1);
    assert.equal(summary.unjudged, 2);
    assert.deepEqual(summary.table, [
      [0, 1, 0],
      [0, 1, 0],
      [0, 0, 2],
    ]);
    assertClose(summary.accuracy ?? NaN, 0.75);
  });

  it('reads pass/fail labels as names, 1/0, booleans and yes/no', () => {
    const tally = new AgreementTally({ column: 'ok', choices: null });
    for (const label of ['pass', 1, '1', true, 'yes']) tally.add(label, verdict(true));
    for (const label of ['FAIL', 0, 'false', false, 'no']) tally.add(label, verdict(false));
    tally.add(0.7, verdict(true));
    const summary = tally.summary();
    assert.equal(summary.compared, 10);
    assert.equal(summary.unrecognized, 1);
    assert.equal(summary.kappa, 1);
  });

  it('gives accuracy a Wilson interval', () => {
    // 9 of 10: Wilson 95% is 0.5958…0.9821.
    const interval = wilson(0.9, 10);
    assertClose(interval.low, 0.5958499732, 1e-8);
    assertClose(interval.high, 0.9821237869, 1e-8);
  });
});

describe('agreement: in the config', () => {
  const yaml = (agreement: string, gate = '{ kappa: { gte: 0.6 } }'): string => `version: 1
suites:
  - id: s
    testset:
      cases:
        - { q: a, human: pass }
    function: ./f.js#f
    evaluators:
      - id: friendly
        use: contains
        with: { values: [a] }
${agreement}
    gate:
      evaluators:
        friendly: { agreement: ${gate} }
      minDetectableEffect: 0.05
`;
  const parse = (text: string) =>
    parseConfig(text, {
      file: 'evals.yaml',
      absPath: '/project/evals.yaml',
      env: {},
      builtins: builtinEvaluators,
    });

  it('accepts agreement: { column } and a gate on κ and accuracy', () => {
    const parsed = parse(
      yaml(
        '        agreement: { column: human }',
        '{ kappa: { gte: 0.6 }, accuracy: { gte: 0.8 } }',
      ),
    );
    assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.issues));
    const suite = parsed.config.suites[0];
    assert.deepEqual(suite?.evaluators[0]?.agreement, { column: 'human' });
    assert.equal(suite?.gate.minDetectableEffect, 0.05);
  });

  it('refuses a gate on agreement when the evaluator has no labels column, at its line', () => {
    const parsed = parse(yaml(''));
    assert.equal(parsed.ok, false);
    const issue = !parsed.ok ? parsed.issues[0] : undefined;
    assert.equal(issue?.code, 'gate.agreement-without-labels');
    assert.equal(issue?.path, 'suites[0].gate.evaluators.friendly.agreement');
    // Line 15 (the evaluator's line 12 is blank here): `friendly: { agreement: … }`.
    assert.equal(issue?.line, 15);
    assert.ok((issue?.col ?? 0) > 0);
    assert.match(issue?.message ?? '', /has no agreement: \{ column: \.\.\. \}/);
  });

  it('refuses an agreement without a column', () => {
    const parsed = parse(yaml('        agreement: {}'));
    assert.equal(parsed.ok, false);
    assert.ok(!parsed.ok && parsed.issues.some((i) => i.path.endsWith('evaluators[0].agreement')));
  });
});
