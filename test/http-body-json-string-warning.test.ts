/**
 * An http target's body written as one string of JSON (`body: '{"q": "{{ case.q }}"}'`, as a
 * curl command has it) is sent as text (content-type: text/plain), which a JSON API reads as no
 * body. It ran without a word; validate, run and run --dry-run now warn at the body, saying how
 * to send JSON. A body written as YAML, one given a content-type, and one that is a single
 * template (sent with its value's type) do not warn.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const WARNING =
  'body: is one string, so it is sent as text (content-type: text/plain), though it reads as JSON: a JSON API may not read it, and a value holding a quote or a line break breaks it. Write the body as YAML (body: { q: "{{ case.q }}" }), sent as JSON with each value escaped, or give headers: { content-type: application/json }';

function project(target: string[]): string {
  return jsonlProject(
    [{ q: 'a', payload: { q: 'a' } }],
    ['target:', '  type: http', '  url: http://127.0.0.1:8080/answer', ...target],
  );
}

describe('an http body of JSON written as one string', () => {
  it('warns at the body in validate and run --dry-run', async () => {
    const dir = project([`  body: '{"q": "{{ case.q }}"}'`]);
    for (const argv of [['validate'], ['run', '--dry-run']]) {
      const result = await runInProcess(argv, dir);
      assert.equal(result.code, 0, result.stderr);
      assert.ok(
        result.stderr.includes(`warning: evals.yaml:8:13  suites[0].target.body: ${WARNING}`),
        result.stderr,
      );
    }
  });

  it('does not warn for a YAML body, a body with a content-type or one whole template', async () => {
    for (const target of [
      ['  body: { q: "{{ case.q }}" }'],
      [`  body: '{"q": "{{ case.q }}"}'`, '  headers: { Content-Type: application/json }'],
      ['  body: "{{ case.payload }}"'],
      ['  body: "plain words {{ case.q }}"'],
    ]) {
      const result = await runInProcess(['validate'], project(target));
      assert.equal(result.code, 0, result.stderr);
      assert.ok(!result.stderr.includes('warning'), `${target.join('\n')}\n${result.stderr}`);
    }
  });
});
