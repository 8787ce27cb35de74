/**
 * An http target's `output:` path that the answer does not have is a case error that says which
 * request answered, the step of the path that found nothing, and what is there instead (the
 * keys of the object it stopped at, a list and its length, or a value of another type), so a
 * typo in a key reads apart from a server that answered with an error object.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/** `/ok`: the data; `/error`: an error object in its place; `/list`: a list of two answers. */
const server = useLoopbackServer((req, res) => {
  req.resume();
  const body =
    req.url === '/error'
      ? { error: { message: 'quota exceeded' } }
      : req.url === '/list'
        ? { data: ['a', 'b'] }
        : { data: { text: 'hi', score: 1 } };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});

async function onlyError(path: string, output: string): Promise<string> {
  const dir = jsonlProject(
    [{ q: 'a' }],
    ['target:', '  type: http', `  url: ${server.base}${path}`, `  output: ${output}`],
  );
  const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  return artifactCases(dir)[0]!.cases[0]!.error ?? '';
}

describe("an http target's output: path the answer lacks", () => {
  it('names the request and the keys of the object where the path found nothing', async () => {
    const error = await onlyError('/ok', 'data.answer');
    assert.equal(
      error.replace(/127\.0\.0\.1:\d+/, 'HOST'),
      'GET http://HOST/ok answered 200, but the answer has no data.answer (output: data.answer; data is an object whose keys are "text", "score"): {"data":{"text":"hi","score":1}}',
    );
  });

  it('shows an error object in place of the data as the answer it is', async () => {
    assert.match(
      await onlyError('/error', 'data.answer'),
      /the answer has no data \(output: data\.answer; the answer is an object whose only key is "error"\): \{"error":\{"message":"quota exceeded"\}\}$/,
    );
  });

  it('says how long a list is when an index is past its end', async () => {
    assert.match(
      await onlyError('/list', 'data.5'),
      /the answer has no data\[5\] \(output: data\.5; data is a list of 2 items\)/,
    );
  });
});
