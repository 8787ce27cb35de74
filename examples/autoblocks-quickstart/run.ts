// A port check: a suite written the way the Autoblocks TypeScript quickstart writes it
// (runTestSuite, BaseTestEvaluator subclasses, testCaseHash, maxTestCaseConcurrency, 400 cases),
// importing from evalgate instead. Run it with:  npx tsx examples/autoblocks-quickstart/run.ts
import crypto from 'crypto';
import { BaseTestEvaluator, type Evaluation, runTestSuite } from 'evalgate';

interface MyTestCase {
  input: string;
  expectedSubstrings: string[];
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The function under test: echoes its input, but drops the last dash-separated part about one
// time in five, so the substring check has real failures to report.
async function testFn({ testCase }: { testCase: MyTestCase }): Promise<string> {
  await pause(Math.random() * 1000);
  const parts = testCase.input.split('-');
  if (Math.random() < 0.2) parts.pop();
  return parts.join('-');
}

class HasAllSubstrings extends BaseTestEvaluator<MyTestCase, string> {
  id = 'has-all-substrings';

  evaluateTestCase(args: { testCase: MyTestCase; output: string }): Evaluation {
    const missingSubstrings = args.testCase.expectedSubstrings.filter(
      (s) => !args.output.includes(s),
    );
    return {
      score: missingSubstrings.length ? 0 : 1,
      threshold: { gte: 1 },
      metadata: { missingSubstrings },
    };
  }
}

// Stands in for an LLM judge: slow, rate-limited to five calls at once, and without a threshold,
// so its scores are reported but never pass or fail a case.
class IsFriendly extends BaseTestEvaluator<MyTestCase, string> {
  id = 'is-friendly';
  override maxConcurrency = 5;

  async evaluateTestCase(_args: { testCase: MyTestCase; output: string }): Promise<Evaluation> {
    await pause(Math.random() * 1000);
    return { score: Math.random() };
  }
}

function genTestCases(n: number): MyTestCase[] {
  return Array.from({ length: n }, () => {
    const id = crypto.randomUUID();
    return { input: id, expectedSubstrings: id.split('-') };
  });
}

await runTestSuite<MyTestCase, string>({
  id: 'my-test-suite',
  fn: testFn,
  testCaseHash: ['input'],
  testCases: genTestCases(400),
  evaluators: [new HasAllSubstrings(), new IsFriendly()],
  maxTestCaseConcurrency: 10,
});
