/**
 * Seed 003's mappers are the Python SDK's: `output_mapper(self, output)` returns `output`, the
 * value itself. Ported with the TypeScript name but that one parameter, `outputMapper(output) {
 * return output; }` gets the one object the class calls it with, `{ output }`, and returns it;
 * the evaluation's error said only `returned an object {"output":…}; expected a string`. It now
 * says that the object is the mapper's own argument and shows the form to write. A mapper that
 * returns an object of its own shape, from an output that is one, is not taken for it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runTestSuite } from '../src/api/run-test-suite.ts';
import { BaseHasAllSubstrings, BaseIsValidJSON } from '../src/index.ts';
import type { TestEvaluator } from '../src/types/index.ts';

interface Case {
  input: string;
}

async function errorOf<TOutput>(
  evaluator: TestEvaluator<Case, TOutput>,
  output: TOutput,
): Promise<string | null | undefined> {
  const result = await runTestSuite<Case, TOutput>({
    id: 's',
    testCases: [{ input: 'hello world' }],
    testCaseHash: ['input'],
    fn: () => output,
    evaluators: [evaluator],
    quiet: true,
    setExitCode: false,
  });
  return result.runs[0]?.cases[0]?.evaluations[0]?.error;
}

// The Python SDK's one-parameter form, as JavaScript (or tsx, which does not type-check) runs it.
const asPython = (map: (value: unknown) => unknown) => map as unknown as (args: never) => never;

class PortedJson extends BaseIsValidJSON<Case, string> {
  id = 'is-valid-json';
  outputMapper = asPython((output) => output);
}

class PortedSubstrings extends BaseHasAllSubstrings<Case, string> {
  id = 'has-all';
  testCaseMapper = asPython((testCase) => testCase);
  outputMapper({ output }: { output: string }): string {
    return output;
  }
}

/** An output that is itself `{ output }`, returned whole: wrong, but not the mapper's argument. */
class Wrapped extends BaseIsValidJSON<Case, { output: string }> {
  id = 'wrapped';
  outputMapper({ output }: { output: { output: string } }): string {
    return output as unknown as string;
  }
}

describe('a mapper that returns the object it is called with', () => {
  it('says so and shows the form to write', async () => {
    assert.equal(
      await errorOf(new PortedJson(), 'hello world'),
      'PortedJson.outputMapper returned an object {"output":"hello world"}, the very object it is called with; expected a string: it takes that one object, as in the Autoblocks TypeScript SDK, and returns what it maps from it: outputMapper({ output })',
    );
    assert.equal(
      await errorOf(new PortedSubstrings(), 'hello world'),
      'PortedSubstrings.testCaseMapper returned an object {"testCase":{"input":"hello world"}}, the very object it is called with; expected an array of strings: it takes that one object, as in the Autoblocks TypeScript SDK, and returns what it maps from it: testCaseMapper({ testCase })',
    );
  });

  it('an object of the same shape that is not the argument keeps the plain message', async () => {
    assert.equal(
      await errorOf(new Wrapped(), { output: 'x' }),
      'Wrapped.outputMapper returned an object {"output":"x"}; expected a string',
    );
  });
});
