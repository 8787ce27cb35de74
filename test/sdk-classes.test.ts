/**
 * The Autoblocks SDK's out-of-box evaluator classes, written as seed 003's examples write them
 * (TypeScript spelling, imported from `evalgate/testing`) and run through `runTestSuite`; the
 * judges answer from the loopback OpenAI-compatible server.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import {
  BaseAccuracy,
  BaseAssertions,
  BaseAutomaticBattle,
  BaseHasAllSubstrings,
  BaseIsEquals,
  BaseIsValidJSON,
  BaseIsValidJson,
  BaseLLMJudge,
  BaseManualBattle,
  BaseNSFW,
  BaseToxicity,
  runTestSuite,
  type Assertion,
  type EvaluationOverride,
  type RunTestSuiteResult,
  type ScoreChoice,
  type SuiteJudgeSettings,
  type TestEvaluator,
} from 'evalgate/testing';
import {
  useOpenAiServer,
  type OpenAiServer,
  type RecordedRequest,
} from './helpers/openai-server.ts';

let server: OpenAiServer;
const tempDirs: string[] = [];
useOpenAiServer(
  (started) => (server = started),
  () => Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true }))),
);

function judge(): SuiteJudgeSettings {
  return {
    client: createJudgeClient({ baseUrl: server.url, apiKey: 'sk-test', cacheDir: null, env: {} }),
  };
}

/** The text of the last message a judge request sent. */
function promptOf(request: RecordedRequest): string {
  const body = request.body as { messages?: { content?: unknown }[] };
  const last = body.messages?.at(-1)?.content;
  return typeof last === 'string' ? last : '';
}

/** Answers every judge call with `decide(prompt)` as its verdict. */
function verdicts(decide: (prompt: string) => string): void {
  server.setResponder((request) => ({
    toolArguments: { reason: 'scripted', choice: decide(promptOf(request)) },
  }));
}

interface SeedCase {
  input: string;
  expectedOutput?: string;
}

/** Runs a seed suite whose `fn` echoes the input, as every example of seed 003 does. */
function runEcho<T extends SeedCase>(
  testCases: T[],
  evaluators: TestEvaluator<T, string>[],
  extra: { baselinesDir?: string; id?: string } = {},
): Promise<RunTestSuiteResult> {
  return runTestSuite<T, string>({
    id: extra.id ?? 'my-test-suite',
    testCases,
    testCaseHash: ['input'],
    fn: ({ testCase }) => testCase.input,
    evaluators,
    judge: judge(),
    quiet: true,
    setExitCode: false,
    // Recorded as before whether or not the tests run in CI, where a plain run records nothing.
    ...(extra.baselinesDir !== undefined
      ? { baselinesDir: extra.baselinesDir, updateBaselines: true }
      : {}),
  });
}

/** `evaluator id → score` of each case, in case order. */
function scores(result: RunTestSuiteResult): Record<string, number | null>[] {
  return (result.runs[0]?.cases ?? []).map((c) =>
    Object.fromEntries(c.evaluations.map((e) => [e.evaluator, e.score])),
  );
}

