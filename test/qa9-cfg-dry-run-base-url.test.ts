/**
 * `evals run --dry-run` says where model calls will go when a model target or a built-in judge
 * has no `baseUrl:` and takes it from `OPENAI_BASE_URL`, and that the URL came from there; a
 * judge's own (or `defaults.judge`'s) `baseUrl:` is shown as a model target's is. The URL is
 * shown without its query, no key is printed, and nothing is called.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

const ROWS = [{ q: 'a' }];
const JUDGE = [
  'evaluators:',
  '  - id: helpful',
  '    use: llm-judge',
  '    with: { prompt: "ok? {{ output }}", choices: { "yes": 1, "no": 0 } }',
];
const MODEL_TARGET = ['target: { type: model, model: m, prompt: "{{ case.q }}" }'];

describe('evals run --dry-run shows the base URL taken from OPENAI_BASE_URL', () => {
  it('for a model target and a judge without baseUrl:, saying it came from OPENAI_BASE_URL', async () => {
    const dir = jsonlProject(ROWS, [...MODEL_TARGET, ...JUDGE], {}, [
      'defaults: { judge: { model: j } }',
    ]);
    const result = await runInProcess(['run', '--dry-run'], dir, { OPENAI_BASE_URL: server.url });
    assert.equal(result.code, 0, result.stderr);
    const at = `at ${server.url} from OPENAI_BASE_URL`;
    assert.match(result.stdout, new RegExp(`^s: model m ${escape(at)}$`, 'm'));
    assert.match(
      result.stdout,
      new RegExp(`^ {2}evaluators {2}helpful \\(llm-judge ${escape(at)}\\)$`, 'm'),
    );
    assert.equal(server.requests.length, 0);
  });

  it("a judge's own baseUrl: and that of defaults.judge are shown as a model target's is", async () => {
    const choices = 'with: { prompt: "ok?", choices: { "yes": 1, "no": 0 } }';
    const dir = jsonlProject(
      ROWS,
      [
        'evaluators:',
        '  - id: own',
        '    use: llm-judge',
        '    judge: { baseUrl: "http://127.0.0.1:6/v1" }',
        `    ${choices}`,
        '  - id: inherited',
        '    use: llm-judge',
        `    ${choices}`,
      ],
      {},
      ['defaults: { judge: { model: j, baseUrl: "http://127.0.0.1:8/v1" } }'],
    );
    const result = await runInProcess(['run', '--dry-run'], dir, { OPENAI_BASE_URL: server.url });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /^ {2}evaluators {2}own \(llm-judge at http:\/\/127\.0\.0\.1:6\/v1\), inherited \(llm-judge at http:\/\/127\.0\.0\.1:8\/v1\)$/m,
    );
    assert.doesNotMatch(result.stdout, /OPENAI_BASE_URL/);
  });

  it('shows the URL without its query, and prints no key or password', async () => {
    const dir = jsonlProject(ROWS, [...MODEL_TARGET, ...JUDGE], {}, [
      'defaults: { judge: { model: j } }',
    ]);
    const result = await runInProcess(['run', '--dry-run'], dir, {
      OPENAI_BASE_URL: `${server.url}?api-key=qa9-query-secret-1234`,
      OPENAI_API_KEY: 'sk-qa9-env-key-123456',
    });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      new RegExp(`^s: model m at ${escape(server.url)} from OPENAI_BASE_URL$`, 'm'),
    );
    assert.doesNotMatch(result.stdout + result.stderr, /qa9-query-secret|sk-qa9-env-key/);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
