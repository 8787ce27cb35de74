/**
 * evals.yaml drives an SDK class by the methods the run calls on it, `sdkInContext` and
 * `sdkPreload`, named so that a subclass's own `inContext(...)` or `preload()` helper is left
 * alone. A class from a module's own, older copy of evalgate has them under their former names,
 * `inContext` and `preload`: those are called only on a class without `sdkInContext`.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, beforeEach, describe, it } from 'node:test';
import { repoRoot, scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { readArtifact } from './helpers/read-artifact.ts';
import { startOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

const TESTING = pathToFileURL(join(repoRoot, 'src', 'testing.ts')).href;

let server: OpenAiServer;
before(async () => {
  server = await startOpenAiServer();
});
after(() => server.close());
beforeEach(() => {
  server.reset();
  server.setDefault({ toolArguments: { reason: 'warm', choice: 'Friendly' } });
});

const MODULE = [
  `import { BaseLLMJudge } from ${JSON.stringify(TESTING)};`,
  'class Friendly extends BaseLLMJudge<{ input: string }, string> {',
  "  id = 'friendly';",
  '  loads = 0;',
  "  scoreChoices = [{ name: 'Friendly', value: 1 }, { name: 'Not friendly', value: 0 }];",
  '  /** Helpers of its own, with the names the run once called. */',
  '  preload(): string { this.loads += 1; return "Is the output friendly?"; }',
  '  inContext(text: string): string { return `${text} (${this.loads} loads)`; }',
  '  makePrompt({ output }: { output: string }): string {',
  '    return `${this.inContext(this.preload())}\\n\\n[Output]\\n${output}`;',
  '  }',
  '}',
  'export const friendly = new Friendly();',
  '',
  '/** As an older copy of evalgate shaped its classes: no sdkInContext, no sdkPreload. */',
  'class Older {',
  "  id = 'older';",
  '  preloads = 0;',
  '  seen: string[] = [];',
  '  useContext(): void {}',
  '  preload(): void { this.preloads += 1; }',
  '  inContext<T>(context: { evaluatorId?: string }, call: () => T): T {',
  "    this.seen.push(context.evaluatorId ?? '?');",
  '    return call();',
  '  }',
  '  evaluateTestCase() {',
  '    return { score: 1, metadata: { preloads: this.preloads, seen: [...this.seen] } };',
  '  }',
  '}',
  'export const older = new Older();',
  '',
].join('\n');

function project(use: string): string {
  const dir = scratch();
  writeFiles(dir, {
    'judges.ts': MODULE,
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset:',
      '      cases:',
      '        - { input: hi, output: hello }',
      '    evaluators:',
      `      - use: ./judges.ts#${use}`,
      `        judge: { baseUrl: ${server.url}, apiKey: sk-test, model: entry-model }`,
      '',
    ].join('\n'),
  });
  return dir;
}

describe('evals.yaml and the methods it calls on an SDK class', () => {
  it("leaves a current class's own preload and inContext helpers to it", async () => {
    const dir = project('friendly');
    const r = await runInProcess(['run', '--no-cache', '-o', 'r.json'], dir);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const evaluation = readArtifact(join(dir, 'r.json')).runs[0]?.cases[0]?.evaluations[0];
    assert.deepEqual([evaluation?.score, evaluation?.error], [1, null]);
    // The entry's judge settings reached the case (through sdkInContext), and the prompt was
    // made with the helpers, preload called once: by makePrompt, not by the run.
    const body = server.requests[0]?.body as { model: string; messages: { content: string }[] };
    assert.equal(body.model, 'entry-model');
    const prompt = body.messages.map((message) => message.content).join('\n');
    assert.ok(prompt.includes('Is the output friendly? (1 loads)'), prompt);
  });

  it("calls an older copy's class through inContext and preload", async () => {
    const dir = project('older');
    const r = await runInProcess(['run', '--no-cache', '-o', 'r.json'], dir);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    const evaluation = readArtifact(join(dir, 'r.json')).runs[0]?.cases[0]?.evaluations[0];
    // Preloaded once at load (inside inContext), then the case run inside inContext.
    assert.deepEqual(evaluation?.metadata, { preloads: 1, seen: ['older', 'older'] });
  });
});
