/**
 * Gate verdicts that floating point or an empty run used to get wrong (QA pass on false
 * verdicts): a mean, a κ or a `not: true` score exactly at its bound failed; `allowEmpty` and an
 * empty shard failed on an evaluator rule; failing gate lines and summary means printed numbers
 * that read as met; an undefined κ gave the wrong reason; an evaluator without a threshold got a
 * 0% pass rate.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** A module evaluator scoring each row its `s` column. */
const SCORE_MODULE = {
  'ev.mjs': 'export function sc({ testCase }) { return { score: Number(testCase.s) }; }\n',
};

interface Artifact {
  runs: {
    verdict: string;
    summary: {
      evaluators: Record<
        string,
        { mean: number | null; passRate: number | null; agreement?: { kappa: number | null } }
      >;
    };
    gate: { conditions: { name: string; actual: string; passed: boolean }[] };
    cases: { evaluations: { score: number | null; passed: boolean | null }[] }[];
  }[];
}

function readArtifact(dir: string, file = 'out.json'): Artifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as Artifact;
}

/** Rows `{ id, s, output: 'x' }`, one per score. */
function scoreRows(scores: readonly number[]): Record<string, unknown>[] {
  return scores.map((s, i) => ({ id: `c${i}`, s, output: 'x' }));
}

/** `scores` run through `sc` (with `threshold`, when given) under the gate `mean: gate`. */
async function runMeanGate(scores: readonly number[], gate: string, threshold?: string) {
  const dir = jsonlProject(
    scoreRows(scores),
    [
      'hash: [id]',
      `evaluators: [ { id: sc, use: ./ev.mjs#sc${threshold === undefined ? '' : `, threshold: ${threshold}`} } ]`,
      `gate: { evaluators: { sc: { mean: ${gate} } } }`,
    ],
    SCORE_MODULE,
  );
  return { dir, result: await runInProcess(['run', '-o', 'out.json'], dir) };
}

describe('a gate on a value evalgate derives, exactly at its bound', () => {
  it('passes a mean of three 0.7 scores against mean ≥ 0.7, and stores the mean as 0.7', async () => {
    const { dir, result } = await runMeanGate([0.7, 0.7, 0.7], '{ gte: 0.7 }', '{ gte: 0.7 }');
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(readArtifact(dir).runs[0]?.summary.evaluators.sc?.mean, 0.7);
  });

  it('passes a mean of three 0.1 scores against mean ≤ 0.1', async () => {
    const { result } = await runMeanGate([0.1, 0.1, 0.1], '{ lte: 0.1 }', '{ lte: 0.1 }');
    assert.equal(result.code, 0, result.stdout + result.stderr);
  });

  it('passes scores 0.1, 0.2, 0.3 against mean ≥ 0.2', async () => {
    const { dir, result } = await runMeanGate([0.1, 0.2, 0.3], '{ gte: 0.2 }');
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(readArtifact(dir).runs[0]?.summary.evaluators.sc?.mean, 0.2);
  });

  it('passes a κ of exactly 0.4 against kappa ≥ 0.4', async () => {
    // The judge passes rows 0-9; people say pass for rows 0-6 and 10-12: observed agreement
    // 0.7, chance agreement 0.5, κ = 0.2 / 0.5 = 0.4.
    const rows = Array.from({ length: 20 }, (_, i) => ({
      id: `r${i}`,
      output: i < 10 ? 'ok' : 'bad',
      human: i < 7 || (i >= 10 && i < 13) ? 'pass' : 'fail',
    }));
    const dir = jsonlProject(rows, [
      'hash: [id]',
      'evaluators: [ { id: eq, use: is-equals, with: { expected: ok }, agreement: { column: human } } ]',
      'gate: { minPassRate: 0, evaluators: { eq: { agreement: { kappa: { gte: 0.4 } } } } }',
    ]);
    const result = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(readArtifact(dir).runs[0]?.summary.evaluators.eq?.agreement?.kappa, 0.4);
    // The interval starts a hair below 0 (-0.0017): never printed as -0.000.
    assert.match(result.stdout, /κ 0\.400 \(95% CI -0\.002…0\.802\)/);
  });
});

describe('not: true inverts a score exactly', () => {
  it('inverts 0.9 to 0.1, meeting gte: 0.1, and 0.7 to 0.3, meeting lte: 0.3', async () => {
    const dir = jsonlProject(
      scoreRows([0.9]),
      [
        'hash: [id]',
        'evaluators: [ { id: inv, use: ./ev.mjs#sc, not: true, threshold: { gte: 0.1 } } ]',
      ],
      SCORE_MODULE,
    );
    const result = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(readArtifact(dir).runs[0]?.cases[0]?.evaluations[0]?.score, 0.1);

    const upper = jsonlProject(
      scoreRows([0.7]),
      [
        'hash: [id]',
        'evaluators: [ { id: inv, use: ./ev.mjs#sc, not: true, threshold: { lte: 0.3 } } ]',
      ],
      SCORE_MODULE,
    );
    const second = await runInProcess(['run', '-o', 'out.json'], upper);
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.equal(readArtifact(upper).runs[0]?.cases[0]?.evaluations[0]?.score, 0.3);
  });
});

