/**
 * Judge settings are not templates: a `{{ … }}` in `defaults.judge` or an evaluator's `judge:`
 * would be sent to the server as written (every grid point asking for one "model" named
 * `{{params.m}}`), so the config is refused at load, at the value's file:line:col, saying how to
 * compare judge models instead. Nothing is called.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

/** A project whose evals.yaml is `lines`. */
function project(lines: string[]): string {
  const dir = scratch();
  writeFileSync(join(dir, 'evals.yaml'), [...lines, ''].join('\n'));
  return dir;
}

/** A judged suite over a grid `m: [a, b]`; `judge` is the evaluator's `judge:` line, if any. */
function judged(defaults: string[], judge: string | undefined, use = 'llm-judge'): string[] {
  return [
    'version: 1',
    'defaults:',
    '  judge:',
    `    baseUrl: "${server.url}"`,
    '    apiKey: sk-judge-template-123456',
    ...defaults.map((line) => `    ${line}`),
    'suites:',
    '  - id: j',
    '    testset: { cases: [ { q: a, output: GOOD } ] }',
    '    grid: { m: [a, b] }',
    '    evaluators:',
    '      - id: helpful',
    `        use: ${use}`,
    ...(judge !== undefined ? [`        ${judge}`] : []),
    '        with: { prompt: "Is {{output}} good?", choices: { "yes": 1, "no": 0 } }',
  ];
}

const REFUSED = /judge settings are not templates: they are fixed per evaluator/;
const HOW = /one evaluator per judge model, each with its own id/;

describe('templates in judge settings', () => {
  it("an evaluator's judge.model naming a grid key is refused at its line and column", async () => {
    const dir = project(judged([], "judge: { model: '{{params.m}}' }"));
    for (const command of [['validate'], ['run', '-o', 'r.json', '--no-cache']]) {
      const result = await runInProcess(command, dir);
      assert.equal(result.code, 2, result.stdout + result.stderr);
      assert.match(
        result.stderr,
        /evals\.yaml:13:25 {2}suites\[0\]\.evaluators\[0\]\.judge\.model: /,
      );
      assert.match(result.stderr, REFUSED);
      assert.match(result.stderr, HOW);
    }
    assert.equal(server.requests.length, 0);
  });

  it('a key the grid does not have is refused the same way', async () => {
    const dir = project(judged([], "judge: { model: '{{params.nosuchkey}}' }"));
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /judge\.model: judge settings are not templates/);
  });

  it('in defaults.judge, in any setting (the key is not quoted back)', async () => {
    const dir = project(
      judged(['model: "judge-{{ params.m }}"', "headers: { x-team: '{{ case.q }}' }"], undefined),
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /evals\.yaml:6:12 {2}defaults\.judge\.model: /);
    assert.match(result.stderr, /evals\.yaml:7:24 {2}defaults\.judge\.headers\.x-team: /);
    assert.equal(result.stderr.match(REFUSED)?.length, 1);
    assert.equal(result.stderr.match(/judge settings are not templates/g)?.length, 2);
    assert.doesNotMatch(result.stderr, /sk-judge-template/);
  });

  it("on a module evaluator's judge: too", async () => {
    const dir = project(
      judged(['model: m'], "judge: { embeddingModel: '{{params.m}}' }", './judge.ts#J'),
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr,
      /evaluators\[0\]\.judge\.embeddingModel: judge settings are not templates/,
    );
  });

  it('fixed judge settings, one evaluator per judge model, stay valid', async () => {
    const lines = judged([], 'judge: { model: judge-a }');
    lines.push(
      '      - id: helpful-b',
      '        use: llm-judge',
      '        judge: { model: judge-b }',
      '        with: { prompt: "Is {{output}} good?", choices: { "yes": 1, "no": 0 } }',
    );
    const result = await runInProcess(['validate'], project(lines));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /is valid/);
  });
});
