/**
 * A `function:` (or evaluator) module that is a FIFO (a named pipe). docs/config.md: input that
 * would make evalgate hang is refused with its position (exit 2). The loader already took it for
 * no file, but before it, the scan of which local files a module imports read it as any file,
 * and opening a FIFO waits for a writer: `validate`, `run --dry-run` and `run` hung for good.
 * Now each is refused at the `function:` value, saying what is there.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

function project(): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: t.csv }',
      '    function: ./answer.mjs#answer',
      '',
    ].join('\n'),
    't.csv': 'q\na\n',
  });
  execFileSync('mkfifo', [join(dir, 'answer.mjs')]);
  return dir;
}

describe('a module that is a FIFO', () => {
  for (const args of [['validate'], ['run', '--dry-run'], ['run']]) {
    it(`evals ${args.join(' ')} refuses it at function: (exit 2), without waiting`, async () => {
      const dir = project();
      const r = await runCli(args, { cwd: dir, timeoutMs: 20_000 });
      assert.equal(r.signal, null, 'ended on its own, not killed by the time limit');
      assert.equal(r.code, 2, r.stderr);
      assert.equal(
        r.stderr,
        `error: evals.yaml:5:15  suites[0].function: module not found: ./answer.mjs (resolved to ${join(dir, 'answer.mjs')}, which is a FIFO (named pipe), not a regular file)\n`,
      );
    });
  }
});
