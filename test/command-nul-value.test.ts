/**
 * A case value holding a NUL character cannot be a command's argument or environment variable
 * (the system's strings end at NUL). The case errored with Node's own words, naming an internal
 * variable (`options.env['EVALGATE_VALUE_1']`); it now says which argument or variable, and why.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

async function errorsOf(target: string[]): Promise<(string | null | undefined)[]> {
  const dir = jsonlProject(
    [{ q: 'a\u0000b' }, { q: 'fine' }],
    ['target:', '  type: command', ...target],
  );
  const result = await runInProcess(['run', '-o', 'results.json'], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  return artifactCases(dir)[0]!.cases.map((c) => c.error);
}

describe('a case value with a NUL character', () => {
  it('in an argument: names the argument', async () => {
    assert.deepEqual(await errorsOf(["  run: [printf, '%s', '{{ case.q }}']"]), [
      'argument 2 of the command (printf) holds a NUL character, which no argument or environment variable can carry',
      null,
    ]);
  });

  it('in env: names the variable', async () => {
    assert.deepEqual(
      await errorsOf(['  run: [sh, -c, \'printf %s "$V"\']', "  env: { V: '{{ case.q }}' }"]),
      [
        'environment variable V of the command (sh) holds a NUL character, which no argument or environment variable can carry',
        null,
      ],
    );
  });

  it('in a shell line: names the template, not the variable that carries it', async () => {
    assert.deepEqual(await errorsOf(['  shell: true', "  run: 'printf %s {{ case.q }}'"]), [
      'the value of {{ case.q }} in the command line holds a NUL character, which no argument or environment variable can carry',
      null,
    ]);
  });
});
