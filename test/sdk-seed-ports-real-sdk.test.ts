/**
 * Suites written against the real Autoblocks JavaScript SDK (`@autoblocks/client/testing`, its
 * public types and behaviour as its source has them), ported as docs/coming-from.md says: the
 * import changed to `evalgate/testing`, nothing else. Each port is a file of a consumer of the
 * shipped package, type-checked with strict `tsc`, then run by tsx in its own process; its last
 * stdout line is JSON the test checks. Judges answer from the loopback OpenAI-compatible server.
 */
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { repoRoot, runNode, writeFiles } from './helpers/cli.ts';
import { shippedConsumer, typeCheckShipped } from './helpers/consumer-typecheck.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

/**
 * `BaseLLMJudge` with `numOverrides`, reading `recentOverrides` as the SDK types them: scores
 * are choices with names, fields and comments are lists of objects.
 */
const OVERRIDES = `import {
  BaseLLMJudge,
  runTestSuite,
  type EvaluationOverride,
  type EvaluationOverrideComment,
  type EvaluationOverrideField,
} from 'evalgate/testing';

interface MyTestCase {
  input: string;
}

class NoZeros extends BaseLLMJudge<MyTestCase, string> {
  id = 'no-zeros';
  threshold = { gte: 1 };
  numOverrides = 2;
  scoreChoices = [
    { name: 'No', value: 1 },
    { name: 'Yes', value: 0 },
  ];

  makePrompt(args: {
    testCase: MyTestCase;
    output: string;
    recentOverrides: EvaluationOverride[];
  }): string {
    const examples = args.recentOverrides.map((o) => {
      const input = o.inputFields.map((f: EvaluationOverrideField) => f.name + ': ' + f.value);
      const why = o.comments.map((c: EvaluationOverrideComment) => c.fieldId + ' says ' + c.commentText);
      const answer = o.originalScore.name.toUpperCase() + ' -> ' + o.overrideScore.name.toUpperCase();
      return 'EXAMPLE ' + input.join(', ') + ' | ' + o.outputFields[0]?.value + ' | ' + answer + ' | ' + why.join('; ');
    });
    return ['Does ' + args.output + ' contain any zeros?', ...examples].join('\\n');
  }
}

const result = await runTestSuite<MyTestCase, string>({
  id: 'zeros',
  testCases: [{ input: '123' }],
  testCaseHash: ['input'],
  evaluators: [new NoZeros()],
  fn: ({ testCase }: { testCase: MyTestCase }) => testCase.input,
});
console.log(JSON.stringify({ verdict: result.verdict }));
`;

/**
 * Members the SDK declares as abstract getters (\`id\`, \`scoreChoices\`, a battle's \`criteria\`),
 * implemented as getters: each must type-check and be read at run time.
 */
const GETTERS = `import {
  BaseLLMJudge,
  BaseManualBattle,
  BaseTestEvaluator,
  runTestSuite,
  type Evaluation,
  type EvaluationOverride,
  type ScoreChoice,
} from 'evalgate/testing';

interface MyTestCase {
  input: string;
  expectedOutput: string;
}

class Battle extends BaseManualBattle<MyTestCase, string> {
  id = 'battle';
  get criteria(): string {
    return 'CRITERIA: the warmer greeting';
  }
  outputMapper(args: { output: string }): string {
    return args.output;
  }
  baselineMapper(args: { testCase: MyTestCase }): string {
    return args.testCase.expectedOutput;
  }
}

class NotEmpty extends BaseTestEvaluator<MyTestCase, string> {
  get id(): string {
    return 'not-empty';
  }
  evaluateTestCase(args: { testCase: MyTestCase; output: string }): Evaluation {
    return { score: args.output.length > 0 ? 1 : 0, threshold: { gte: 1 } };
  }
}

class Friendly extends BaseLLMJudge<MyTestCase, string> {
  id = 'friendly';
  get scoreChoices(): ScoreChoice[] {
    return [
      { name: 'Friendly', value: 1 },
      { name: 'Not friendly', value: 0 },
    ];
  }
  makePrompt(args: { testCase: MyTestCase; output: string; recentOverrides: EvaluationOverride[] }): string {
    return 'FRIENDLY? ' + args.output;
  }
}

const result = await runTestSuite<MyTestCase, string>({
  id: 'greetings',
  testCases: [{ input: 'hello world', expectedOutput: 'hi' }],
  testCaseHash: ['input'],
  evaluators: [new Battle(), new NotEmpty(), new Friendly()],
  fn: ({ testCase }: { testCase: MyTestCase }) => testCase.input,
});
const evaluations = result.runs[0]?.cases[0]?.evaluations ?? [];
console.log(JSON.stringify(Object.fromEntries(evaluations.map((e) => [e.evaluator, e.score]))));
`;

