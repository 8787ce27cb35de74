/**
 * A command target with `output: json` whose program prints a secret where its JSON goes wrong
 * (`{"key": sk-…}`, a value left unquoted) made the case error quote what it found there: the
 * first 20 characters of the secret (`found "sk-cmd-json-SECRET-"`), a piece that scrubbing the
 * finished case cannot recognise, so it reached the artifact, the JUnit file and the terminal.
 * Found by the response fuzz (scripts/fuzz-command.ts, `secret-bad-json`). stdout is scrubbed
 * whole before the error quotes a piece of it, so the error quotes `[redacted]`, at the column
 * where the secret is in stdout as printed (not in the scrubbed copy).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allText, artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

const TOKEN = 'sk-cmd-json-SECRET-0123456789abcdef';

/** A command target that prints `{"key": ` and then $MY_TOKEN unquoted, read as JSON. */
function printsKeyProject(): string {
  return jsonlProject(
    [{ q: 'x' }],
    [
      'target:',
      '  type: command',
      '  run: [node, print.mjs]',
      '  output: json',
      'evaluators:',
      '  - { use: is-equals, with: { expected: x } }',
    ],
    {
      'print.mjs':
        "process.stdin.resume().on('end', () => process.stdout.write('{\"key\": ' + process.env.MY_TOKEN + '}'));\n",
    },
  );
}

describe('a command whose JSON goes wrong at a secret', () => {
  it('quotes it redacted, in the case error and everywhere else', async () => {
    const dir = printsKeyProject();
    const result = await runInProcess(['run', '-o', 'results.json', '--junit', 'junit.xml'], dir, {
      MY_TOKEN: TOKEN,
    });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const error = artifactCases(dir)[0]!.cases[0]!.error ?? '';
    assert.match(
      error,
      // Counted in stdout as printed (`{"key": ` is 8 characters), the secret quoted redacted.
      /^stdout is not JSON \(output: json\): line 1, column 9: expected a value, found "\[redacted\]"$/,
    );
    const everywhere = `${result.stdout}
${result.stderr}
${allText(dir)}`;
    assert.doesNotMatch(everywhere, /sk-cmd-json/);
  });
  it('quotes a key read partly as a number (a hex key from a digit) redacted, not its rest', async () => {
    // `{"key": 9f8e…}` is the number 9 and then an error at `f`: the rest of the key, a piece
    // that scrubbing the finished case does not recognise, was quoted (its first 20 characters).
    const hex = '9f8e7d6c5b4a3928170655aa';
    const dir = printsKeyProject();
    const result = await runInProcess(['run', '-o', 'results.json', '--junit', 'junit.xml'], dir, {
      MY_TOKEN: hex,
    });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.equal(
      artifactCases(dir)[0]!.cases[0]!.error,
      `stdout is not JSON (output: json): line 1, column 10: expected ',' or '}' after a property value, found "[redacted]"`,
    );
    const everywhere = `${result.stdout}
${result.stderr}
${allText(dir)}`;
    assert.doesNotMatch(everywhere, /f8e7d6/);
  });
});
