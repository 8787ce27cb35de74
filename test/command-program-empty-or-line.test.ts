/**
 * Two ways a command's program is not a program: an empty one (`run: [""]`, or a case whose
 * template gives ""), refused as `command  is not on PATH` or failing with spawn's own words
 * (`The argument 'file' cannot be empty`), and a whole command line written as one item
 * (`run: ["python3 agent.py"]`), refused as a program of that name. Each now says what it is
 * and what to write.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

const EMPTY =
  'the program is empty: run: starts with the program to run, such as [python3, agent.py]';

async function firstError(run: string): Promise<string | undefined> {
  const dir = jsonlProject([{ q: '' }], ['target:', '  type: command', `  run: ${run}`]);
  const result = await runInProcess(['validate'], dir);
  assert.equal(result.code, 2, result.stdout);
  return result.stderr.split('\n')[0];
}

describe("a command's program that is not one", () => {
  it('an empty program is refused as empty', async () => {
    assert.equal(
      await firstError('[""]'),
      `error: evals.yaml:7:13  suites[0].target.run[0]: ${EMPTY}`,
    );
  });

  it('a command line in one item is refused with the argument list to write', async () => {
    assert.equal(
      await firstError('["sh -c true"]'),
      'error: evals.yaml:7:13  suites[0].target.run[0]: command "sh -c true" is not on PATH: each item of run: is one argument, and this one holds a command line; write [sh, -c, true], or set shell: true to run it through /bin/sh',
    );
  });

  it('a case whose template gives an empty program errors as empty', async () => {
    const dir = jsonlProject(
      [{ q: '' }],
      ['target:', '  type: command', '  run: ["{{ case.q }}"]'],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1, result.stderr + result.stdout);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.error, `cannot start the command: ${EMPTY}`);
  });
});