/**
 * \`gridSearchAsyncLocalStorage\` as the SDK types it (\`Record<string, string> | undefined\`):
 * a value used as a string with no cast, and \`undefined\` telling a suite without a grid.
 */
const GRID = `import { BaseTestEvaluator, gridSearchAsyncLocalStorage, runTestSuite, type Evaluation } from 'evalgate/testing';

interface MyTestCase {
  input: string;
}

function describeModel(model: string): string {
  return model.toUpperCase();
}

const seen: string[] = [];

class UsesModel extends BaseTestEvaluator<MyTestCase, string> {
  id = 'uses-model';
  evaluateTestCase(args: { testCase: MyTestCase; output: string }): Evaluation {
    const store = gridSearchAsyncLocalStorage.getStore();
    seen.push('evaluator:' + (store ? describeModel(store.model) : 'no grid'));
    return { score: 1 };
  }
}

async function testFn({ testCase }: { testCase: MyTestCase }): Promise<string> {
  const model: string = gridSearchAsyncLocalStorage.getStore()?.model ?? 'default';
  seen.push('fn:' + model);
  return testCase.input + '@' + model;
}

for (const gridSearchParams of [{ model: ['a', 'b'] }, undefined]) {
  await runTestSuite<MyTestCase, string>({
    id: 'grid',
    testCases: [{ input: 'x' }],
    testCaseHash: ['input'],
    evaluators: [new UsesModel()],
    fn: testFn,
    maxTestCaseConcurrency: 1,
    gridSearchParams,
  });
}
console.log(JSON.stringify(seen));
`;

/**
 * Names the SDK exports besides the \`Base…\` classes: the older class names it still exports, and
 * \`BaseEvaluator\` (test cases and tracer events) with its \`TracerEvent\`.
 */
const NAMES = `import {
  BaseEvaluator,
  HasAllSubstrings,
  ManualBattle,
  AutomaticBattle,
  runTestSuite,
  type Evaluation,
  type TracerEvent,
} from 'evalgate/testing';

interface MyTestCase {
  input: string;
  expectedSubstrings: string[];
}

class Substrings extends HasAllSubstrings<MyTestCase, string> {
  id = 'has-all-substrings';
  outputMapper(args: { output: string }): string {
    return args.output;
  }
  testCaseMapper(args: { testCase: MyTestCase }): string[] {
    return args.testCase.expectedSubstrings;
  }
}

class Short extends BaseEvaluator<MyTestCase, string> {
  id = 'short';
  evaluateTestCase(args: { testCase: MyTestCase; output: string }): Evaluation {
    return { score: args.output.length < 20 ? 1 : 0, threshold: { gte: 1 } };
  }
  evaluateEvent(args: { event: TracerEvent }): Evaluation {
    return { score: args.event.message.length < 20 ? 1 : 0 };
  }
}

const result = await runTestSuite<MyTestCase, string>({
  id: 'names',
  testCases: [{ input: 'hello-world', expectedSubstrings: ['hello', 'world'] }],
  testCaseHash: ['input'],
  evaluators: [new Substrings(), new Short()],
  fn: ({ testCase }: { testCase: MyTestCase }) => testCase.input,
});
const evaluations = result.runs[0]?.cases[0]?.evaluations ?? [];
const battles = [ManualBattle, AutomaticBattle].map((c) => c.name);
console.log(JSON.stringify({ scores: evaluations.map((e) => [e.evaluator, e.score]), battles }));
`;

