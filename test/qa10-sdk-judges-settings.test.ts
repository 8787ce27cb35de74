/**
 * QA round 10, M3: a `BaseLLMJudge` whose `scoreChoices` is wrong is told so in the words of the
 * class — the evaluator's id and `scoreChoices[i]`, not evalgate's internal `llm-judge` option
 * `choices` — and a repeated name is called a duplicate. From evals.yaml the mistake is one
 * load-time error at the evaluator's line, before any case or model call.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import { BaseLLMJudge, runTestSuite, type ScoreChoice } from 'evalgate/testing';
import { repoRoot, scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

interface Case {
  input: string;
}

class Judge extends BaseLLMJudge<Case, string> {
  constructor(
    public id: string,
    public scoreChoices: ScoreChoice[],
  ) {
    super();
  }
  makePrompt({ output }: { output: string }): string {
    return `Is it good? ${output}`;
  }
}

/** What runTestSuite refuses `judge` with: its settings are checked before any case runs. */
async function refusalOf(judge: Judge): Promise<string> {
  const run = runTestSuite<Case, string>({
    id: 'settings',
    testCases: [{ input: 'a' }, { input: 'b' }],
    testCaseHash: ['input'],
    fn: ({ testCase }) => testCase.input,
    evaluators: [judge],
    judge: {
      client: createJudgeClient({ baseUrl: server.url, apiKey: 'sk', cacheDir: null, env: {} }),
    },
    quiet: true,
    setExitCode: false,
  });
  const error = await run.then(
    () => assert.fail('runTestSuite ran a judge with wrong scoreChoices'),
    (thrown: unknown) => thrown,
  );
  assert.ok(error instanceof Error);
  assert.equal(error.name, 'UsageError');
  return error.message;
}

describe("BaseLLMJudge's scoreChoices, when wrong (QA10 M3)", () => {
  it('names the evaluator and scoreChoices[i].value for a score out of [0, 1], before any case', async () => {
    const message = await refusalOf(
      new Judge('out-of-range', [
        { name: 'great', value: 5 },
        { name: 'bad', value: 0 },
      ]),
    );
    assert.equal(
      message,
      'runTestSuite(settings): evaluators[0] (Judge): out-of-range: scoreChoices[0].value (the score of "great") must be a number in [0, 1], found 5',
    );
    assert.equal(server.requests.length, 0);
  });

  it('calls a repeated name a duplicate, not "found 1"', async () => {
    const message = await refusalOf(
      new Judge('dup', [
        { name: 'a', value: 1 },
        { name: 'a', value: 0 },
      ]),
    );
    assert.match(
      message,
      /dup: scoreChoices\[1\]\.name "a" is a duplicate of scoreChoices\[0\]\.name: each choice needs a name of its own$/,
    );
    assert.equal(server.requests.length, 0);
  });

  it('is one load-time error at the evaluator in evals.yaml, before any case', async () => {
    const testing = pathToFileURL(join(repoRoot, 'src', 'testing.ts')).href;
    const dir = scratch();
    writeFiles(dir, {
      'judge.ts': [
        `import { BaseLLMJudge } from ${JSON.stringify(testing)};`,
        'export class IsFriendly extends BaseLLMJudge<{ input: string }, string> {',
        "  id = 'is-friendly';",
        "  scoreChoices = [{ name: 'Friendly', value: 1 }, { name: 'Friendly', value: 0 }];",
        "  makePrompt(): string { return 'Is it friendly?'; }",
        '}',
        '',
      ].join('\n'),
      'evals.yaml': [
        'version: 1',
        'defaults:',
        '  judge:',
        `    baseUrl: ${server.url}`,
        '    apiKey: sk-test',
        '    model: judge-mini',
        'suites:',
        '  - id: s',
        '    testset:',
        '      cases:',
        '        - { input: hi, output: "Hello!" }',
        '        - { input: bye, output: "Bye!" }',
        '    evaluators:',
        '      - use: ./judge.ts#IsFriendly',
        '',
      ].join('\n'),
    });
    const r = await runInProcess(['run', '--no-cache'], dir);
    assert.equal(r.code, 2, r.stderr + r.stdout);
    assert.match(
      r.stderr,
      /^error: evals\.yaml:14:\d+ +suites\[0\]\.evaluators\[0\]\.use: IsFriendly: scoreChoices\[1\]\.name "Friendly" is a duplicate of scoreChoices\[0\]\.name/m,
    );
    assert.doesNotMatch(r.stderr, /llm-judge|choices:/);
    assert.equal(server.requests.length, 0);
  });
});
