/**
 * `runTestSuite`'s `gate` is checked before anything runs, as evals.yaml's `gate:` is. Before,
 * only `gate.minPassRate` was: an evaluator rule whose bound was misspelt (`{ ge: 0.7 }`, from
 * JavaScript) or left `undefined` (`{ gte: cfg.minMean }` with the setting missing, which
 * TypeScript accepts) was read as no bound at all and passed a mean of 0.2, and a misspelt key
 * (`minPassRat`, `meen`) or an evaluator id the suite does not have was ignored without a word.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite, type RunTestSuiteArgs } from '../src/api/run-test-suite.ts';
import { UsageError } from '../src/shared/errors.ts';

interface Case {
  q: string;
}

/** A suite whose one evaluator, `friendly`, scores 0.2 without a threshold, under `gate`. */
function suite(calls: { n: number }, gate: unknown): RunTestSuiteArgs<Case, string> {
  return {
    id: 's',
    testCases: [{ q: 'a' }, { q: 'b' }],
    testCaseHash: ['q'],
    fn: ({ testCase }) => {
      calls.n++;
      return testCase.q;
    },
    evaluators: [{ id: 'friendly', evaluateTestCase: () => ({ score: 0.2 }) }],
    gate: gate as RunTestSuiteArgs<Case, string>['gate'],
    quiet: true,
    setExitCode: false,
  };
}

/** What `gate` gets: the UsageError (asserted to come before any call of `fn`) or the verdict. */
async function outcome(gate: unknown): Promise<UsageError | string> {
  const calls = { n: 0 };
  const result: unknown = await runTestSuite(suite(calls, gate)).then(
    (r) => r.verdict,
    (error: unknown) => error,
  );
  if (result instanceof UsageError) {
    assert.equal(calls.n, 0, 'nothing ran');
    return result;
  }
  assert.equal(typeof result, 'string', `a verdict or a UsageError, not ${String(result)}`);
  return result as string;
}

const refused: { name: string; gate: unknown; path: string; message: RegExp }[] = [
  {
    name: 'a misspelt bound, which passed a mean of 0.2 against "≥ 0.7"',
    gate: { evaluators: { friendly: { mean: { ge: 0.7 } } } },
    path: 'gate.evaluators.friendly.mean',
    message:
      /gate\.evaluators\.friendly\.mean: threshold has an unknown bound "ge" \(the bounds are lt, lte, gt and gte\)/,
  },
  {
    name: 'a bound left undefined (a missing setting), which passed too',
    gate: { evaluators: { friendly: { passRate: { gte: undefined } } } },
    path: 'gate.evaluators.friendly.passRate',
    message: /gate\.evaluators\.friendly\.passRate\.gte is undefined: give a number/,
  },
  {
    name: 'no bound at all',
    gate: { evaluators: { friendly: { mean: {} } } },
    path: 'gate.evaluators.friendly.mean',
    message: /gate\.evaluators\.friendly\.mean: threshold has no bound/,
  },
  {
    name: 'a range no mean can meet',
    gate: { evaluators: { friendly: { mean: { gte: 70 } } } },
    path: 'gate.evaluators.friendly.mean',
    message:
      /gate\.evaluators\.friendly\.mean: impossible threshold: no score in \[0, 1\] is >= 70/,
  },
  {
    name: 'a misspelt rule, which made no condition',
    gate: { evaluators: { friendly: { meen: { gte: 0.7 } } } },
    path: 'gate.evaluators.friendly.meen',
    message: /gate\.evaluators\.friendly: unknown rule meen: did you mean mean\?/,
  },
  {
    name: 'an evaluator entry without a rule',
    gate: { evaluators: { friendly: {} } },
    path: 'gate.evaluators.friendly',
    message: /gate\.evaluators\.friendly must be an object of mean, passRate or agreement bounds/,
  },
  {
    name: 'an evaluator the suite does not have',
    gate: { evaluators: { frendly: { mean: { gte: 0.1 } } } },
    path: 'gate.evaluators.frendly',
    message:
      /gate\.evaluators\.frendly: no evaluator "frendly" in this suite \(did you mean "friendly"\?\)/,
  },
  {
    name: 'an agreement rule, which needs human labels a suite in code has not',
    gate: { evaluators: { friendly: { agreement: { kappa: { gte: 0.6 } } } } },
    path: 'gate.evaluators.friendly.agreement',
    message: /gate\.evaluators\.friendly\.agreement needs human labels in a testset column/,
  },
  {
    name: 'evaluators that is not an object',
    gate: { evaluators: [] },
    path: 'gate.evaluators',
    message: /gate\.evaluators must be an object of evaluator id → bounds, got an array \[\]/,
  },
  {
    name: 'a misspelt gate key, ignored before',
    gate: { minPassRat: 0.9 },
    path: 'gate.minPassRat',
    message: /gate: unknown key minPassRat: did you mean minPassRate\?/,
  },
  {
    name: 'a misspelt regressions setting, which a regression would not block',
    gate: { regressions: 'blok' },
    path: 'gate.regressions',
    message:
      /gate\.regressions must be "block", "warn" or "off", got "blok": did you mean "block"\?/,
  },
  {
    name: 'a regressions setting of another type',
    gate: { regressions: true },
    path: 'gate.regressions',
    message: /gate\.regressions must be "block", "warn" or "off", got true$/,
  },
  {
    name: 'a minimum detectable effect of 0, which no row can detect',
    gate: { minDetectableEffect: 0 },
    path: 'gate.minDetectableEffect',
    message: /gate\.minDetectableEffect must be a number above 0 and at most 1, got 0/,
  },
  {
    name: 'a minimum detectable effect given as text',
    gate: { minDetectableEffect: '0.1' },
    path: 'gate.minDetectableEffect',
    message: /gate\.minDetectableEffect must be a number above 0 and at most 1, got "0\.1"/,
  },
  // evals.yaml's schema refuses these two (minItems: 1, uniqueItems); the SDK accepted them.
  {
    name: 'an empty list of removed evaluators, which evals.yaml refuses',
    gate: { regressions: 'block', removedEvaluators: [] },
    path: 'gate.removedEvaluators',
    message:
      /gate\.removedEvaluators must be a list of at least one evaluator id \(leave it out when none was removed\), got an array \[\]$/,
  },
  {
    name: 'a removed evaluator listed twice, which evals.yaml refuses',
    gate: { regressions: 'block', removedEvaluators: ['tone', 'close', 'tone'] },
    path: 'gate.removedEvaluators',
    message: /gate\.removedEvaluators must be a list of distinct evaluator ids, got "tone" twice$/,
  },
  // evals.yaml refuses these as config errors (removed-rule.ts); the SDK accepted them.
  {
    name: 'a removed evaluator that is still an evaluator of the suite (the new id of a rename)',
    gate: { regressions: 'block', removedEvaluators: ['friendly'] },
    path: 'gate.removedEvaluators[0]',
    message:
      /gate\.removedEvaluators\[0\]: expected the id of an evaluator this suite no longer has, found "friendly", an evaluator of this suite \(evaluators\[0\]\): list the id the evaluator had in the baseline/,
  },
  {
    name: 'a removed evaluator that is no id',
    gate: { removedEvaluators: ['tone', ''] },
    path: 'gate.removedEvaluators',
    message: /gate\.removedEvaluators must be a list of evaluator ids, got /,
  },
];

