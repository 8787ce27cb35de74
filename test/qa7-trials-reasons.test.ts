/**
 * QA 7, item 2: with `trials: N` the case's evaluations used to keep only the counts
 * (`{ trials, scored, passedTrials }`), so every view lost why a case failed. A failed
 * evaluation now carries the metadata of one trial in which it failed, with `fromTrial`; these
 * tests run the QA's reproduction end to end and read each view.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { comparedOf } from '../src/report/html-model-compared.ts';
import type { CaseResult, ResultsArtifact } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/**
 * The QA's project: `good` answers right, `bad` always wrong; `mostly` is right in trial 1 only
 * and `once` wrong in trial 2 only (so trials disagree). `mine` always fails with its reason.
 */
function project(trials: number): string {
  return jsonlProject(
    [
      { name: 'good', expected: 'Paris' },
      { name: 'bad', expected: 'Berlin' },
      { name: 'mostly', expected: 'Rome' },
      { name: 'once', expected: 'Oslo' },
    ],
    [
      'function: ./fn.mjs#run',
      `trials: ${trials}`,
      'evaluators:',
      "  - { id: exact, use: is-equals, with: { expected: '{{case.expected}}', actual: '{{output.answer}}' } }",
      '  - { id: mine, use: ./ev.mjs#mine, threshold: { gte: 0.5 } }',
    ],
    {
      'fn.mjs': `export async function run({ testCase, trial }) {
  const right = { answer: testCase.expected, trial };
  const wrong = { answer: 'wrong', trial };
  if (testCase.name === 'good') return right;
  if (testCase.name === 'mostly') return trial === 1 ? right : wrong;
  if (testCase.name === 'once') return trial === 2 ? wrong : right;
  return wrong;
}
`,
      'ev.mjs': `export function mine({ testCase }) {
  if (testCase.name !== 'bad') return { score: 1 };
  return { score: 0.2, metadata: { reason: 'custom reason here', trials: 'mine' } };
}
`,
    },
  );
}

function artifactOf(dir: string): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as ResultsArtifact;
}

function caseNamed(artifact: ResultsArtifact, name: string): CaseResult {
  const found = artifact.runs[0]?.cases.find(
    (result) => (result.data as { name?: unknown }).name === name,
  );
  assert.ok(found, `case ${name}`);
  return found;
}

function metadataOf(result: CaseResult, evaluator: string): Record<string, unknown> | null {
  const evaluation = result.evaluations.find((e) => e.evaluator === evaluator);
  assert.ok(evaluation, `evaluation ${evaluator}`);
  return evaluation.metadata;
}

