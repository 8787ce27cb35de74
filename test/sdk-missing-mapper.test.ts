/**
 * An out-of-box class written in JavaScript (or TypeScript run without a type check) that left
 * out a mapper it must have, such as `testCaseMapper` of `BaseIsEquals`, ran, and every case's
 * evaluation was the error `this.testCaseMapper is not a function`. It is refused before any case,
 * naming the class and the method to write, as a mapper kept under its Python name is. And the
 * Python-name and parameter checks look only at the members the class reads: a helper of the
 * user's own that happens to be named `test_case_mapper`, or `makePrompt(a, b)`, on a class that
 * calls no such member, is no mistake, and was refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BaseAssertions,
  BaseIsEquals,
  BaseIsValidJSON,
  BaseRagasNonLLMContextRecall,
  BaseRagasResponseRelevancy,
} from '../src/index.ts';
import { createJudgeClient } from '../src/judge/client.ts';
import { assertRefusedFromEvalsYaml, refusalOrScore, TESTING } from './helpers/sdk-refusal.ts';

interface Case {
  input: string;
  expected: string;
}

// Untyped at run time, as in JavaScript: the classes below lack abstract TypeScript members.
const IsEqualsBase = BaseIsEquals as unknown as new () => object;
const AssertionsBase = BaseAssertions as unknown as new () => object;
const RecallBase = BaseRagasNonLLMContextRecall as unknown as new () => object;

class NoTestCaseMapper extends IsEqualsBase {
  id = 'eq';
  outputMapper({ output }: { output: string }): string {
    return output;
  }
}

class NoRubric extends AssertionsBase {
  id = 'rubric';
}

class MapperNotAMethod extends IsEqualsBase {
  id = 'eq';
  testCaseMapper = 'expected';
  outputMapper({ output }: { output: string }): string {
    return output;
  }
}

class NoReferenceContexts extends RecallBase {
  id = 'recall';
  retrievedContextsMapper({ output }: { output: string }): string[] {
    return [output];
  }
}

/** Helpers named like members of other classes: `BaseIsValidJSON` reads only `outputMapper`. */
class JsonWithHelpers extends BaseIsValidJSON<Case, string> {
  id = 'json';
  outputMapper({ output }: { output: string }): string {
    return this.test_case_mapper(output);
  }
  test_case_mapper(text: string): string {
    return JSON.stringify({ text });
  }
  makePrompt(question: string, answer: string): string {
    return `${question}: ${answer}`;
  }
}

/** A Python port of a relevancy class keeps the contexts mapper the class never calls. */
class PortedRelevancy extends BaseRagasResponseRelevancy<Case, string> {
  id = 'relevancy';
  userInputMapper({ testCase }: { testCase: Case }): string {
    return testCase.input;
  }
  responseMapper({ output }: { output: string }): string {
    return output;
  }
  retrieved_contexts_mapper(): string[] {
    return [];
  }
}

describe('an out-of-box class without a mapper it calls on every case', () => {
  it('is refused from runTestSuite before any case, naming the method to write', async () => {
    assert.equal(
      await refusalOrScore(new NoTestCaseMapper()),
      'runTestSuite(s): evaluators[0] (NoTestCaseMapper): NoTestCaseMapper has no testCaseMapper method, which every case calls: write testCaseMapper({ testCase })',
    );
    assert.equal(
      await refusalOrScore(new NoRubric()),
      'runTestSuite(s): evaluators[0] (NoRubric): NoRubric has no evaluateAssertions method, which every case calls: write evaluateAssertions({ testCase, output })',
    );
    assert.equal(
      await refusalOrScore(new NoReferenceContexts()),
      'runTestSuite(s): evaluators[0] (NoReferenceContexts): NoReferenceContexts has no referenceContextsMapper method, which every case calls: write referenceContextsMapper({ testCase })',
    );
  });

  it('is refused when the member is a field rather than a method, never quoting it', async () => {
    assert.equal(
      await refusalOrScore(new MapperNotAMethod()),
      'runTestSuite(s): evaluators[0] (MapperNotAMethod): MapperNotAMethod.testCaseMapper is a string, not a method: write testCaseMapper({ testCase })',
    );
  });

  it('is refused from evals.yaml before any case, exit code 2', { timeout: 60_000 }, async () => {
    await assertRefusedFromEvalsYaml(
      `import { BaseIsEquals } from ${JSON.stringify(TESTING)};
export class IsEq extends BaseIsEquals {
  testCaseMapper({ testCase }) { return testCase.expected; }
}
`,
      /IsEq has no outputMapper method, which every case calls: write outputMapper\(\{ output \}\)/,
    );
  });
});

describe('a helper named like a member the class does not read', () => {
  it('is taken: the class runs and scores', async () => {
    assert.equal(await refusalOrScore(new JsonWithHelpers()), 'ran 1, passed 1');
  });
});

describe('a Python-named member the class never calls', () => {
  it('is not refused before the cases (sdkPreload)', () => {
    const relevancy = new PortedRelevancy();
    // A client that is never called: sdkPreload only checks it.
    relevancy.useContext({
      judge: {
        client: createJudgeClient({ baseUrl: 'http://127.0.0.1:8999/v1', cacheDir: null, env: {} }),
        model: 'm',
        embeddingModel: undefined,
        temperature: 0,
        prices: undefined,
      },
    });
    assert.doesNotThrow(() => relevancy.sdkPreload());
    // The same check refuses a mapper the class calls, as above.
    assert.throws(() => (new NoTestCaseMapper() as BaseIsEquals<Case, string>).sdkPreload(), {
      message:
        'NoTestCaseMapper has no testCaseMapper method, which every case calls: write testCaseMapper({ testCase })',
    });
  });
});
