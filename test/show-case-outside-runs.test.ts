/**
 * `evals show --case ID --suite S` when ID is a case of another suite only: the error does not
 * say that no case id starts with ID in the file (some does), but that none does in the runs
 * `--suite` / `--grid` select, and names the runs where it does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const EVALUATORS = ['    evaluators:', '      - { id: e, use: contains, with: { values: [yes] } }'];

describe('evals show --case with --suite selecting runs that lack the case', () => {
  it('says the runs selected lack it and names the run that has it', async () => {
    const dir = scratch();
    writeFiles(dir, {
      'evals.yaml': [
        'version: 1',
        'suites:',
        ...['a', 'b'].flatMap((id) => [
          `  - id: ${id}`,
          `    testset: { path: ${id}.jsonl }`,
          ...EVALUATORS,
        ]),
        '',
      ].join('\n'),
      'a.jsonl': `${JSON.stringify({ __dedup_id__: 'only-in-a', output: 'yes' })}\n`,
      'b.jsonl': `${JSON.stringify({ __dedup_id__: 'only-in-b', output: 'yes' })}\n`,
    });
    assert.equal((await runInProcess(['run', '-o', 'r.json'], dir)).code, 0);
    const shown = await runInProcess(
      ['show', 'r.json', '--case', 'only-in-a', '--suite', 'b'],
      dir,
    );
    assert.equal(shown.code, 2);
    assert.equal(
      shown.stderr.trim(),
      'error: --case only-in-a: no case id starts with it in the runs of r.json selected by --suite b; it is a case of a (see evals show --help)',
    );
    // Found where the selection looks, as before.
    const found = await runInProcess(
      ['show', 'r.json', '--case', 'only-in-a', '--suite', 'a'],
      dir,
    );
    assert.equal(found.code, 0, found.stderr);
  });
});