describe('trials keep why a case failed (QA 7, item 2)', () => {
  it('the case evaluation carries the failing trial’s metadata, and every view shows it', async () => {
    const dir = project(3);
    const run = await runInProcess(['run', '-o', 'r.json', '--junit', 'j.xml'], dir, {
      COLUMNS: '200',
    });
    assert.equal(run.code, 1, run.stderr + run.stdout);
    const bad = caseNamed(artifactOf(dir), 'bad');
    assert.equal(bad.passed, false);
    assert.deepEqual(metadataOf(bad, 'exact'), {
      trials: 3,
      scored: 3,
      passedTrials: 0,
      fromTrial: 1,
      expected: 'Berlin',
      actual: 'wrong',
    });
    // The counts win over the evaluator's own `trials`; its value stays in the trial.
    assert.deepEqual(metadataOf(bad, 'mine'), {
      trials: 3,
      scored: 3,
      passedTrials: 0,
      fromTrial: 1,
      reason: 'custom reason here',
    });
    assert.deepEqual(bad.trials?.[0]?.evaluations[1]?.metadata, {
      reason: 'custom reason here',
      trials: 'mine',
    });

    // Terminal summary, as with one trial, naming the trial as `evals show` does (QA 8).
    assert.match(run.stdout, /exact 0 \(needs ≥ 1\): trial 1: expected "Berlin", got "wrong"/);
    assert.match(run.stdout, /mine 0\.2 \(needs ≥ 0\.5\): trial 1: custom reason here/);

    // evals show --failed.
    const show = await runInProcess(['show', 'r.json', '--failed'], dir, { COLUMNS: '200' });
    assert.match(show.stdout, /✗ exact +0 +needs ≥ 1\n +trial 1: expected "Berlin", got "wrong"/);
    assert.match(show.stdout, /✗ mine +0\.2 +needs ≥ 0\.5\n +trial 1: custom reason here/);

    // JUnit: the failure of `bad` records what was expected and got, and the custom reason, as
    // with one trial, instead of the counts alone.
    const junit = readFileSync(join(dir, 'j.xml'), 'utf8');
    const bodies = [...junit.matchAll(/<failure[^>]*>([^<]*)<\/failure>/g)].map((match) =>
      (match[1] ?? '').replace(/&quot;/g, '"').replace(/&amp;/g, '&'),
    );
    const body = bodies.find((text) => text.includes('Berlin'));
    assert.ok(body !== undefined, junit);
    // With trials, each says how many trials it passed against which per-trial threshold.
    assert.match(
      body,
      /exact: passed 0 of 3 trials, needs more than half \(a trial passes with a score ≥ 1; mean score 0\.000\)\ntrial 1: expected "Berlin", got "wrong"\n\{[^}]*"expected": "Berlin",\s*"actual": "wrong"/,
    );
    assert.match(
      body,
      /mine: passed 0 of 3 trials, needs more than half \(a trial passes with a score ≥ 0\.5; mean score 0\.200\)\ntrial 1: custom reason here\n\{[^}]*"reason": "custom reason here"/,
    );
    assert.match(body, /"fromTrial": 1/);

    // HTML detail: the diff is against the field exact compared, not the whole output.
    assert.deepEqual(comparedOf(bad, String), {
      expected: 'Berlin',
      actual: 'wrong',
      what: 'output.answer (what exact compared)',
    });
  });

  it('trials that disagree: the reason comes from a failing trial and names it', async () => {
    const dir = project(3);
    const run = await runInProcess(['run', '-o', 'r.json'], dir, { COLUMNS: '200' });
    assert.equal(run.code, 1, run.stderr + run.stdout);
    const artifact = artifactOf(dir);

    // `mostly` passed trial 1 only: a flaky failure, explained by trial 2, whose output it shows.
    const mostly = caseNamed(artifact, 'mostly');
    assert.deepEqual([mostly.passed, mostly.flaky], [false, true]);
    assert.deepEqual(metadataOf(mostly, 'exact'), {
      trials: 3,
      scored: 3,
      passedTrials: 1,
      fromTrial: 2,
      expected: 'Rome',
      actual: 'wrong',
    });
    assert.deepEqual(mostly.output, { answer: 'wrong', trial: 2 });
    assert.equal(comparedOf(mostly, String)?.what, 'output.answer (what exact compared)');
    assert.match(
      run.stdout,
      /flaky 1\/3 {2}exact 0\.333 \(needs ≥ 1\): trial 2: expected "Rome", got "wrong"/,
    );

    // `once` failed trial 2 only: its evaluations passed, so they keep the counts alone, as do
    // those of `good`, which passed every trial.
    const once = caseNamed(artifact, 'once');
    assert.deepEqual([once.passed, once.flaky], [true, true]);
    assert.deepEqual(metadataOf(once, 'exact'), { trials: 3, scored: 3, passedTrials: 2 });
    // `evals show` says why its failing trial failed, on that trial's line.
    const show = await runInProcess(['show', 'r.json', '--flaky'], dir);
    assert.match(
      show.stdout,
      /2\. ✗ \d+ ms {2}exact 0, mine 1 — exact: expected "Oslo", got "wrong"/,
    );
    const good = caseNamed(artifact, 'good');
    assert.deepEqual(metadataOf(good, 'exact'), { trials: 3, scored: 3, passedTrials: 3 });
    assert.deepEqual(metadataOf(good, 'mine'), { trials: 3, scored: 3, passedTrials: 3 });
  });
});
