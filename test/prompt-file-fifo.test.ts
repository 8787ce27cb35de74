/**
 * A model target's prompt file that is a FIFO (a named pipe). docs/config.md, Limits on input:
 * input that would make evalgate hang is refused with its position (exit 2). Reading the prompt
 * file opened it as any file, and opening a FIFO waits for a writer: `validate`, `run --dry-run`
 * and `run` hung for good. It is refused at the config value naming the file, as a config or a
 * testset that is no regular file is.
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
      '    target:',
      '      type: model',
      '      model: m',
      '      baseUrl: http://127.0.0.1:8080/v1',
      '      apiKey: k',
      '      prompt: { file: prompt.md }',
      '',
    ].join('\n'),
    't.csv': 'q\na\n',
  });
  execFileSync('mkfifo', [join(dir, 'prompt.md')]);
  return dir;
}

describe('a prompt file that is a FIFO', () => {
  for (const args of [['validate'], ['run', '--dry-run'], ['run']]) {
    it(`evals ${args.join(' ')} refuses it at its config value (exit 2), without waiting`, async () => {
      const dir = project();
      const r = await runCli(args, { cwd: dir, timeoutMs: 20_000 });
      assert.equal(r.signal, null, 'ended on its own, not killed by the time limit');
      assert.equal(r.code, 2, r.stderr);
      assert.equal(
        r.stderr,
        'error: evals.yaml:10:23  suites[0].target.prompt.file: prompt file prompt.md cannot be read (it is a FIFO (named pipe), not a regular file)\n',
      );
    });
  }
});
