/**
 * A command evals prints for the user to paste names a file or folder whose name starts with `-`
 * as `./-name`: `cd -x` (after `evals init -- -x`) is an unknown option of cd, and
 * `evals show -r.json --failed` (after `evals run -o=-r.json`) one of evals show.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { tempFolder } from './helpers/temp.ts';

describe('printed commands name a "-…" file as ./-…', () => {
  it('evals init -- -x says cd ./-x', async () => {
    const result = await runInProcess(['init', '--', '-x'], tempFolder('evalgate-init-'));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /\n {2}cd \.\/-x\n/);
  });

  it('evals run -o=-r.json points at evals show ./-r.json --failed', async () => {
    const dir = jsonlProject(
      [{ q: 'a', output: 'y' }],
      ['evaluators:', '  - { id: ok, use: is-equals, with: { expected: "x" } }'],
    );
    const result = await runInProcess(['run', '-o=-r.json'], dir);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /evals show \.\/-r\.json --failed\n$/);
    const show = await runInProcess(['show', './-r.json', '--failed'], dir);
    assert.equal(show.code, 0, show.stderr);
  });
});
