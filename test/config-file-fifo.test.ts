/**
 * A file a config names that is a FIFO (a named pipe): a `function:` (or evaluator) module, a
 * model target's prompt file. docs/config.md, Limits on input: input that would make evalgate
 * hang is refused with its position (exit 2). Opening a FIFO waits for a writer, and before these
 * were refused `validate`, `run --dry-run` and `run` hung for good: the scan of which local files
 * a module imports read the module as any file, and the prompt file was opened to be read. Each
 * is refused at the config value naming it, saying what is there, as a config or a testset that
 * is no regular file is.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

/** A one-suite project whose suite has `lines` and whose `fifo` is a named pipe. */
function project(lines: readonly string[], fifo: string): string {
  const dir = scratch();
  writeFiles(dir, {
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: t.csv }',
      ...lines.map((line) => `    ${line}`),
      '',
    ].join('\n'),
    't.csv': 'q\na\n',
  });
  execFileSync('mkfifo', [join(dir, fifo)]);
  return dir;
}

const FILES: { what: string; lines: string[]; fifo: string; error: (dir: string) => string }[] = [
  {
    what: 'a function module',
    lines: ['function: ./answer.mjs#answer'],
    fifo: 'answer.mjs',
    error: (dir) =>
      `error: evals.yaml:5:15  suites[0].function: module not found: ./answer.mjs (resolved to ${join(dir, 'answer.mjs')}, which is a FIFO (named pipe), not a regular file)\n`,
  },
  {
    what: "a model target's prompt file",
    lines: [
      'target:',
      '  type: model',
      '  model: m',
      '  baseUrl: http://127.0.0.1:8080/v1',
      '  apiKey: k',
      '  prompt: { file: prompt.md }',
    ],
    fifo: 'prompt.md',
    error: () =>
      'error: evals.yaml:10:23  suites[0].target.prompt.file: prompt file prompt.md cannot be read (it is a FIFO (named pipe), not a regular file)\n',
  },
];

for (const { what, lines, fifo, error } of FILES) {
  describe(`${what} that is a FIFO`, () => {
    for (const args of [['validate'], ['run', '--dry-run'], ['run']]) {
      it(`evals ${args.join(' ')} refuses it at its config value (exit 2), without waiting`, async () => {
        const dir = project(lines, fifo);
        const r = await runCli(args, { cwd: dir, timeoutMs: 20_000 });
        assert.equal(r.signal, null, 'ended on its own, not killed by the time limit');
        assert.equal(r.code, 2, r.stderr);
        assert.equal(r.stderr, error(dir));
      });
    }
  });
}
