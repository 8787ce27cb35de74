/**
 * The `evals run … --resume FILE` command an interrupted run prints works when pasted: its
 * `--resume FILE` (and `-o`) come before a `--` the run was given (after it they read as more
 * config files), and a file whose name starts with `-` is named `./-…` (`--resume -r.json` reads
 * `-r.json` as an option). Checked by running the printed command.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { interruptedRun, jsonlProject, runInProcess } from './helpers/in-process.ts';

const STOP = '__clipolishResumeStop';

function project(): string {
  delete (globalThis as Record<string, unknown>)['stopped'];
  return jsonlProject(
    [1, 2, 3, 4].map((n) => ({ n })),
    [
      'hash: [n]',
      'concurrency: 1',
      'function: ./fn.mjs#fn',
      'evaluators:',
      '  - { id: ok, use: is-equals, with: { expected: "x" } }',
    ],
    {
      // Stops the run at its second case, the first time only.
      'fn.mjs': `export function fn({ testCase }) {
  if (testCase.n === 2 && !globalThis.stopped && globalThis.${STOP}) {
    globalThis.stopped = true;
    globalThis.${STOP}();
  }
  return 'x';
}
`,
    },
  );
}

/** The printed resume command's words (none is quoted in these tests), `evals run` left out. */
function resumeArgv(stderr: string): string[] {
  const line = /(?:^|\s)(evals run [^\n]*--resume[^\n]*)$/m.exec(stderr)?.[1];
  assert.ok(line !== undefined, stderr);
  assert.doesNotMatch(line, /'/, 'no quoting in these tests');
  return line.split(' ').slice(2);
}

describe('the printed --resume command runs as printed', () => {
  it('with the config after --', async () => {
    const dir = project();
    const stderr = await interruptedRun(STOP, ['run', '-o', 'r.json', '--', 'evals.yaml'], dir);
    const argv = resumeArgv(stderr);
    assert.deepEqual(argv.slice(-2), ['--', 'evals.yaml'], argv.join(' '));
    const resumed = await runInProcess(['run', ...argv], dir);
    assert.equal(resumed.code, 0, resumed.stderr);
  });

  it('with an -o whose name starts with "-"', async () => {
    const dir = project();
    const stderr = await interruptedRun(STOP, ['run', '-o=-r.json'], dir);
    const argv = resumeArgv(stderr);
    assert.ok(argv.includes('./-r.json'), argv.join(' '));
    const resumed = await runInProcess(['run', ...argv], dir);
    assert.equal(resumed.code, 0, resumed.stderr);
  });
});
