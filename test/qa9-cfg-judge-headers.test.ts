/**
 * Judge `headers:` (of `defaults.judge` and of an evaluator's `judge:`) are checked when the
 * config loads, as a target's are: a name fetch refuses, a line break or a character beyond
 * U+00FF in a value is a config problem at its file:line:col (exit 2, the value never shown),
 * found by `validate` and by `run` before any model is called.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

const ROWS = [{ q: 'a', output: 'an answer' }];

/** A project whose judge settings are `defaults` (under `defaults.judge`) and `own` (its `judge:`). */
function judgeProject(defaults: readonly string[], own: readonly string[]): string {
  return jsonlProject(
    ROWS,
    [
      'evaluators:',
      '  - id: helpful',
      '    use: llm-judge',
      ...(own.length > 0 ? ['    judge:', ...own.map((line) => `      ${line}`)] : []),
      '    with: { prompt: "ok? {{ output }}", choices: { "yes": 1, "no": 0 } }',
    ],
    {},
    [
      'defaults:',
      '  judge:',
      '    model: j',
      `    baseUrl: ${server.url}`,
      ...defaults.map((line) => `    ${line}`),
    ],
  );
}

describe('judge headers are checked at load', () => {
  it('defaults.judge.headers: a bad name at its key, a bad value at the value, never quoted', async () => {
    const dir = judgeProject(
      ['headers:', '  bad name: v', '  x-a: "line1\\nqa9-SECRET-VALUE"', '  x-u: "café-日本"'],
      [],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stdout);
    assert.match(
      result.stderr,
      /evals\.yaml:7:7 {2}defaults\.judge\.headers: header name "bad name" is not valid/,
    );
    assert.match(
      result.stderr,
      /evals\.yaml:8:12 {2}defaults\.judge\.headers\.x-a: header x-a: its value has a line break at character 6, which a header cannot carry/,
    );
    assert.match(
      result.stderr,
      /evals\.yaml:9:12 {2}defaults\.judge\.headers\.x-u: header x-u: its value has U\+65E5 at character 6, outside Latin-1/,
    );
    assert.doesNotMatch(result.stderr, /qa9-SECRET-VALUE/);
  });

  it("an evaluator's judge.headers, refused by run before any model is called", async () => {
    const dir = judgeProject([], ['headers: { "x y": v }']);
    const result = await runInProcess(['run'], dir);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(
      result.stderr,
      /evals\.yaml:13:22 {2}suites\[0\]\.evaluators\[0\]\.judge\.headers: header name "x y" is not valid/,
    );
    assert.equal(server.requests.length, 0);
  });
});
