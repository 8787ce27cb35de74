/**
 * A command given `--baseline BASE` reads BASE, so no report it writes may be BASE:
 * `evals report RESULTS --baseline BASE -o BASE` (arguments swapped, or a name reused) replaced
 * the baseline results with an HTML page and said only `HTML report written`, and so did
 * `evals run --report BASE` and `--junit BASE`, and `evals merge --junit BASE`, with the XML
 * report. Each is refused as an output naming the results is (exit 2, nothing written), also
 * through a symbolic link. (`-o BASE` of `run` and `merge` writes results where results were,
 * which a rolling baseline does on purpose, and is left alone.)
 */
import assert from 'node:assert/strict';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const REFUSED = /the baseline \(--baseline base\.json\); name another file/;

let dir = '';
let base = '';

before(async () => {
  dir = jsonlProject(
    Array.from({ length: 4 }, (_, n) => ({ n, expected: `a${n}`, output: `a${n}` })),
    [
      'hash: [n]',
      'evaluators:',
      "  - { id: exact, use: is-equals, with: { expected: '{{case.expected}}' } }",
    ],
  );
  const first = await runInProcess(['run', '-o', 'base.json'], dir);
  assert.equal(first.code, 0, first.stderr);
  const head = await runInProcess(['run', '-o', 'head.json'], dir);
  assert.equal(head.code, 0, head.stderr);
  const shard = await runInProcess(['run', '--shard', '1/1', '-o', 'shard.json'], dir);
  assert.equal(shard.code, 0, shard.stderr);
  symlinkSync('base.json', join(dir, 'link.json'));
  base = readFileSync(join(dir, 'base.json'), 'utf8');
});

/** Runs `args` and checks that it was refused and the baseline is as it was. */
async function refused(args: string[]): Promise<void> {
  const out = await runInProcess(args, dir);
  assert.equal(out.code, 2, out.stderr);
  assert.match(out.stderr, REFUSED);
  assert.equal(readFileSync(join(dir, 'base.json'), 'utf8'), base, 'the baseline is unchanged');
}

describe('no report is written over the --baseline file', () => {
  it('evals report: -o BASE, -o through a link to BASE, --junit BASE', async () => {
    await refused(['report', 'head.json', '--baseline', 'base.json', '-o', 'base.json']);
    await refused(['report', 'head.json', '--baseline', 'base.json', '-o', 'link.json']);
    await refused([
      'report',
      'head.json',
      '--baseline',
      'base.json',
      '-o',
      'r.html',
      '--junit',
      'base.json',
    ]);
  });

  it('evals run: --report BASE, --junit BASE', async () => {
    await refused(['run', '-o', 'o.json', '--baseline', 'base.json', '--report', 'base.json']);
    await refused(['run', '-o', 'o.json', '--baseline', 'base.json', '--junit', 'link.json']);
  });

  it('evals merge: --junit BASE', async () => {
    await refused([
      'merge',
      'shard.json',
      '-o',
      'm.json',
      '--baseline',
      'base.json',
      '--junit',
      'base.json',
    ]);
  });

  it('still writes results over the baseline with -o, as a rolling baseline does', async () => {
    writeFileSync(join(dir, 'rolling.json'), base);
    const out = await runInProcess(
      ['run', '-o', 'rolling.json', '--baseline', 'rolling.json'],
      dir,
    );
    assert.equal(out.code, 0, out.stderr);
  });
});
