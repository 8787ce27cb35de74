/**
 * `evals override` names the case it recorded as the summary and `evals show` name it: a dedup id
 * the user wrote whole (two ids that differ only at the end, as `refund-window-2023` and
 * `refund-window-2024`, were both cut to `refund-windo`), a hash id short with its `…`, so the
 * prefix is not taken for the whole id.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const override = (dir: string, id: string) =>
  runInProcess(
    ['override', 'evals-results.json', '--case', id, '--evaluator', 'yes', '--score', '1'],
    dir,
  );

void describe('evals override', () => {
  void it('says which case it recorded by its id as the reports show it', async () => {
    const dir = jsonlProject(
      [
        { __dedup_id__: 'refund-window-2023', out: 'no' },
        { __dedup_id__: 'refund-window-2024', out: 'no' },
        { out: 'no, by content' },
      ],
      ['output: out', 'evaluators:', '  - { id: yes, use: contains, with: { values: [yes] } }'],
    );
    const run = await runInProcess(['run'], dir);
    assert.equal(run.code, 1, run.stderr + run.stdout);

    // Two ids that differ only at the end are listed whole, so either can be copied.
    const both = await override(dir, 'refund-window');
    assert.equal(both.code, 2, both.stdout);
    assert.ok(
      both.stderr.includes('matches 2 cases (refund-window-2023 in s; refund-window-2024 in s)'),
      both.stderr,
    );

    const dedup = await override(dir, 'refund-window-2024');
    assert.equal(dedup.code, 0, dedup.stderr);
    assert.match(dedup.stdout, /: yes on case refund-window-2024 \(s\) scored 0, a human says 1;/);

    const artifact = JSON.parse(readFileSync(join(dir, 'evals-results.json'), 'utf8')) as {
      runs: { cases: { id: string; data: { out: string } }[] }[];
    };
    const hash = artifact.runs[0]?.cases.find((c) => c.data.out === 'no, by content')?.id ?? '';
    assert.match(hash, /^[0-9a-f]{64}$/);
    const byHash = await override(dir, hash.slice(0, 8));
    assert.equal(byHash.code, 0, byHash.stderr);
    assert.ok(byHash.stdout.includes(`on case ${hash.slice(0, 11)}\u2026 (s)`), byHash.stdout);
  });
});