/**
 * The SDK's \`runTestSuite\` arguments evalgate does not take, each given alone (in JavaScript: the
 * types refuse them already): what is each one told?
 */
const SDK_ONLY = `import { runTestSuite, UsageError } from 'evalgate/testing';

const extras = {
  retryCount: 3,
  serializeDatasetItemId: (testCase) => testCase.id,
  serializeTestCaseForHumanReview: (testCase) => [{ name: 'input', value: testCase.input }],
  serializeOutputForHumanReview: (output) => [{ name: 'output', value: output }],
  humanReviewJob: { name: 'review', assigneeEmailAddress: 'a@example.com' },
};
const told = {};
for (const [name, value] of Object.entries(extras)) {
  try {
    await runTestSuite({
      id: 'extras',
      testCases: [{ id: 'item-1', input: 'x' }],
      testCaseHash: ['input'],
      fn: ({ testCase }) => testCase.input,
      [name]: value,
    });
    told[name] = 'ran';
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    told[name] = error.message;
  }
}
console.log(JSON.stringify(told));
`;

/**
 * \`BaseAccuracy\` with the SDK's example mappers, overridden as its methods, and \`numOverrides\`,
 * whose examples evalgate's accuracy judge has no place for.
 */
const EXAMPLES = `import { BaseAccuracy, runTestSuite, UsageError, type EvaluationOverride } from 'evalgate/testing';

interface MyTestCase {
  input: string;
  expectedOutput: string;
}

class Accuracy extends BaseAccuracy<MyTestCase, string> {
  id = 'accuracy';
  numOverrides = Number(process.argv[2]);
  outputMapper(args: { output: string }): string {
    return args.output;
  }
  expectedOutputMapper(args: { testCase: MyTestCase }): string {
    return args.testCase.expectedOutput;
  }
  override exampleOutputMapper(args: { evaluationOverride: EvaluationOverride }): string | undefined {
    return args.evaluationOverride.outputFields[0]?.value;
  }
  override exampleExpectedOutputMapper(args: { evaluationOverride: EvaluationOverride }): string | undefined {
    return args.evaluationOverride.inputFields.find((f) => f.name === 'expectedOutput')?.value;
  }
}

try {
  const result = await runTestSuite<MyTestCase, string>({
    id: 'accuracy',
    testCases: [{ input: 'hello world', expectedOutput: 'hello world' }],
    testCaseHash: ['input'],
    evaluators: [new Accuracy()],
    fn: ({ testCase }: { testCase: MyTestCase }) => testCase.input,
  });
  console.log(JSON.stringify({ verdict: result.verdict }));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.log(JSON.stringify({ usageError: error.message }));
}
`;

/**
 * An evaluator that sets no \`maxConcurrency\`, in a suite that lets 30 cases run at once: the
 * SDK's base class holds it to 10 calls in flight.
 */
const DEFAULT_LIMIT = `import { BaseTestEvaluator, runTestSuite, type Evaluation } from 'evalgate/testing';

interface MyTestCase {
  input: string;
}

let inFlight = 0;
let most = 0;

class Slow extends BaseTestEvaluator<MyTestCase, string> {
  id = 'slow';
  async evaluateTestCase(): Promise<Evaluation> {
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 20));
    inFlight--;
    return { score: 1 };
  }
}

await runTestSuite<MyTestCase, string>({
  id: 'limits',
  testCases: Array.from({ length: 30 }, (_, i) => ({ input: 'case ' + i })),
  testCaseHash: ['input'],
  evaluators: [new Slow()],
  fn: ({ testCase }: { testCase: MyTestCase }) => testCase.input,
  maxTestCaseConcurrency: 30,
});
console.log(JSON.stringify({ most }));
`;

