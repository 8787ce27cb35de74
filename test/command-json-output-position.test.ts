/**
 * A `command` target with `output: json` whose stdout is not JSON says where and why, as a
 * testset does: the line and column, what was expected and what was found (a log line printed
 * before the JSON, a second JSON value), or that the program printed nothing; never the
 * engine's `Unexpected end of JSON input` or `at position 8`, which differ by Node version.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

/** The errors of one case per stdout in `outputs`, printed by `printf '%s'`. */
async function errorsFor(outputs: string[]): Promise<string[]> {
  const dir = jsonlProject(
    outputs.map((out) => ({ out })),
    [
      'target:',
      '  type: command',
      '  run: [node, -e, "process.stdout.write(process.argv[1])", "{{ case.out }}"]',
      '  output: json',
    ],
    {},
  );
  await runInProcess(['run', '-o', 'results.json'], dir);
  return artifactCases(dir)[0]!.cases.map((c) => c.error ?? '');
}

describe('command target output: json, stdout not JSON', () => {
  it('says where it goes wrong, what was expected and what was found', async () => {
    const [logLine, twoValues, empty, fine] = await errorsFor([
      'Loading model...\n{"answer": "Paris"}\n',
      '{"a": 1}\n{"a": 2}\n',
      '\n',
      '{"a": 1}\n',
    ]);
    assert.equal(
      logLine,
      'stdout is not JSON (output: json): line 1, column 1: expected a value, found "Loading"',
    );
    assert.equal(
      twoValues,
      "stdout is not JSON (output: json): line 2, column 1: unexpected '{' after the JSON value",
    );
    assert.equal(
      empty,
      'stdout is empty (output: json): the program printed nothing, where one JSON value was expected',
    );
    assert.equal(fine, '');
  });
});
