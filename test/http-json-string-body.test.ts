/**
 * An http target's body written as a string of JSON (`body: '{"q": "{{ case.q }}"}'`, with a
 * `content-type: application/json` header), as teams coming from curl write it. A case value
 * holding a quote or a line break made it invalid JSON, which was sent as it was (the server
 * answered 400, or guessed). Now such a case is an error that says why and what to write
 * instead, and nothing is sent; a YAML body, escaped per value, is the way.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const received: string[] = [];

const server = useLoopbackServer((req, res) => {
  let body = '';
  req.setEncoding('utf8').on('data', (d: string) => (body += d));
  req.on('end', () => {
    received.push(body);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});

beforeEach(() => (received.length = 0));

const ROWS = [{ q: 'plain' }, { q: 'he said "hi"\nthen left' }];

async function run(target: string[]) {
  const dir = jsonlProject(ROWS, [
    'target:',
    '  type: http',
    `  url: ${server.base}/answer`,
    ...target.map((line) => `  ${line}`),
  ]);
  const result = await runInProcess(['run', '-o', 'results.json'], dir);
  return { result, cases: artifactCases(dir)[0]!.cases };
}

describe('a string body declared as JSON', () => {
  it('that a case value makes invalid JSON is a case error, and is not sent', async () => {
    const { result, cases } = await run([
      'headers: { Content-Type: application/json }',
      `body: '{"question": "{{ case.q }}"}'`,
    ]);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.deepEqual(received, ['{"question": "plain"}']);
    assert.equal(cases[0]!.error ?? null, null);
    assert.match(
      cases[1]!.error ?? '',
      /^POST http:\/\/127\.0\.0\.1:\d+\/answer: the body is not valid JSON once its templates are filled in, though its content-type \(application\/json\) says it is: .+; write body: as YAML \(body: \{ question: "\{\{ case\.q \}\}" \}\), which is sent as JSON with each value escaped/,
    );
  });

  it('a YAML body with the same values is sent as valid JSON', async () => {
    const { result } = await run(['body: { question: "{{ case.q }}" }']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(
      received.map((text) => JSON.parse(text) as unknown),
      ROWS.map(({ q }) => ({ question: q })),
    );
  });

  it('a string body not declared as JSON is sent as the text it is', async () => {
    const { result } = await run(['body: "Q: {{ case.q }}"']);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(received.sort(), ['Q: he said "hi"\nthen left', 'Q: plain']);
  });
});
