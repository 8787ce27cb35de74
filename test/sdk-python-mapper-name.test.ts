/**
 * Seed 003 writes the out-of-box classes the Python SDK's way: `test_case_mapper`,
 * `output_mapper`, `evaluate_assertions`, `make_prompt`, `score_choices`. Ported as written into
 * JavaScript (or TypeScript run by tsx or evals.yaml's `use:`, which do not type-check), such a
 * class ran, and every case's evaluation was the error `this.testCaseMapper is not a function`:
 * nothing named the Python name or the one to write. A member under its Python name, without the
 * TypeScript one, is refused before any case, as `max_concurrency` is, from `runTestSuite` and
 * from evals.yaml alike.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BaseAssertions, BaseIsEquals, BaseLLMJudge } from '../src/index.ts';
import { assertRefusedFromEvalsYaml, refusalOrScore, TESTING } from './helpers/sdk-refusal.ts';

interface Case {
  input: string;
  expected: string;
}

// Untyped at run time, as in JavaScript: the classes below lack the abstract TypeScript members.
const IsEqualsBase = BaseIsEquals as unknown as new () => object;
const AssertionsBase = BaseAssertions as unknown as new () => object;
const JudgeBase = BaseLLMJudge as unknown as new () => object;

class PortedIsEquals extends IsEqualsBase {
  id = 'is-equals';
  test_case_mapper({ testCase }: { testCase: Case }): string {
    return testCase.expected;
  }
  output_mapper({ output }: { output: string }): string {
    return output;
  }
}

class PortedAssertions extends AssertionsBase {
  id = 'rubric';
  evaluate_assertions(): [] {
    return [];
  }
}

class PortedJudge extends JudgeBase {
  id = 'judge';
  score_choices = [
    { name: 'Yes', value: 1 },
    { name: 'No', value: 0 },
  ];
  makePrompt(): string {
    return 'Is it right?';
  }
}

/** Both names, as a class moved over in steps may have: the TypeScript one is read. */
class BothNames extends BaseIsEquals<Case, string> {
  id = 'both';
  testCaseMapper({ testCase }: { testCase: Case }): string {
    return testCase.expected;
  }
  test_case_mapper(): string {
    return 'unused';
  }
  outputMapper({ output }: { output: string }): string {
    return output;
  }
}

describe("an out-of-box class's mapper under its Python SDK name", () => {
  it('is refused from runTestSuite before any case, naming the method to write', async () => {
    assert.equal(
      await refusalOrScore(new PortedIsEquals()),
      "runTestSuite(s): evaluators[0] (PortedIsEquals): PortedIsEquals.test_case_mapper is the Python SDK's name, which is not called here: write testCaseMapper({ testCase })",
    );
    assert.equal(
      await refusalOrScore(new PortedAssertions()),
      "runTestSuite(s): evaluators[0] (PortedAssertions): PortedAssertions.evaluate_assertions is the Python SDK's name, which is not called here: write evaluateAssertions({ testCase, output })",
    );
  });

  it("names score_choices, the judge's field, rather than saying scoreChoices is missing", async () => {
    assert.equal(
      await refusalOrScore(new PortedJudge()),
      "runTestSuite(s): evaluators[0] (PortedJudge): PortedJudge.score_choices is the Python SDK's name, which is not read here: write scoreChoices",
    );
  });

  it('a class that also has the TypeScript name runs', async () => {
    assert.equal(await refusalOrScore(new BothNames()), 'ran 1, passed 1');
  });

  it('is refused from evals.yaml before any case, exit code 2', { timeout: 60_000 }, async () => {
    await assertRefusedFromEvalsYaml(
      `import { BaseIsEquals } from ${JSON.stringify(TESTING)};
export class IsEq extends BaseIsEquals {
  testCaseMapper({ testCase }) { return testCase.expected; }
  output_mapper({ output }) { return output; }
}
`,
      /IsEq\.output_mapper is the Python SDK's name, which is not called here: write outputMapper\(\{ output \}\)/,
    );
  });
});
