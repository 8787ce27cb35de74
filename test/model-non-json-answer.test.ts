/**
 * A model API that answers 200 with a body that is not JSON (a gateway's HTML page, a proxy's
 * text) made the case error `… answered 200 with a body that is not JSON`, with nothing of what
 * came back: a model target keeps no `raw`, so the error quotes the start of the body, on one
 * line and scrubbed of secrets, as an error status's does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const KEY = 'sk-non-json-answer-SECRET-7777';

const server = useLoopbackServer((req, res) => {
  req.resume().on('end', () => {
    const page = `<html>\n<h1>502 Bad Gateway</h1>\n<p>upstream refused ${req.headers.authorization ?? ''}</p>\n</html>`;
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
});

describe('a model answer that is not JSON', () => {
  it('is a case error quoting the start of the body, scrubbed', async () => {
    const dir = jsonlProject(
      [{ q: 'x' }],
      [
        'target:',
        '  type: model',
        '  model: m',
        `  baseUrl: ${server.base}/v1`,
        '  apiKey: ${KEY}',
        '  maxRetries: 0',
        '  prompt: "{{ case.q }}"',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, { KEY });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(
      artifactCases(dir)[0]!.cases[0]!.error ?? '',
      /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions answered 200 with a body that is not JSON: <html> <h1>502 Bad Gateway<\/h1> <p>upstream refused Bearer \[redacted\]<\/p> <\/html>$/,
    );
  });
});
