/**
 * The text of an answer's body: read in the charset its content-type names, and refused (a case
 * error) when it names none or UTF-8 and the bytes are not UTF-8. Read as UTF-8 regardless, a
 * Latin-1 `café` became `caf\uFFFD` and was scored so, passing a check for `caf` or one that `é`
 * is NOT there; a command's stdout is refused the same way.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/** `café` in Latin-1: its `é` is the byte E9, which is not UTF-8. */
const LATIN1_CAFE = Buffer.from([0x63, 0x61, 0x66, 0xe9]);

/** Answers each path with the bytes and content-type it names. */
const server = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const answer = (type: string, body: Buffer): void => {
      res.writeHead(200, { 'content-type': type }).end(body);
    };
    if (path === '/latin1-undeclared') return answer('text/plain', LATIN1_CAFE);
    if (path === '/latin1-declared') return answer('text/plain; charset=ISO-8859-1', LATIN1_CAFE);
    if (path === '/json-latin1-declared') {
      return answer(
        'application/json; charset=windows-1252',
        Buffer.concat([Buffer.from('{"a":"'), LATIN1_CAFE, Buffer.from('"}')]),
      );
    }
    if (path === '/utf8') return answer('text/plain; charset=utf-8', Buffer.from('café'));
    if (path === '/bom-json') return answer('application/json', Buffer.from('\uFEFF{"a":"café"}'));
    if (path === '/v1/chat/completions') {
      const reply = (text: Buffer): Buffer =>
        Buffer.concat([
          Buffer.from('{"choices":[{"message":{"role":"assistant","content":"'),
          text,
          Buffer.from('"},"finish_reason":"stop"}]}'),
        ]);
      return answer('application/json', reply(LATIN1_CAFE));
    }
    res.writeHead(404).end();
  });
});

/** Runs one http-target case against `path`, scored by `evaluator`: the case as written. */
async function httpCase(path: string, evaluator: string) {
  const dir = jsonlProject(
    [{ q: 'x' }],
    [
      'target:',
      '  type: http',
      `  url: ${server.base}${path}`,
      '  maxRetries: 0',
      'evaluators:',
      `  - ${evaluator}`,
    ],
  );
  const result = await runInProcess(['run', '-o', 'results.json'], dir);
  return { result, only: artifactCases(dir)[0]!.cases[0]! };
}

describe('an http answer that is not UTF-8', () => {
  it('naming no charset is a case error, not text with U+FFFD scored as the output', async () => {
    const { result, only } = await httpCase(
      '/latin1-undeclared',
      "{ use: regex, with: { pattern: '^caf' } }",
    );
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(
      only.error ?? '',
      /^GET http:\/\/127\.0\.0\.1:\d+\/latin1-undeclared answered 200 with a body that is not valid UTF-8, and its content-type \(text\/plain\) names no other charset/,
    );
  });

  it('naming its charset is read in it', async () => {
    const { result, only } = await httpCase(
      '/latin1-declared',
      "{ use: is-equals, with: { expected: 'café' } }",
    );
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(only.output, 'café');
  });

  it('a JSON answer naming its charset is read in it, then parsed', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'target:',
        '  type: http',
        `  url: ${server.base}/json-latin1-declared`,
        '  output: a',
        'evaluators:',
        "  - { use: is-equals, with: { expected: 'café' } }",
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
  });

  it('UTF-8 stays as it was', async () => {
    const { result, only } = await httpCase(
      '/utf8',
      "{ use: is-equals, with: { expected: 'café' } }",
    );
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(only.output, 'café');
  });
});

describe('a byte order mark', () => {
  it('before a JSON answer is no part of it', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'target:',
        '  type: http',
        `  url: ${server.base}/bom-json`,
        'evaluators:',
        "  - { use: is-equals, with: { expected: 'café', actual: '{{ output.a }}' } }",
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(artifactCases(dir)[0]!.cases[0]!.output, { a: 'café' });
  });
});

describe('a model answer that is not UTF-8', () => {
  it('is a case error, not a reply with U+FFFD scored as the output', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'target:',
        '  type: model',
        '  model: m',
        `  baseUrl: ${server.base}/v1`,
        '  apiKey: sk-not-needed-here',
        '  maxRetries: 0',
        '  prompt: "{{ case.q }}"',
        'evaluators:',
        "  - { use: regex, with: { pattern: '^caf' } }",
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const only = artifactCases(dir)[0]!.cases[0]!;
    assert.match(
      only.error ?? '',
      /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered 200 with a body that is not valid UTF-8, and its content-type \(application\/json\) names no other charset/,
    );
  });
});
