/**
 * An HTTP target's `body:` with a method fetch sends no body with (GET): refused at load, where
 * the user can fix it, instead of every case erroring. Methods that can carry a body (DELETE)
 * send it, checked against a real loopback server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { suiteProject } from './helpers/suite-project.ts';
import { runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const received: { method: string; body: string }[] = [];
const served = useLoopbackServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    received.push({ method: req.method ?? '', body });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"answer":"ok"}');
  });
});

/** A project whose one suite `s` has `target` (a YAML flow mapping). */
function project(target: string): string {
  return suiteProject(['testset: { cases: [ { q: hello } ] }', `target: ${target}`]);
}

describe('an HTTP target with a body', () => {
  for (const command of [['validate'], ['run'], ['run', '--dry-run']]) {
    it(`and method GET is refused by evals ${command.join(' ')} at the body key`, async () => {
      const dir = project(
        `{ type: http, url: "${served.base}/answer", method: GET, body: { question: "{{case.q}}" } }`,
      );
      const before = received.length;
      const result = await runInProcess(command, dir);
      assert.equal(result.code, 2, result.stdout + result.stderr);
      const lines = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
      assert.equal(lines.length, 1, result.stderr);
      // Line 5, at `body:` (column of the key in the flow mapping).
      const col =
        `    target: { type: http, url: "${served.base}/answer", method: GET, `.length + 1;
      assert.match(lines[0] ?? '', new RegExp(`evals\\.yaml:5:${col}\\s+suites\\[0\\]\\.target`));
      assert.match(lines[0] ?? '', /a GET request cannot carry a body/);
      assert.match(lines[0] ?? '', /POST/);
      assert.match(lines[0] ?? '', /query/);
      assert.equal(received.length, before, 'no request was sent');
    });
  }

  it('and method DELETE sends it', async () => {
    const dir = project(
      `{ type: http, url: "${served.base}/items", method: DELETE, body: { question: "{{case.q}}" }, output: answer }`,
    );
    received.length = 0;
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(received, [{ method: 'DELETE', body: '{"question":"hello"}' }]);
  });

  it('and no method is sent as POST', async () => {
    const dir = project(
      `{ type: http, url: "${served.base}/answer", body: "{{case.q}}", output: answer }`,
    );
    received.length = 0;
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.deepEqual(received, [{ method: 'POST', body: 'hello' }]);
  });
});