/** \`BaseAssertions\` whose rules carry metadata typed by an interface, as the SDK allows. */
const ASSERTIONS = `import { BaseAssertions, runTestSuite, type Assertion } from 'evalgate/testing';

interface MyTestCase {
  input: string;
  required: string[];
}

interface Found {
  index: number;
}

class Rules extends BaseAssertions<MyTestCase, string> {
  id = 'rules';
  evaluateAssertions(args: { testCase: MyTestCase; output: string }): Assertion[] {
    return args.testCase.required.map((criterion) => {
      const found: Found = { index: args.output.indexOf(criterion) };
      return { criterion, passed: found.index >= 0, required: true, metadata: found };
    });
  }
}

const result = await runTestSuite<MyTestCase, string>({
  id: 'rules',
  testCases: [{ input: 'hello world', required: ['world'] }],
  testCaseHash: ['input'],
  evaluators: [new Rules()],
  fn: ({ testCase }: { testCase: MyTestCase }) => testCase.input,
});
console.log(JSON.stringify(result.runs[0]?.cases[0]?.evaluations[0]?.metadata?.assertions));
`;

/** Lines of the override store: an older one, then a newer one whose score is no choice now. */
const STORE = [
  {
    evaluator: 'no-zeros',
    suite: 'zeros',
    caseId: 'a1',
    createdAt: '2026-01-01T00:00:00.000Z',
    originalScore: { value: 1 },
    overrideScore: { value: 0 },
    inputFields: { input: '120' },
    outputFields: { output: '120' },
    comments: 'ends in a zero',
  },
  {
    evaluator: 'no-zeros',
    suite: 'zeros',
    caseId: 'b2',
    createdAt: '2026-01-02T00:00:00.000Z',
    originalScore: { value: 1 },
    overrideScore: { value: 0.5 },
    inputFields: { input: '105' },
    outputFields: { output: '105' },
  },
]
  .map((line) => JSON.stringify(line))
  .join('\n');

let project = '';

/** Runs one port under tsx against the loopback judge; its last stdout line, parsed. */
async function runPort(
  file: string,
  args: string[] = [],
): Promise<{ code: number | null; last: unknown }> {
  const result = await runNode(['--import', 'tsx', file, ...args], {
    cwd: project,
    env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test' },
  });
  const line = result.stdout.trim().split('\n').at(-1) ?? '';
  try {
    return { code: result.code, last: JSON.parse(line) };
  } catch {
    return assert.fail(`${file} printed no summary:\n${result.stdout}\n${result.stderr}`);
  }
}

/** The user message of each chat request the judges sent. */
function prompts(): string[] {
  return server.requests.map((request) => {
    const messages = (request.body as { messages: { role: string; content: string }[] }).messages;
    return messages.find((m) => m.role === 'user')?.content ?? '';
  });
}

