/**
 * A server that takes the request and never answers, under a short suite timeout: the first
 * attempt is still in flight when time runs out, so there is no failed attempt to name. The
 * case error must still name the request it was waiting for (method and URL, secrets in the URL
 * masked), as the retrying path does with its last failure. The http target, the model target
 * and an LLM judge.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/** Takes every request and never answers it (the server's `after` hook closes them). */
const silent = useLoopbackServer(() => undefined);

const TOKEN = 'tok-silent-5566778899';

async function caseOf(
  dir: string,
): Promise<{ error?: string; evaluations: { error: string | null }[] }> {
  const run = await runInProcess(['run', '-o', 'results.json'], dir, {
    OPENAI_API_KEY: 'sk-test',
    SILENT_TOKEN: TOKEN,
  });
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.ok(!(run.stdout + run.stderr).includes(TOKEN), run.stdout + run.stderr);
  return artifactCases(dir)[0]!.cases[0]!;
}

describe('a request that gets no answer before the suite timeout', () => {
  it('the http target names the request it waited for', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'target:',
        '  type: http',
        `  url: "${silent.base}/slow?token=\${SILENT_TOKEN}&q={{case.q}}"`,
      ],
      {},
      ['defaults: { timeout: 300ms }'],
    );
    const error = (await caseOf(dir)).error ?? '';
    assert.equal(
      error,
      `timed out after 300 ms while waiting for GET ${silent.base}/slow?token=[redacted]&q=x`,
    );
  });

  it('the model target names the request it waited for', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'target:',
        '  type: model',
        '  model: m',
        '  prompt: "{{ case.q }}"',
        `  baseUrl: "${silent.base}/v1?api-version=\${SILENT_TOKEN}"`,
      ],
      {},
      ['defaults: { timeout: 300ms }'],
    );
    const error = (await caseOf(dir)).error ?? '';
    assert.equal(
      error,
      `timed out after 300 ms while waiting for POST ${silent.base}/v1/chat/completions?api-version=[redacted]`,
    );
  });

  it('an LLM judge names the request it waited for', async () => {
    const dir = jsonlProject(
      [{ q: 'x', output: 'y' }],
      [
        'evaluators:',
        '  - use: llm-judge',
        `    judge: { model: m, baseUrl: "${silent.base}/v1" }`,
        '    with: { prompt: "Is {{ output }} good?", choices: { "yes": 1, "no": 0 } }',
      ],
      {},
      ['defaults: { timeout: 300ms }'],
    );
    const error = (await caseOf(dir)).evaluations[0]?.error ?? '';
    assert.match(
      error,
      /^timed out after 300 ms while waiting for POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions$/,
      error,
    );
  });
});
