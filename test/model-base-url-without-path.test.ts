/**
 * A base URL with no path (`http://localhost:8000`, the `/v1` left out, as is easy to do with
 * vLLM, LiteLLM or Ollama, which all serve the OpenAI API under `/v1`) makes every call a 404.
 * The error says what is likely wrong, rather than leaving `answered 404: Not Found` to read as
 * an unknown model; a base URL with a path keeps the plain 404.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const server = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"Not Found"}');
  });
});

async function caseError(baseUrl: string): Promise<string> {
  const dir = jsonlProject(
    [{ q: 'x' }],
    [
      'target:',
      '  type: model',
      '  model: m',
      `  baseUrl: ${baseUrl}`,
      '  maxRetries: 0',
      '  prompt: "{{ case.q }}"',
    ],
  );
  await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
  return artifactCases(dir)[0]!.cases[0]!.error ?? '';
}

describe('a 404 from a base URL without a path', () => {
  it('says the API is usually under /v1', async () => {
    assert.equal(
      await caseError(server.base),
      `POST ${server.base}/chat/completions answered 404: {"detail":"Not Found"}; the base URL ${server.base} has no path, and OpenAI-compatible servers (vLLM, LiteLLM, Ollama) serve the API under one: try ${server.base}/v1`,
    );
  });

  it('is the plain 404 when the base URL has a path', async () => {
    assert.equal(
      await caseError(`${server.base}/v1`),
      `POST ${server.base}/v1/chat/completions answered 404: {"detail":"Not Found"}`,
    );
  });
});
