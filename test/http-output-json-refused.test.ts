/**
 * `output: json` on an http target is a command target's output format written in the wrong
 * place: on an http target `output:` is a path into the answer, so it read a field named json
 * and every case failed at run time. It is refused when the config loads (`validate`, `run
 * --dry-run`: exit 2 at its line and column, what was expected and what was meant); a field
 * named json is still read with `output: '["json"]'`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

function httpProject(output: string): string {
  return jsonlProject(
    [{ q: 'a' }],
    [
      'hash: [q]',
      'target:',
      '  type: http',
      '  url: http://127.0.0.1:8089/answer',
      `  output: ${output}`,
      'evaluators:',
      '  - { id: ok, use: is-equals, with: { expected: "x" } }',
    ],
  );
}

const REFUSED =
  /evals\.yaml:9:15 +suites\[0\]\.target\.output: expected a path into the JSON answer, such as data\.answer, found "json", which is a command target's output format: .*leave output: out for the whole answer; to read a field named json, write output: '\["json"\]'/;

describe('output: json on an http target', () => {
  for (const argv of [['validate'], ['run', '--dry-run']]) {
    it(`is refused by evals ${argv.join(' ')} (exit 2, where, what was meant)`, async () => {
      const result = await runInProcess(argv, httpProject('json'));
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, REFUSED);
    });
  }

  it('a field named json is still read with output: \'["json"]\'', async () => {
    const result = await runInProcess(['validate'], httpProject(`'["json"]'`));
    assert.equal(result.code, 0, result.stderr);
  });
});
