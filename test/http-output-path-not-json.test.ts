/**
 * An http target with `output:` whose server answered 200 with an empty body, or one that is not
 * JSON, was errored `the answer is not JSON, so output: answer cannot be read from it: ` — an
 * empty quote after the colon, no request named, and nothing of where the JSON went wrong, unlike
 * the same answer without `output:`. Found by the response fuzz (scripts/fuzz-responses.ts,
 * `empty-body`, `truncated-json`). The error names the request, says the body was empty, or
 * where it stops being JSON.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const server = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    const body = req.url === '/empty' ? '' : '{"answer": "fi';
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
});

async function caseError(path: string): Promise<string> {
  const dir = jsonlProject(
    [{ q: 'x' }],
    [
      `target: { type: http, url: "${server.base}${path}", output: answer, maxRetries: 0 }`,
      'evaluators:',
      '  - { use: is-equals, with: { expected: x } }',
    ],
  );
  const result = await runInProcess(['run', '-o', 'results.json'], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  return artifactCases(dir)[0]!.cases[0]!.error ?? '';
}

describe('an http answer that output: cannot be read from', () => {
  it('an empty body says so and names the request', async () => {
    assert.match(
      await caseError('/empty'),
      /^GET http:\/\/127\.0\.0\.1:\d+\/empty answered 200 with an empty body, so output: answer cannot be read from it$/,
    );
  });

  it('a body that is not JSON says where it stops being JSON', async () => {
    assert.match(
      await caseError('/cut'),
      /^GET http:\/\/127\.0\.0\.1:\d+\/cut answered 200 with a body that is not JSON \(line 1, column \d+: .+\), so output: answer cannot be read from it: \{"answer": "fi$/,
    );
  });
});
