/**
 * An escaped `\{{` in a model target's or a judge's `headers` is a literal `{{`, as it is in an
 * http target's headers and in every template: the server gets `{{ raw }}`, not the backslash.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/** The `x-note` header of each request, in order. */
const notes: (string | undefined)[] = [];
/** The `model` of each request's body, in order. */
const models: unknown[] = [];

/** Answers every request as a chat completion whose text is `yes`. */
const server = useLoopbackServer((req, res) => {
  notes.push(req.headers['x-note'] as string | undefined);
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    models.push((JSON.parse(body) as { model?: unknown }).model);
    const message = { role: 'assistant', content: 'yes' };
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ choices: [{ index: 0, message, finish_reason: 'stop' }] }));
  });
});

/** Runs the project; the case's error (null when none) and the run's exit code. */
async function run(
  suite: string[],
  rows: Record<string, unknown>[],
): Promise<{ code: number; error: string | null }> {
  notes.length = 0;
  models.length = 0;
  const dir = jsonlProject(rows, suite);
  const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
  return { code: result.code, error: artifactCases(dir)[0]!.cases[0]!.error ?? null };
}

describe('an escaped {{ in the headers of a model connection', () => {
  it('is sent as {{ by a model target', async () => {
    const ran = await run(
      [
        'target:',
        '  type: model',
        '  model: m',
        `  baseUrl: ${server.base}/v1`,
        '  apiKey: sk-test-key',
        "  headers: { x-note: 'keep \\{{ raw }}' }",
        '  prompt: "{{ case.q }}"',
      ],
      [{ q: 'a' }],
    );
    assert.deepEqual(ran, { code: 0, error: null });
    assert.deepEqual(notes, ['keep {{ raw }}']);
  });

  it('is sent as {{ by a judge', async () => {
    // The server's answer is no verdict: only the request the judge sent matters here.
    await run(
      [
        'evaluators:',
        '  - use: llm-judge',
        `    judge: { model: m, baseUrl: "${server.base}/v1", apiKey: sk-test-key, headers: { x-note: 'keep \\{{ raw }}' } }`,
        '    with:',
        '      prompt: "Is {{ output }} fine?"',
        '      choices: { "yes": 1, "no": 0 }',
      ],
      [{ q: 'a', output: 'fine' }],
    );
    assert.deepEqual(notes, ['keep {{ raw }}']);
  });

  it("is sent as {{ in a judge's model, as in a model target's", async () => {
    await run(
      [
        'target:',
        '  type: model',
        "  model: 'target-\\{{ m }}'",
        `  baseUrl: ${server.base}/v1`,
        '  apiKey: sk-test-key',
        '  prompt: "{{ case.q }}"',
        'evaluators:',
        '  - use: llm-judge',
        `    judge: { model: 'judge-\\{{ m }}', baseUrl: "${server.base}/v1", apiKey: sk-test-key }`,
        '    with:',
        '      prompt: "Is {{ output }} fine?"',
        '      choices: { "yes": 1, "no": 0 }',
      ],
      [{ q: 'a' }],
    );
    assert.deepEqual(models, ['target-{{ m }}', 'judge-{{ m }}']);
  });
});
