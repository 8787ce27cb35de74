/**
 * Headers fetch sets itself (`content-length`, `transfer-encoding`, `keep-alive`, `upgrade`,
 * `expect`, a `connection` other than close or keep-alive): validate let them through, and then
 * every case errored with undici's words (`invalid transfer-encoding header`), or, for a
 * `content-length` its body did not match, waited for the rest of the body until the suite's
 * time-out. They are now refused when the config loads, at the header, for http and model
 * targets alike; one a template gives is refused per case, before anything is sent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const server = useLoopbackServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ connection: req.headers.connection ?? null }));
  });
});

describe('headers fetch sets itself', () => {
  it('validate refuses each at its name, on an http and a model target', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'target:',
        '  type: http',
        '  url: http://127.0.0.1:8080/answer',
        '  body: { q: "{{ case.q }}" }',
        '  headers:',
        '    Content-Length: "3"',
        '    transfer-encoding: chunked',
        '    expect: 100-continue',
        '    keep-alive: timeout=5',
        '    upgrade: websocket',
        '    connection: upgrade',
      ],
    );
    const model = jsonlProject(
      [{ q: 'a' }],
      [
        'target:',
        '  type: model',
        '  model: m',
        '  baseUrl: http://127.0.0.1:8080/v1',
        '  prompt: "{{ case.q }}"',
        '  headers: { content-length: "9" }',
      ],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2, result.stdout);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
    assert.deepEqual(lines, [
      'error: evals.yaml:10:9  suites[0].target.headers: header Content-Length cannot be set: fetch sets it from the body, and a request whose body has another length waits for the rest until it times out; leave it out',
      'error: evals.yaml:11:9  suites[0].target.headers: header transfer-encoding cannot be set: fetch refuses it (invalid transfer-encoding header); leave it out',
      'error: evals.yaml:12:9  suites[0].target.headers: header expect cannot be set: fetch does not support it (expect header not supported); leave it out',
      'error: evals.yaml:13:9  suites[0].target.headers: header keep-alive cannot be set: fetch refuses it (invalid keep-alive header); leave it out',
      'error: evals.yaml:14:9  suites[0].target.headers: header upgrade cannot be set: fetch refuses it (invalid upgrade header); leave it out',
      'error: evals.yaml:15:21  suites[0].target.headers.connection: header connection: fetch refuses a value other than close or keep-alive (invalid connection header); leave it out',
    ]);
    const refused = await runInProcess(['validate'], model);
    assert.equal(refused.code, 2, refused.stdout);
    assert.equal(
      refused.stderr.split('\n')[0],
      'error: evals.yaml:10:18  suites[0].target.headers: header content-length cannot be set: fetch sets it from the body, and a request whose body has another length waits for the rest until it times out; leave it out',
    );
  });

  it('connection: close is sent; one a template makes invalid errors its case, unsent', async () => {
    const dir = jsonlProject(
      [{ c: 'close' }, { c: 'upgrade' }],
      [
        'target:',
        '  type: http',
        `  url: ${server.base}/answer`,
        '  headers: { connection: "{{ case.c }}" }',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1, result.stderr + result.stdout);
    const [closed, upgraded] = artifactCases(dir)[0]!.cases;
    assert.deepEqual(closed!.output, { connection: 'close' });
    assert.equal(
      upgraded!.error,
      `GET ${server.base}/answer: header connection: fetch refuses a value other than close or keep-alive (invalid connection header); leave it out`,
    );
  });
});
