/**
 * Seed 003's `IsProfessionalTone` sets `max_concurrency = 2`; a class ported from the Python SDK
 * as written keeps that name, which nothing reads: the limit it asks for (to spare the judge's
 * rate limit) was dropped without a word, as `num_overrides` dropped the judge's examples. Such
 * a field, without the setting under its own name, is refused before any case, from
 * `runTestSuite` and from evals.yaml alike.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseTestEvaluator } from '../src/evaluators/base.ts';
import { BaseAccuracy, BaseLLMJudge, BaseToxicity } from '../src/index.ts';
import type { Evaluation } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { refusalOrScore } from './helpers/sdk-refusal.ts';

interface Case {
  input: string;
}

class IsProfessionalTone extends BaseTestEvaluator<Case, string> {
  id = 'is-professional-tone';
  max_concurrency = 2;
  evaluateTestCase({ output }: { output: string }): Evaluation {
    return { score: output.includes('!') ? 0 : 1 };
  }
}

/** The same class written with the setting's TypeScript name too: nothing to refuse. */
class BothNames extends IsProfessionalTone {
  override maxConcurrency = 2;
}

class Examples extends BaseTestEvaluator<Case, string> {
  id = 'examples';
  num_overrides = 3;
  evaluateTestCase(): Evaluation {
    return { score: 1 };
  }
}

/**
 * SDK judge classes ported with `num_overrides = 3`. `BaseAccuracy` and `BaseToxicity` refuse
 * `numOverrides` above 0 (they show their judge no examples), so the hint must not say to write
 * it; `BaseLLMJudge` shows them, and there it is the fix.
 */
class AccuracyExamples extends BaseAccuracy<Case, string> {
  id = 'accuracy';
  num_overrides = 3;
  outputMapper({ output }: { output: string }): string {
    return output;
  }
  expectedOutputMapper({ testCase }: { testCase: Case }): string {
    return testCase.input;
  }
}

class ToxicityExamples extends BaseToxicity<Case, string> {
  id = 'toxicity';
  num_overrides = 3;
  outputMapper({ output }: { output: string }): string {
    return output;
  }
}

class JudgeExamples extends BaseLLMJudge<Case, string> {
  id = 'judge';
  num_overrides = 3;
  scoreChoices = [
    { name: 'Polite', value: 1 },
    { name: 'Not polite', value: 0 },
  ];
  makePrompt(): string {
    return 'Is it polite?';
  }
}

/** Ported with the Python SDK's method name, as JavaScript (or a loosely typed class) allows. */
class PythonMethod {
  id = 'python-method';
  evaluate_test_case(): Evaluation {
    return { score: 1 };
  }
}

/** The case every suite here runs: a polite line, which the tone class passes. */
const POLITE = { input: 'Dear team, the report is attached.' };

describe('an evaluator setting under its Python SDK name', () => {
  it('max_concurrency and num_overrides are refused from runTestSuite, naming the setting', async () => {
    assert.equal(
      await refusalOrScore(new IsProfessionalTone(), POLITE),
      "runTestSuite(s): evaluators[0] (is-professional-tone): max_concurrency is the Python SDK's name of the setting, which is not read here: write maxConcurrency = 2",
    );
    assert.equal(
      await refusalOrScore(new Examples(), POLITE),
      "runTestSuite(s): evaluators[0] (examples): num_overrides is the Python SDK's name of the setting, which is not read here: write numOverrides = 3",
    );
  });

  it('num_overrides on a judge class that refuses numOverrides says to leave it out', async () => {
    const refused =
      "num_overrides is the Python SDK's name of the setting, which is not read here, and this judge class takes no override examples in evalgate (it refuses numOverrides above 0): leave num_overrides out, or extend BaseLLMJudge and show recentOverrides in makePrompt";
    assert.equal(
      await refusalOrScore(new AccuracyExamples(), POLITE),
      `runTestSuite(s): evaluators[0] (accuracy): ${refused}`,
    );
    assert.equal(
      await refusalOrScore(new ToxicityExamples(), POLITE),
      `runTestSuite(s): evaluators[0] (toxicity): ${refused}`,
    );
    assert.equal(
      await refusalOrScore(new JudgeExamples(), POLITE),
      "runTestSuite(s): evaluators[0] (judge): num_overrides is the Python SDK's name of the setting, which is not read here: write numOverrides = 3",
    );
  });

  it('evaluate_test_case alone is named in the missing-method error', async () => {
    assert.equal(
      await refusalOrScore(new PythonMethod(), POLITE),
      "runTestSuite(s): evaluators[0] has no evaluateTestCase method (evaluate_test_case is the Python SDK's name: write evaluateTestCase({ testCase, output }))",
    );
  });

  it('a class that also has the setting under its own name runs', async () => {
    // Ran, not refused; with no threshold nothing is judged to pass, so only the run is asserted.
    assert.match(await refusalOrScore(new BothNames(), POLITE), /^ran 1, passed \d+$/);
  });

  it('is refused from evals.yaml before any case, exit code 2', { timeout: 60_000 }, async () => {
    const project = scratch();
    writeFiles(project, {
      'evals.yaml': `version: 1
suites:
  - id: tone
    testset: { cases: [{ input: Hello }] }
    function: ./echo.mjs#echo
    evaluators: [{ id: tone, use: ./tone.mjs#IsProfessionalTone }]
`,
      'echo.mjs': 'export const echo = ({ testCase }) => testCase.input;\n',
      'tone.mjs': `export class IsProfessionalTone {
  id = 'is-professional-tone';
  max_concurrency = 2;
  evaluateTestCase({ output }) {
    return { score: output.includes('!') ? 0 : 1 };
  }
}
`,
    });
    const cli = await runCli(['run'], { cwd: project });
    assert.equal(cli.code, 2, cli.stderr);
    assert.match(
      cli.stderr,
      /tone\.mjs#IsProfessionalTone: max_concurrency is the Python SDK's name of the setting, which is not read here: write maxConcurrency = 2/,
    );
    writeFiles(project, {
      'tone.mjs': `export class IsProfessionalTone {
  id = 'is-professional-tone';
  evaluate_test_case(testCase, output) {
    return { score: 1 };
  }
}
`,
    });
    const method = await runCli(['run'], { cwd: project });
    assert.equal(method.code, 2, method.stderr);
    assert.match(
      method.stderr,
      /instances of IsProfessionalTone have no evaluateTestCase method \(evaluate_test_case is the Python SDK's name: write evaluateTestCase\(\{ testCase, output \}\)\)/,
    );
  });
});
