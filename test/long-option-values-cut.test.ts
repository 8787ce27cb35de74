/**
 * A very long value given to an option (`--case`, `--suite`, `--grid`, `--score`, a command or
 * option name) is echoed in the error by its start and its length, not whole: a 3,000-character
 * paste would otherwise fill the terminal and bury what the message says is wrong.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const LONG = 'abc'.repeat(1000); // 3,000 characters

let dir = '';

describe('a long option value in an error message', () => {
  before(async () => {
    dir = jsonlProject(
      [{ __dedup_id__: 'c1', output: 'yes' }],
      ['evaluators:', '  - { id: e, use: contains, with: { values: [yes] } }'],
    );
    assert.equal((await runInProcess(['run', '-o', 'r.json'], dir)).code, 0);
  });

  const cases: [string, string[]][] = [
    ['show --case', ['show', 'r.json', '--case', LONG]],
    ['show --suite', ['show', 'r.json', '--suite', LONG]],
    ['show --grid', ['show', 'r.json', '--grid', LONG]],
    ['show --limit', ['show', 'r.json', '--limit', LONG]],
    ['override --case', ['override', 'r.json', '--case', LONG, '--evaluator', 'e', '--score', '1']],
    [
      'override --evaluator',
      ['override', 'r.json', '--case', 'c1', '--evaluator', LONG, '--score', '1'],
    ],
    [
      'override --score',
      ['override', 'r.json', '--case', 'c1', '--evaluator', 'e', '--score', LONG],
    ],
    ['run --suite', ['run', '--suite', LONG, '-o', 'x.json']],
    ['run --grid', ['run', '--grid', LONG, '-o', 'x.json']],
    ['run --shard', ['run', '--shard', LONG, '-o', 'x.json']],
    ['run --concurrency', ['run', '--concurrency', LONG, '-o', 'x.json']],
    ['an unknown option', ['run', `--${LONG}`]],
    ['an unknown command', [LONG]],
  ];
  for (const [name, argv] of cases) {
    it(`${name}: shows the start and the length`, async () => {
      const result = await runInProcess(argv, dir);
      assert.equal(result.code, 2, result.stderr);
      assert.ok(result.stderr.length < 800, `${result.stderr.length} characters: ${result.stderr}`);
      assert.match(result.stderr, /abcabc/);
      assert.match(result.stderr, /… \(3,00[0-9] characters\)/);
    });
  }

  it('a short value is shown whole, as before', async () => {
    const result = await runInProcess(['show', 'r.json', '--case', 'nope'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^error: --case nope: no case id starts with it in r\.json/);
  });
});
