/**
 * An http answer whose content-type says JSON but whose body is not (cut short by a proxy, an
 * HTML error page sent as `application/json`) was scored as its text, so a check such as
 * `regex: answer` passed on `{"answer": "yes, it's fi`. It is a case error that keeps the text,
 * as a command's `output: json` is; an answer that does not claim to be JSON stays its text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const CUT = '{"answer": "yes, it\'s fi';

const server = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const type = path.endsWith('-json') ? 'application/json; charset=utf-8' : 'text/plain';
    res.writeHead(200, { 'content-type': type }).end(path.startsWith('/empty') ? '' : CUT);
  });
});

async function run(path: string) {
  const dir = jsonlProject(
    [{ q: 'x' }],
    [
      'target:',
      '  type: http',
      `  url: ${server.base}${path}`,
      'evaluators:',
      "  - { use: regex, with: { pattern: 'answer' } }",
    ],
  );
  const result = await runInProcess(['run', '-o', 'results.json'], dir);
  return { result, only: artifactCases(dir)[0]!.cases[0]! };
}

describe('an answer whose content-type says JSON', () => {
  it('but that is not JSON is a case error that keeps its text', async () => {
    const { result, only } = await run('/cut-json');
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.equal(only.output, CUT);
    assert.match(
      only.error ?? '',
      /^GET http:\/\/127\.0\.0\.1:\d+\/cut-json answered 200 with a body that is not JSON, though its content-type \(application\/json; charset=utf-8\) says it is: .+: \{"answer": "yes, it's fi$/,
    );
  });

  it('with an empty body is a case error too, never the answer ""', async () => {
    // Scored as "", it passed every check that something is not there (`not: true`).
    const { result, only } = await run('/empty-json');
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.equal(only.output, '');
    assert.match(
      only.error ?? '',
      /^GET http:\/\/127\.0\.0\.1:\d+\/empty-json answered 200 with an empty body, though its content-type \(application\/json; charset=utf-8\) says it is JSON$/,
    );
  });

  it('an empty text answer is kept as "", a case error (no allowEmptyOutput)', async () => {
    const { only } = await run('/empty');
    assert.equal(only.output, '');
    assert.match(only.error ?? '', /answered 200 with an empty answer: no output to score/);
  });

  it('a text answer holding the same is its text', async () => {
    const { result, only } = await run('/text');
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(only.output, CUT);
  });
});
