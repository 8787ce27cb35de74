/**
 * `-` as an output file: many tools read it as standard output, so `evals report r.json -o -`
 * writing a file named `-` surprised its user (and `evals init -` then printed `cd -`, which goes
 * back to the previous folder). No command of this CLI reads `-` as a stream (`evals show -`
 * looks for a file named `-`; `evals run` prints its summary on stdout, where results would mix
 * with it), so every flag that names a file or folder to write refuses `-` (exit 2, nothing
 * written), pointing at `/dev/stdout`, which each of them writes into as it is.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** Two recorded outputs, one passing and one failing. */
const ROWS = [
  { q: 'a', output: 'x' },
  { q: 'b', output: 'y' },
];

describe('an output named "-" is refused, not written as a file named "-"', () => {
  let dir = '';
  before(async () => {
    dir = jsonlProject(ROWS, [
      'evaluators:',
      '  - { id: ok, use: is-equals, with: { expected: "x" } }',
    ]);
    assert.equal((await runInProcess(['run', '-o', 'r.json'], dir)).code, 1);
    for (const shard of ['1/2', '2/2']) {
      const name = `s${shard[0]}.json`;
      assert.equal((await runInProcess(['run', '--shard', shard, '-o', name], dir)).code < 2, true);
    }
  });

  const commands: [string, string[]][] = [
    ['run -o -', ['run', '-o', '-']],
    ['run --junit -', ['run', '-o', 'x.json', '--junit', '-']],
    ['run --report -', ['run', '-o', 'x.json', '--report', '-']],
    ['merge -o -', ['merge', 's1.json', 's2.json', '-o', '-']],
    ['merge --junit -', ['merge', 's1.json', 's2.json', '-o', 'm.json', '--junit', '-']],
    ['report -o -', ['report', 'r.json', '-o', '-']],
    ['report --junit -', ['report', 'r.json', '--junit', '-']],
    ['report --output=-', ['report', 'r.json', '--output=-']],
    ['testset convert rows.jsonl -', ['testset', 'convert', 'rows.jsonl', '-']],
    ['init -', ['init', '-']],
  ];
  for (const [name, argv] of commands) {
    it(`evals ${name}: exit 2, saying what to name instead, and nothing written`, async () => {
      const before = readdirSync(dir).sort();
      const result = await runInProcess(argv, dir);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, / -: "-" names no (file|folder) here/);
      // A folder (`init`) cannot be standard output; a file can.
      assert.match(
        result.stderr,
        name === 'init -' ? /\.\/- for a folder named "-"/ : /\/dev\/stdout/,
      );
      assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(existsSync(join(dir, '-')), false, 'no file named "-"');
      assert.deepEqual(readdirSync(dir).sort(), before, 'nothing written');
    });
  }
});