describe('rule-based SDK classes (seed 003)', () => {
  it('BaseIsEquals scores 1 for an equal output and 0 otherwise, reporting both sides', async () => {
    class IsEquals extends BaseIsEquals<SeedCase, string> {
      id = 'is-equals';
      testCaseMapper({ testCase }: { testCase: SeedCase }): string {
        return testCase.expectedOutput ?? '';
      }
      outputMapper({ output }: { output: string }): string {
        return output;
      }
    }
    const result = await runEcho(
      [
        { input: 'hello world', expectedOutput: 'hello world' },
        { input: 'hi world', expectedOutput: 'hello world' },
      ],
      [new IsEquals()],
    );
    assert.deepEqual(scores(result), [{ 'is-equals': 1 }, { 'is-equals': 0 }]);
    const first = result.runs[0]?.cases[0]?.evaluations[0];
    assert.deepEqual(first?.threshold, { gte: 1 });
    assert.equal(first?.metadata?.expectedOutput, 'hello world');
    assert.equal(first?.metadata?.actualOutput, 'hello world');
    assert.equal(result.verdict, 'fail');
  });

  it('BaseIsValidJSON (and its TypeScript-SDK spelling) scores parseable output 1', async () => {
    class IsValidJSON extends BaseIsValidJSON<SeedCase, string> {
      id = 'is-valid-json';
      outputMapper({ output }: { output: string }): string {
        return output;
      }
    }
    class IsValidJson extends BaseIsValidJson<SeedCase, string> {
      id = 'is-valid-json-ts';
      outputMapper({ output }: { output: string }): string {
        return output;
      }
    }
    const result = await runEcho(
      [{ input: 'hello world' }, { input: '{"hello": "world"}' }],
      [new IsValidJSON(), new IsValidJson()],
    );
    assert.deepEqual(scores(result), [
      { 'is-valid-json': 0, 'is-valid-json-ts': 0 },
      { 'is-valid-json': 1, 'is-valid-json-ts': 1 },
    ]);
  });

  it('BaseHasAllSubstrings scores 1 only when every mapped substring occurs', async () => {
    interface Case extends SeedCase {
      expectedSubstrings: string[];
    }
    class HasAllSubstrings extends BaseHasAllSubstrings<Case, string> {
      id = 'has-all-substrings';
      testCaseMapper({ testCase }: { testCase: Case }): string[] {
        return testCase.expectedSubstrings;
      }
      outputMapper({ output }: { output: string }): string {
        return output;
      }
    }
    const result = await runEcho(
      [
        { input: 'hello world', expectedSubstrings: ['hello', 'world'] },
        { input: 'foo', expectedSubstrings: ['bar'] },
      ],
      [new HasAllSubstrings()],
    );
    assert.deepEqual(scores(result), [{ 'has-all-substrings': 1 }, { 'has-all-substrings': 0 }]);
    assert.deepEqual(result.runs[0]?.cases[1]?.evaluations[0]?.metadata, {
      missingSubstrings: ['bar'],
    });
  });

  it('BaseAssertions passes when the required rules pass, keeps the rubric, and skips a case without rules', async () => {
    interface Case extends SeedCase {
      assertions?: { criterion: string; required: boolean }[];
    }
    class AssertionsEvaluator extends BaseAssertions<Case, string> {
      id = 'assertions';
      evaluateAssertions({ testCase, output }: { testCase: Case; output: string }): Assertion[] {
        return (testCase.assertions ?? []).map((a) => ({
          criterion: a.criterion,
          passed: output.includes(a.criterion),
          required: a.required,
        }));
      }
    }
    const result = await runEcho(
      [
        {
          input: 'hello world',
          assertions: [
            { criterion: 'hello', required: true },
            { criterion: 'world', required: true },
            { criterion: 'hi', required: false },
          ],
        },
        { input: 'no rules here' },
      ],
      [new AssertionsEvaluator()],
    );
    const [graded, skipped] = result.runs[0]?.cases ?? [];
    assert.equal(graded?.evaluations[0]?.score, 1);
    assert.deepEqual(graded?.evaluations[0]?.metadata?.assertions, [
      { criterion: 'hello', passed: true, required: true },
      { criterion: 'world', passed: true, required: true },
      { criterion: 'hi', passed: false, required: false },
    ]);
    assert.deepEqual(skipped?.evaluations, [], 'a case without rules gets no evaluation');
    assert.equal(skipped?.passed, true, 'a skipped evaluation is not a failure');
    assert.equal(result.verdict, 'pass');
  });
});

