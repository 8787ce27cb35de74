/**
 * An SDK judge class named from evals.yaml gets the config's judge settings, as the YAML judge
 * built-ins do: `defaults.judge` under the evaluator's `judge:`, with the class's own `model`
 * winning. End to end through `evals run` against the loopback OpenAI-compatible server.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { repoRoot, scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

const TESTING = pathToFileURL(join(repoRoot, 'src', 'testing.ts')).href;

/** A module exporting `IsFriendly` (a BaseLLMJudge), with `fields` added to the class body. */
function judgeModule(fields = ''): string {
  return [
    `import { BaseLLMJudge } from ${JSON.stringify(TESTING)};`,
    'export class IsFriendly extends BaseLLMJudge<{ input: string }, string> {',
    "  id = 'is-friendly';",
    fields,
    "  scoreChoices = [{ name: 'Friendly', value: 1 }, { name: 'Not friendly', value: 0 }];",
    '  makePrompt({ output }: { output: string }): string {',
    '    return `Is the output friendly?\\n\\n[Output]\\n${output}`;',
    '  }',
    '}',
    'export const plain = () => ({ score: 1 });',
    '',
  ].join('\n');
}

function project(evaluator: string[], fields = ''): string {
  const dir = scratch();
  writeFiles(dir, {
    'judge.ts': judgeModule(fields),
    'evals.yaml': [
      'version: 1',
      'defaults:',
      '  judge:',
      `    baseUrl: ${server.url}`,
      '    apiKey: sk-defaults',
      '    model: config-model',
      'suites:',
      '  - id: s',
      '    testset:',
      '      cases:',
      '        - { input: hi, output: "Hello there!" }',
      '    evaluators:',
      ...evaluator.map((line) => `      ${line}`),
      '',
    ].join('\n'),
  });
  return dir;
}

function friendly(): void {
  server.setResponder(() => ({ toolArguments: { reason: 'warm', choice: 'Friendly' } }));
}

describe('SDK judge classes named from evals.yaml', () => {
  it("get defaults.judge, overridden key by key by the evaluator's judge:", async () => {
    friendly();
    const dir = project([
      '- use: ./judge.ts#IsFriendly',
      '  judge: { apiKey: sk-evaluator, temperature: 0.3 }',
    ]);
    const r = await runInProcess(['run', '--no-cache'], dir);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal(server.requests.length, 1);
    const [request] = server.requests;
    assert.equal(request?.path, '/v1/chat/completions');
    assert.equal(request?.headers.authorization, 'Bearer sk-evaluator');
    const body = request?.body as { model: string; temperature: number; messages: unknown[] };
    assert.equal(body.model, 'config-model');
    assert.equal(body.temperature, 0.3);
    assert.ok(JSON.stringify(body.messages).includes('Hello there!'));
    const artifact = JSON.parse(readFileSync(join(dir, 'evals-results.json'), 'utf8')) as {
      runs: { cases: { evaluations: { score: number; usage?: { calls: number } }[] }[] }[];
    };
    const evaluation = artifact.runs[0]?.cases[0]?.evaluations[0];
    assert.equal(evaluation?.score, 1);
    assert.equal(evaluation?.usage?.calls, 1);
  });

  it("keep their own model field over the config's", async () => {
    friendly();
    const dir = project(['- use: ./judge.ts#IsFriendly'], "  override model = 'class-model';");
    const r = await runInProcess(['run', '--no-cache'], dir);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.equal((server.requests[0]?.body as { model: string }).model, 'class-model');
    assert.equal(server.requests[0]?.headers.authorization, 'Bearer sk-defaults');
  });

  it('refuse judge: on a custom evaluator that is no SDK judge class, at its line', async () => {
    const dir = project(['- use: ./judge.ts#plain', '  judge: { model: m }']);
    const r = await runInProcess(['run', '--no-cache'], dir);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^error: evals\.yaml:14:\d+ .*judge: has no effect/m);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    assert.equal(server.requests.length, 0);
  });
});
