/**
 * QA round 6, typing: `runTestSuite` resolves to results typed by the suite, so a case's `output`
 * is the user's output type and its `data` the test case type, without a cast. Checked by the
 * compiler a consumer runs: the suite below type-checks only when the right uses are allowed and
 * every `@ts-expect-error` line is refused (an unused one is itself an error).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suiteTypeErrors } from './helpers/consumer-typecheck.ts';

const SUITE = `import { runTestSuite, type RunTestSuiteResult } from 'evalgate';

interface Case {
  question: string;
  n: number;
}
interface Answer {
  text: string;
  tokens: number;
}

export async function typed(): Promise<string> {
  const result = await runTestSuite({
    id: 'typed',
    testCases: [{ question: 'q', n: 1 }] as Case[],
    testCaseHash: ['question'],
    fn: ({ testCase }): Answer => ({ text: testCase.question, tokens: testCase.n }),
  });
  const first = result.runs[0]?.cases[0];
  if (first === undefined) return '';
  // The output is the function's type, or null (errored), with no cast.
  const answer: Answer | null = first.output;
  const question: string = first.data.question;
  const trial: Answer | null | undefined = first.trials?.[0]?.output;
  // @ts-expect-error null is possible: an errored case has no output
  const text: string = first.output.text;
  // @ts-expect-error the output has no such field
  const missing: unknown = first.output?.nothing;
  // @ts-expect-error the test case's n is a number
  const wrong: string = first.data.n;
  return [answer?.text, question, trial?.text, text, missing, wrong].join();
}

// Explicit type arguments give the same types; the result type names them.
export async function explicit(): Promise<number> {
  const result: RunTestSuiteResult<Case, number> = await runTestSuite<Case, number>({
    id: 'explicit',
    testCases: [{ question: 'q', n: 1 }],
    testCaseHash: ['question'],
    fn: ({ testCase }) => testCase.n,
  });
  // @ts-expect-error the output is a number, not a string
  const wrong: string | null | undefined = result.runs[0]?.cases[0]?.output;
  return (result.runs[0]?.cases[0]?.output ?? 0) + (wrong === undefined ? 0 : 1);
}

// A result without type arguments still holds any suite's result (unknown data and output).
export async function untyped(): Promise<RunTestSuiteResult> {
  return runTestSuite({ id: 'untyped', testCases: [{ a: 'x' }], testCaseHash: ['a'], fn: () => 1 });
}
`;

describe('runTestSuite result types (QA round 6)', () => {
  it('types each case by the suite: output and data without a cast', { timeout: 120_000 }, () => {
    assert.equal(suiteTypeErrors(SUITE), '');
  });
});