describe('LLM-judge SDK classes (seed 003) against the loopback server', () => {
  it('BaseLLMJudge asks makePrompt and scores the chosen ScoreChoice', async () => {
    verdicts((prompt) => (prompt.includes('I hate you') ? 'Not friendly' : 'Friendly'));
    const seen: EvaluationOverride[][] = [];
    class IsFriendly extends BaseLLMJudge<SeedCase, string> {
      id = 'is-friendly';
      override threshold = { gte: 1 };
      override model = 'judge-model';
      scoreChoices: ScoreChoice[] = [
        { name: 'Friendly', value: 1 },
        { name: 'Not friendly', value: 0 },
      ];
      makePrompt(args: {
        testCase: SeedCase;
        output: string;
        recentOverrides: EvaluationOverride[];
      }): string {
        seen.push(args.recentOverrides);
        return `Is the output friendly?\n\n[Output]\n${args.output}`;
      }
    }
    const result = await runEcho(
      [{ input: 'Hi how are you?' }, { input: 'I hate you!' }],
      [new IsFriendly()],
    );
    assert.deepEqual(scores(result), [{ 'is-friendly': 1 }, { 'is-friendly': 0 }]);
    const requests = server.requests.filter((r) => r.path.endsWith('/chat/completions'));
    assert.equal(requests.length, 2);
    assert.ok(requests.every((r) => (r.body as { model?: string }).model === 'judge-model'));
    assert.ok(requests.some((r) => promptOf(r).includes('[Output]\nI hate you!')));
    assert.deepEqual(seen, [[], []], 'no override store: the list is empty');
    const usage = result.runs[0]?.cases[0]?.evaluations[0]?.usage;
    assert.equal(usage?.calls, 1, 'judge calls are accounted as the built-in accounts them');
  });

  it('BaseAccuracy, BaseNSFW and BaseToxicity score from their verdicts with gpt-4o by default', async () => {
    verdicts((prompt) => {
      if (prompt.includes('<reference>')) return 'correct';
      return prompt.includes('I hate you') ? 'unsafe' : 'safe';
    });
    class Accuracy extends BaseAccuracy<SeedCase, string> {
      id = 'accuracy';
      outputMapper({ output }: { output: string }): string {
        return output;
      }
      expectedOutputMapper({ testCase }: { testCase: SeedCase }): string {
        return testCase.expectedOutput ?? '';
      }
    }
    class NSFW extends BaseNSFW<SeedCase, string> {
      id = 'nsfw';
      outputMapper({ output }: { output: string }): string {
        return output;
      }
    }
    class Toxicity extends BaseToxicity<SeedCase, string> {
      id = 'toxicity';
      outputMapper({ output }: { output: string }): string {
        return output;
      }
    }
    const result = await runEcho(
      [
        { input: 'Hi how are you?', expectedOutput: 'Hi how are you?' },
        { input: 'I hate you!', expectedOutput: 'I hate you!' },
      ],
      [new Accuracy(), new NSFW(), new Toxicity()],
    );
    assert.deepEqual(scores(result), [
      { accuracy: 1, nsfw: 1, toxicity: 1 },
      { accuracy: 1, nsfw: 0, toxicity: 0 },
    ]);
    const models = server.requests.map((r) => (r.body as { model?: string }).model);
    assert.ok(models.length === 6 && models.every((m) => m === 'gpt-4o'), String(models));
  });

  it('BaseManualBattle scores a win 1 when both orders prefer the output', async () => {
    // The judge prefers whichever response says "hello world".
    verdicts((prompt) =>
      /<response_a>\nhello world\n/.test(prompt)
        ? 'A'
        : /<response_b>\nhello world\n/.test(prompt)
          ? 'B'
          : 'tie',
    );
    interface Case extends SeedCase {
      expectedOutput: string;
    }
    class Battle extends BaseManualBattle<Case, string> {
      id = 'battle';
      override criteria = 'Choose the best greeting.';
      outputMapper({ output }: { output: string }): string {
        return output;
      }
      baselineMapper({ testCase }: { testCase: Case }): string {
        return testCase.expectedOutput;
      }
    }
    const result = await runEcho(
      [{ input: 'hello world', expectedOutput: 'hi world' }],
      [new Battle()],
    );
    assert.deepEqual(scores(result), [{ battle: 1 }]);
    assert.ok(server.requests.every((r) => promptOf(r).includes('Choose the best greeting.')));
    assert.deepEqual(result.runs[0]?.cases[0]?.evaluations[0]?.threshold, { gte: 0.5 });
  });

  it('BaseAutomaticBattle records the first output as the baseline (no evaluation, as in the SDK), then battles against it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalgate-sdk-battle-'));
    tempDirs.push(dir);
    class Battle extends BaseAutomaticBattle<SeedCase, string> {
      id = 'battle';
      override criteria = 'Choose the best greeting.';
      outputMapper({ output }: { output: string }): string {
        return output;
      }
    }
    const first = await runEcho([{ input: 'hello world' }], [new Battle()], { baselinesDir: dir });
    // The SDK's battle returns no evaluation for a case it records: not a tie with itself.
    assert.deepEqual(scores(first), [{}]);
    // A suite of battles alone judged nothing on its first run: it passes, saying so.
    assert.equal(first.verdict, 'pass');
    assert.deepEqual(
      first.runs[0]?.gate.conditions.find((c) => c.name === 'judged'),
      {
        name: 'judged',
        expected: 'at least 1 case evaluated',
        actual:
          'baselines recorded for 1 case; nothing judged yet (the next run judges against them)',
        passed: true,
      },
    );
    assert.deepEqual(first.runs[0]?.cases[0]?.recordedBaseline, ['battle']);
    assert.equal(server.requests.length, 0, 'recording calls no model');
    const file = JSON.parse(
      await readFile(join(dir, 'battles', 'my-test-suite', 'battle.json'), 'utf8'),
    ) as { baselines: Record<string, { output: unknown }> };
    assert.deepEqual(
      Object.values(file.baselines).map((b) => b.output),
      ['hello world'],
    );

    verdicts(() => 'tie');
    const second = await runEcho([{ input: 'hello world' }], [new Battle()], { baselinesDir: dir });
    assert.deepEqual(scores(second), [{ battle: 0.5 }]);
    assert.equal(server.requests.length, 2, 'a battle is judged in both orders');
  });
});
