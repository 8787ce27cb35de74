/**
 * A case value longer than the system takes in one argument or environment variable (128 KiB
 * on Linux) cannot reach a command that way: spawn throws E2BIG, and the case errored with
 * Node's bare `spawn E2BIG`. It now names the value that is too long, its size and the way
 * round it (stdin, which carries the case whatever its length).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

const LONG = 'x'.repeat(200_000);

async function errorsOf(target: string[]): Promise<(string | null | undefined)[]> {
  const dir = jsonlProject([{ q: LONG }, { q: 'fine' }], ['target:', '  type: command', ...target]);
  const result = await runInProcess(['run', '-o', 'results.json'], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  return artifactCases(dir)[0]!.cases.map((c) => c.error);
}

const FIX =
  'read long values from stdin instead, where the case is as JSON ({"case": …, "params": …})';

describe('a case value too long for an argument or a variable', () => {
  it('in an argument: names the argument and its size', async () => {
    assert.deepEqual(await errorsOf(["  run: [printf, '%s', '{{ case.q }}']"]), [
      `cannot start printf: its arguments and environment are too long (E2BIG): argument 2 holds 200,001 bytes, past the 131,072 the system takes in one argument or variable; ${FIX}`,
      null,
    ]);
  });

  it('in env: names the variable', async () => {
    assert.deepEqual(
      await errorsOf(['  run: [sh, -c, \'printf %s "$V"\']', "  env: { V: '{{ case.q }}' }"]),
      [
        `cannot start sh: its arguments and environment are too long (E2BIG): environment variable V holds 200,003 bytes, past the 131,072 the system takes in one argument or variable; ${FIX}`,
        null,
      ],
    );
  });

  it('in a shell line: names the template, not the variable that carries it', async () => {
    assert.deepEqual(await errorsOf(['  shell: true', "  run: 'printf %s {{ case.q }}'"]), [
      `cannot start /bin/sh: its arguments and environment are too long (E2BIG): the value of {{ case.q }} in the command line holds 200,018 bytes, past the 131,072 the system takes in one argument or variable; ${FIX}`,
      null,
    ]);
  });
});
