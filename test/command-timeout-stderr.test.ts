/**
 * A command timed out keeps the end of what it wrote to stderr: why it hung is usually there
 * (`retrying in 8 s…`, `waiting for the lock…`), and without it the case said only `timed out
 * after 1000 ms`. Whole lines only, scrubbed of secrets as every case error is.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

const SECRET = 'sk-command-timeout-SECRET-42424242';

describe('a command past its timeout', () => {
  it('keeps the last whole lines of its stderr in the error, secrets scrubbed', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['timeout: 1s', 'target:', '  type: command', '  run: [sh, hang.sh]'],
      {
        'hang.sh': [
          'echo "connecting with $MY_API_KEY" >&2',
          'echo "waiting for the lock on db.sqlite" >&2',
          // A line still being written when the time runs out is not shown.
          'printf "half a li" >&2',
          'sleep 30',
          '',
        ].join('\n'),
      },
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir, { MY_API_KEY: SECRET });
    assert.equal(result.code, 1, result.stdout + result.stderr);
    const error = artifactCases(dir)[0]!.cases[0]!.error ?? '';
    assert.equal(
      error,
      'timed out after 1000 ms while running sh; stderr:\nconnecting with [redacted]\nwaiting for the lock on db.sqlite',
    );
    assert.equal(result.stdout.includes(SECRET) || result.stderr.includes(SECRET), false);
  });
});
