/**
 * An http target's server that answers `content-type: application/json` with a body that is not
 * JSON right where it echoes the key (`{"answer": sk-…}`) made the case error carry the engine's
 * parse message, which quotes ten characters of the text at that point (`Unexpected token 's',
 * ""answer": sk-http-js"... is not valid JSON`): a piece of the secret that scrubbing no longer
 * recognises. Found by the response fuzz (scripts/fuzz-responses.ts, `echo-auth-bad-json`). The
 * error is described from the scrubbed body instead, as a command's stdout is; so is the error of
 * a request body written as a string of JSON that a key, put in unquoted, breaks.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allText, artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const TOKEN = 'sk-http-json-SECRET-0123456789abcdef';

const server = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(`{"answer": ${token}}`);
  });
});

describe('an http answer whose JSON goes wrong at the echoed key', () => {
  it('is a case error that says where, with the key nowhere', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'target:',
        '  type: http',
        `  url: "${server.base}/answer"`,
        '  headers: { authorization: "Bearer ${MY_TOKEN}" }',
        '  maxRetries: 0',
        'evaluators:',
        '  - { use: is-equals, with: { expected: x } }',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--junit', 'junit.xml'], dir, {
      MY_TOKEN: TOKEN,
    });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(
      artifactCases(dir)[0]!.cases[0]!.error ?? '',
      /^GET http:\/\/127\.0\.0\.1:\d+\/answer answered 200 with a body that is not JSON, though its content-type \(application\/json\) says it is: line 1, column \d+: .+: \{"answer": \[redacted\]\}$/,
    );
    const everywhere = `${result.stdout}
${result.stderr}
${allText(dir)}`;
    assert.doesNotMatch(everywhere, /sk-http-js/);
  });

  it('a request body that the key breaks is refused with the key nowhere', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'target:',
        '  type: http',
        `  url: "${server.base}/answer"`,
        '  headers: { content-type: application/json }',
        `  body: '{"key": \${MY_TOKEN}, "q": "{{ case.q }}"}'`,
        'evaluators:',
        '  - { use: is-equals, with: { expected: x } }',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir, { MY_TOKEN: TOKEN });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const error = artifactCases(dir)[0]!.cases[0]!.error ?? '';
    assert.match(
      error,
      /the body is not valid JSON once its templates are filled in.*line 1, column \d+/,
    );
    const everywhere = `${result.stdout}
${result.stderr}
${allText(dir)}`;
    assert.doesNotMatch(everywhere, /sk-http-js/);
  });
});