describe('suites written for the real Autoblocks JS SDK, ported by their import', () => {
  before(() => {
    project = shippedConsumer();
    symlinkSync(join(repoRoot, 'node_modules', 'tsx'), join(project, 'node_modules', 'tsx'), 'dir');
    writeFiles(project, {
      'overrides.ts': OVERRIDES,
      'evals-overrides.jsonl': `${STORE}\n`,
      'getters.ts': GETTERS,
      'grid.ts': GRID,
      'names.ts': NAMES,
      'sdk-only.mjs': SDK_ONLY,
      'examples.ts': EXAMPLES,
      'default-limit.ts': DEFAULT_LIMIT,
      'assertions.ts': ASSERTIONS,
    });
  });

  it('type-check in strict mode against the shipped declarations', { timeout: 120_000 }, () => {
    typeCheckShipped(project, [
      'overrides.ts',
      'getters.ts',
      'grid.ts',
      'names.ts',
      'examples.ts',
      'default-limit.ts',
    ]);
  });

  it("hands makePrompt the SDK's EvaluationOverride: named choices, field and comment lists", async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'none', choice: 'No' } }));
    const { code, last } = await runPort('overrides.ts');
    assert.deepEqual(last, { verdict: 'pass' });
    assert.equal(code, 0);
    // The newer override scored 0.5, which no choice has: left out, as the SDK does.
    assert.deepEqual(prompts(), [
      'Does 123 contain any zeros?\nEXAMPLE input: 120 | 120 | NO -> YES | output says ends in a zero',
    ]);
  });

  it("reads id, scoreChoices and a battle's criteria given as getters, as the SDK declares them", async () => {
    server.setResponder((request) => {
      const prompt = JSON.stringify(request.body);
      if (prompt.includes('FRIENDLY?'))
        return { toolArguments: { reason: 'ok', choice: 'Friendly' } };
      // The battle: the output ("hello world") wins in either order.
      const a = /<response_a>\\nhello world\\n/.test(prompt);
      return { toolArguments: { reason: 'ok', choice: a ? 'A' : 'B' } };
    });
    const { code, last } = await runPort('getters.ts');
    assert.deepEqual(last, { battle: 1, 'not-empty': 1, friendly: 1 });
    assert.equal(code, 0);
    const battles = prompts().filter((prompt) => prompt.includes('<response_a>'));
    assert.equal(battles.length, 2);
    for (const prompt of battles) assert.match(prompt, /CRITERIA: the warmer greeting/);
  });

  it('gives the grid point as the SDK types it, and no store in a suite without a grid', async () => {
    const { code, last } = await runPort('grid.ts');
    assert.equal(code, 0);
    assert.deepEqual(last, [
      'fn:a',
      'evaluator:A',
      'fn:b',
      'evaluator:B',
      'fn:default',
      'evaluator:no grid',
    ]);
  });

  it('exports the older class names and BaseEvaluator, which runs by its evaluateTestCase', async () => {
    const { code, last } = await runPort('names.ts');
    assert.equal(code, 0);
    assert.deepEqual(last, {
      scores: [
        ['has-all-substrings', 1],
        ['short', 1],
      ],
      battles: ['BaseManualBattle', 'BaseAutomaticBattle'],
    });
  });

  it('refuses each runTestSuite argument it does not take, saying what to write', async () => {
    const { last } = await runPort('sdk-only.mjs');
    const told = last as Record<string, string>;
    const expected: Record<string, RegExp> = {
      retryCount: /evalgate calls fn once per case .*: remove it, and retry inside fn/,
      serializeDatasetItemId: /no datasets on a server: remove it/,
      serializeTestCaseForHumanReview:
        /human review screen, which evalgate does not have: remove it/,
      serializeOutputForHumanReview: /human review screen, which evalgate does not have: remove it/,
      humanReviewJob: /on Autoblocks' server, which evalgate never calls: remove it/,
    };
    assert.deepEqual(Object.keys(told), Object.keys(expected));
    for (const [name, pattern] of Object.entries(expected)) {
      const message = told[name] ?? '';
      assert.match(message, new RegExp(`^runTestSuite\\(extras\\): unknown argument ${name}: `));
      assert.match(message, pattern, name);
      // The nearest name would be an argument of another meaning: it must not be offered.
      assert.doesNotMatch(message, /did you mean/, name);
    }
  });

  it('takes the example mappers of BaseAccuracy, and refuses numOverrides it cannot show', async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'same', choice: 'correct' } }));
    assert.deepEqual((await runPort('examples.ts', ['0'])).last, { verdict: 'pass' });
    const { last } = await runPort('examples.ts', ['2']);
    assert.deepEqual(last, {
      usageError:
        'runTestSuite(accuracy): evaluators[0] (Accuracy): numOverrides = 2: this judge class takes no override examples in evalgate, so exampleOutputMapper would never be called: leave numOverrides out (or 0), or extend BaseLLMJudge and show recentOverrides in makePrompt',
    });
  });

  it("holds an evaluator class that sets no maxConcurrency to the SDK's default of 10", async () => {
    const { code, last } = await runPort('default-limit.ts');
    assert.equal(code, 0);
    assert.deepEqual(last, { most: 10 });
  });

  it('takes assertion metadata typed by an interface and keeps it', async () => {
    const { code, last } = await runPort('assertions.ts');
    assert.equal(code, 0);
    assert.deepEqual(last, [
      { criterion: 'world', passed: true, required: true, metadata: { index: 6 } },
    ]);
  });
});