describe('runTestSuite checks its gate before the run', () => {
  for (const row of refused) {
    it(`refuses ${row.name}`, async () => {
      const error = await outcome(row.gate);
      assert.ok(error instanceof UsageError, `refused, not ${String(error)}`);
      assert.deepEqual(
        error.issues.map((issue) => [issue.code, issue.path]),
        [['sdk.argument', row.path]],
      );
      assert.match(error.message, row.message);
    });
  }

  it('refuses a removed grid value the grid still has (0 and "0" alike), and runs one it lacks', async () => {
    const calls = { n: 0 };
    const args = (removed: unknown[]): RunTestSuiteArgs<Case, string> => ({
      ...suite(calls, { regressions: 'block', removedGridValues: { model: removed } }),
      gridSearchParams: { model: ['small', 0] },
    });
    const error: unknown = await runTestSuite(args(['large', '0'])).catch((e: unknown) => e);
    assert.ok(error instanceof UsageError, `refused, not ${String(error)}`);
    assert.equal(calls.n, 0, 'nothing ran');
    assert.deepEqual(
      error.issues.map((issue) => [issue.code, issue.path]),
      [['sdk.argument', 'gate.removedGridValues.model[1]']],
    );
    assert.match(
      error.message,
      /gate\.removedGridValues\.model\[1\]: expected a value of model this suite's grid no longer has, found "0", a value of its grid \(gridSearchParams\.model\[1\]\)/,
    );
    const ran = await runTestSuite(args(['large']));
    assert.equal(ran.verdict, 'pass');
  });

  it('still runs a gate that is what it must be, and judges it', async () => {
    assert.equal(
      await outcome({ evaluators: { friendly: { mean: { gte: 0.1, lt: 0.9 } } } }),
      'pass',
    );
    assert.equal(await outcome({ evaluators: { friendly: { mean: { gte: 0.7 } } } }), 'fail');
    assert.equal(await outcome({ minPassRate: 0.5, regressions: 'warn' }), 'pass');
    assert.equal(await outcome({ regressions: 'block', minDetectableEffect: 1 }), 'pass');
    assert.equal(await outcome({ regressions: 'off', minDetectableEffect: 0.05 }), 'pass');
    assert.equal(await outcome({ regressions: 'block', removedEvaluators: ['tone'] }), 'pass');
  });
});
