/**
 * `evals show --case ID` with a status flag (`--failed`, `--errored`, `--flaky`) when case ID is
 * in the artifact but did not fail (err, flake): no case matches a status flag, which `evals show
 * --help` and docs/cli.md answer with exit 0 (exit 2 is for a bad file or a flag that selects
 * nothing that exists). It exited 2 as if the id were a typo, so a script asking "did this case
 * fail?" stopped on a bad-input error for the answer "no".
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

async function project(): Promise<string> {
  const rows = [
    { __dedup_id__: 'good', output: 'answer good' },
    { __dedup_id__: 'bad', output: 'nothing' },
  ];
  const dir = jsonlProject(rows, [
    'evaluators:',
    '  - { id: says, use: contains, with: { values: [answer] } }',
  ]);
  const run = await runInProcess(['run', '-o', 'r.json'], dir);
  assert.equal(run.code, 1, run.stderr);
  return dir;
}

describe('evals show --case ID with a status flag the case does not match', () => {
  it('exits 0 and says the case is there but matches none of the status flags', async () => {
    const dir = await project();
    const r = await runInProcess(['show', 'r.json', '--case', 'good', '--failed'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /^r\.json: 1 run, 2 cases; 0 match --failed --case good\n/);
    assert.match(
      r.stdout,
      /--case good is in r\.json, but none of its results in the runs selected matches --failed\n/,
    );
    // Not the account of a run that failed with no failing case: another case did fail.
    assert.doesNotMatch(r.stdout, /but the run failed/);
  });

  it('gives an empty selection as JSON, exit 0', async () => {
    const dir = await project();
    const flags = ['--case', 'good', '--errored', '--flaky', '--json'];
    const r = await runInProcess(['show', 'r.json', ...flags], dir);
    assert.equal(r.code, 0, r.stderr);
    const shown = JSON.parse(r.stdout) as { shown: number; matched: number; cases: unknown[] };
    assert.deepEqual([shown.shown, shown.matched, shown.cases], [0, 0, []]);
  });

  it('still refuses (exit 2) an id that is not in the artifact, status flags or not', async () => {
    const dir = await project();
    const r = await runInProcess(['show', 'r.json', '--case', 'nope', '--failed'], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--case nope: no case id starts with it in r\.json \(see/);
  });

  it('shows the case when it does match the flag', async () => {
    const dir = await project();
    const r = await runInProcess(['show', 'r.json', '--case', 'bad', '--failed'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /1 match --failed --case bad/);
    assert.match(r.stdout, /✗ bad {2}FAILED/);
  });
});