describe('an evaluator rule of a run that planned no cases', () => {
  const suite = [
    'hash: [id]',
    'evaluators: [ { id: eq, use: is-equals, with: { expected: ok } } ]',
    'gate: { evaluators: { eq: { mean: { gte: 0.9 }, passRate: { gte: 0.9 } } } }',
  ];

  it('passes with allowEmpty: true when --tag matches no row, saying no cases ran', async () => {
    const dir = jsonlProject(
      [
        { id: 'x', output: 'ok', __tags__: ['t1'] },
        { id: 'y', output: 'ok', __tags__: ['t2'] },
      ],
      ['allowEmpty: true', ...suite],
    );
    // The testset keeps rows tagged t1, --tag those tagged t2: none is both. (A --tag no row has
    // at all is refused as a typo.)
    const config = join(dir, 'evals.yaml');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(
        '{ path: rows.jsonl }',
        '{ path: rows.jsonl, tags: [t1] }',
      ),
    );
    const result = await runInProcess(['run', '--tag', 't2', '-o', 'out.json'], dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const conditions = readArtifact(dir).runs[0]?.gate.conditions ?? [];
    const mean = conditions.find((condition) => condition.name === 'evaluators.eq.mean');
    assert.deepEqual(mean && { actual: mean.actual, passed: mean.passed }, {
      actual: 'no cases ran',
      passed: true,
    });
  });

  it('passes in a shard that gets none of the suite cases', async () => {
    const dir = jsonlProject([{ id: 'y', output: 'ok' }], suite);
    const first = await runInProcess(['run', '--shard', '1/2', '-o', 's1.json'], dir);
    const second = await runInProcess(['run', '--shard', '2/2', '-o', 's2.json'], dir);
    // One shard holds the case, the other none: both pass.
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.equal(second.code, 0, second.stdout + second.stderr);
    const verdicts = [readArtifact(dir, 's1.json'), readArtifact(dir, 's2.json')].map(
      (artifact) => artifact.runs[0]?.verdict,
    );
    assert.deepEqual(verdicts, ['pass', 'pass']);
  });

  it('still fails when cases ran but gave no scores', async () => {
    const dir = jsonlProject(
      [{ id: 'y', output: 'ok' }],
      [
        'allowEmpty: true',
        'hash: [id]',
        'evaluators: [ { id: bad, use: ./bad.mjs#bad } ]',
        'gate: { minPassRate: 0, evaluators: { bad: { mean: { gte: 0.9 } } } }',
      ],
      { 'bad.mjs': 'export function bad() { throw new Error("boom"); }\n' },
    );
    const result = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(result.stdout, /evaluators\.bad\.mean: expected ≥ 0\.9, got no scores/);
  });
});

describe('numbers a failing gate or the summary prints', () => {
  it('shows the digits that make a failing gate read as failing', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({
      id: `c${i}`,
      output: i === 0 ? 'bad' : 'ok',
    }));
    const dir = jsonlProject(rows, [
      'hash: [id]',
      'evaluators: [ { id: eq, use: is-equals, with: { expected: ok } } ]',
      'gate: { minPassRate: 0.96667, evaluators: { eq: { passRate: { gte: 0.96667 } } } }',
    ]);
    const result = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /minPassRate: expected ≥ 0\.96667, got 0\.966667 \(29 of 30 cases\)/,
    );
    assert.match(result.stdout, /evaluators\.eq\.passRate: expected ≥ 0\.96667, got 0\.966667/);
    assert.doesNotMatch(result.stdout, /got 0\.9667\b/);
  });

  it('never prints a mean below 1 as 1.000 in the summary table', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: `c${i}`,
      output: i === 0 ? 'bad' : 'ok',
    }));
    const dir = jsonlProject(rows, [
      'hash: [id]',
      'evaluators: [ { id: eq, use: is-equals, with: { expected: ok } } ]',
    ]);
    const result = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const row = result.stdout.split('\n').find((line) => /^\s*eq\s/.test(line));
    assert.ok(row !== undefined, result.stdout);
    assert.match(row, /\b0\.9997\b/);
    assert.doesNotMatch(row, /1\.000/);
  });
});

describe('an agreement gate whose κ is undefined', () => {
  // Every label and every verdict the same: κ is 0 / 0, not measurable, and the rule fails
  // saying why and what to add (agreement-kappa-perfect.test.ts has the other cases).
  it('says why: every label and every verdict the same, not "no labelled row judged"', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({
      id: `a${i}`,
      output: 'ok',
      human: 'pass',
    }));
    const dir = jsonlProject(rows, [
      'hash: [id]',
      'evaluators: [ { id: eq, use: is-equals, with: { expected: ok }, agreement: { column: human } } ]',
      'gate: { evaluators: { eq: { agreement: { kappa: { gte: 0.6 } } } } }',
    ]);
    const result = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as {
      runs: { gate: { conditions: { name: string; actual: string }[] } }[];
    };
    const kappa = out.runs[0]?.gate.conditions.find((c) => c.name.endsWith('.kappa'));
    assert.doesNotMatch(kappa?.actual ?? '', /no labelled row judged/);
    assert.match(kappa?.actual ?? '', /every label and every verdict "pass" on 10 labelled rows/);
  });
});

describe('an evaluator without a threshold whose calls errored', () => {
  it('has no pass rate (null, shown —), not 0%', async () => {
    const dir = jsonlProject(
      [
        { id: 'c0', output: 'x' },
        { id: 'c1', output: 'x' },
        { id: 'c2', output: 'x' },
      ],
      ['hash: [id]', 'evaluators: [ { id: j, use: ./j.mjs#sometimes } ]'],
      {
        'j.mjs': [
          'export function sometimes({ testCase }) {',
          '  if (testCase.id !== "c0") throw new Error("boom");',
          '  return { score: 1 };',
          '}',
          '',
        ].join('\n'),
      },
    );
    const result = await runInProcess(['run', '-o', 'out.json'], dir);
    assert.equal(readArtifact(dir).runs[0]?.summary.evaluators.j?.passRate, null);
    const row = result.stdout.split('\n').find((line) => /^\s*j\s/.test(line));
    assert.ok(row !== undefined, result.stdout);
    assert.doesNotMatch(row, /0\.0%/);
  });
});
