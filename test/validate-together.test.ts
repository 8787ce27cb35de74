/**
 * `evals validate` says the problems of binding (a target that cannot work) and of templates
 * naming fields the rows lack together: neither needs the other, so fixing one must not reveal
 * the next.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

it('reports a missing cwd in one suite and a missing row field in another at once', async () => {
  const dir = scratch();
  writeFiles(dir, {
    't.csv': 'q,expected\nhello,world\n',
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: t.csv }',
      '    target: { type: http, url: "http://127.0.0.1:8/app", headers: { x-q: "{{case.qq}}" } }',
      '  - id: c',
      '    testset: { path: t.csv }',
      '    target: { type: command, run: [echo], cwd: nowhere }',
      '',
    ].join('\n'),
  });
  for (const argv of [['validate'], ['run', '--dry-run']]) {
    const result = await runInProcess(argv, dir);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /evals\.yaml:8:48 {2}suites\[1\]\.target\.cwd: working folder .* does not exist/,
    );
    assert.match(
      result.stderr,
      /evals\.yaml:5:74 {2}suites\[0\]\.target\.headers\.x-q: template \{\{ case\.qq \}\}: no row of the testset has the field "qq"/,
    );
    assert.match(result.stderr, /2 problems found/);
  }
});
