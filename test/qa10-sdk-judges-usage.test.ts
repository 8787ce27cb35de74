/**
 * QA round 10, H7: an SDK judge class named in evals.yaml (`use: ./judge.ts#IsFriendly`) keeps
 * the usage and the raw answer of a call whose answer it rejects, as the built-in `llm-judge`
 * does. A user's module imports its own copy of evalgate (the installed package, while the CLI
 * runs its bundle), so the class's `EvaluationError` is not the run's class: the test gives the
 * module a copy of src/ of its own. Against the loopback OpenAI-compatible server, the requests
 * it received are counted against the artifact's usage.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot, scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

interface Usage {
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

interface Artifact {
  runs: {
    summary: { usage?: Usage };
    cases: {
      data: { input: string };
      evaluations: {
        evaluator: string;
        error: string | null;
        metadata: Record<string, unknown> | null;
        usage?: Usage;
      }[];
    }[];
  }[];
}

/** A project whose module imports `BaseLLMJudge` from a copy of evalgate of its own. */
function project(): string {
  const dir = scratch();
  const copy = join(dir, 'evalgate-copy');
  cpSync(join(repoRoot, 'src'), join(copy, 'src'), { recursive: true });
  symlinkSync(join(repoRoot, 'schemas'), join(copy, 'schemas'), 'dir');
  symlinkSync(join(repoRoot, 'package.json'), join(copy, 'package.json'));
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFiles(dir, {
    'judge.ts': [
      "import { BaseLLMJudge } from './evalgate-copy/src/testing.ts';",
      'export class IsFriendly extends BaseLLMJudge<{ input: string }, string> {',
      "  id = 'is-friendly';",
      "  scoreChoices = [{ name: 'Friendly', value: 1 }, { name: 'Not friendly', value: 0 }];",
      '  makePrompt({ output }: { output: string }): string {',
      '    return `Is it friendly? ${output}`;',
      '  }',
      '}',
      'export function echo({ testCase }: { testCase: { input: string } }): string {',
      '  return testCase.input;',
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
      '    maxRetries: 0',
      'suites:',
      '  - id: s',
      '    testset:',
      '      cases:',
      '        - { input: "hello" }',
      '        - { input: "x MODE:offlist" }',
      '    function: ./judge.ts#echo',
      '    evaluators:',
      '      - use: ./judge.ts#IsFriendly',
      '      - id: builtin',
      '        use: llm-judge',
      '        with: { prompt: "Is {{output}} ok?", choices: { "Friendly": 1, "Not friendly": 0 } }',
      '    gate: { minPassRate: 0 }',
      '',
    ].join('\n'),
  });
  return dir;
}

describe('an SDK judge class from evals.yaml whose answer is rejected (QA10 H7)', () => {
  it('keeps the usage and the raw answer of the call, as llm-judge does', async (t) => {
    // The judge answers "Maybe", which is no offered choice, for the case asking for it.
    server.setResponder((request) =>
      request.text.includes('MODE:offlist')
        ? { toolArguments: { reason: 'unsure', choice: 'Maybe' } }
        : { toolArguments: { reason: 'warm', choice: 'Friendly' } },
    );
    const dir = project();
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const r = await runInProcess(['run', '--no-cache', '-o', 'results.json'], dir, {
      OPENAI_API_KEY: '',
      OPENAI_BASE_URL: '',
    });
    assert.ok(r.code === 0 || r.code === 1, r.stderr + r.stdout);
    const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Artifact;
    const [run] = artifact.runs;
    assert.ok(run !== undefined);
    const offlist = run.cases.find((c) => c.data.input.includes('offlist'));
    const rejected = offlist?.evaluations.find((e) => e.evaluator === 'IsFriendly');
    assert.match(
      rejected?.error ?? '',
      /the judge chose "Maybe", not one of "Friendly", "Not friendly"/,
    );
    assert.equal(rejected?.usage?.calls, 1, 'the rejected call is counted on its evaluation');
    assert.equal(rejected?.usage?.promptTokens, 42);
    assert.equal(rejected?.usage?.completionTokens, 7);
    assert.equal(rejected?.metadata?.raw, JSON.stringify({ reason: 'unsure', choice: 'Maybe' }));

    // Every request the server got is in the summary: 2 cases × 2 judges.
    assert.equal(server.requests.length, 4);
    assert.equal(run.summary.usage?.calls, server.requests.length);
    assert.equal(run.summary.usage?.promptTokens, 42 * server.requests.length);
    assert.match(r.stdout, /model calls: 4\b/);
  });
});
