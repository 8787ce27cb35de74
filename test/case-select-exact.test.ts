/**
 * `--case ID` of `evals override` and `evals show`: a case whose whole id is ID wins over the
 * cases whose id merely starts with it, so case c1 can be picked when c10…c19 exist.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { caseIdMatch } from '../src/report/show-select.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const ids = ['c1', ...Array.from({ length: 10 }, (_, n) => `c1${n}`), 'c2'];

async function project(grid: string[] = []): Promise<string> {
  const rows = ids.map((id) => ({ __dedup_id__: id, output: `answer ${id}` }));
  const dir = jsonlProject(rows, [
    ...grid,
    'evaluators:',
    '  - { id: says, use: contains, with: { values: [answer] } }',
  ]);
  const run = await runInProcess(['run', '-o', 'r.json'], dir);
  assert.equal(run.code, 0, run.stderr);
  return dir;
}

describe('--case: an exact id wins over prefix matches', () => {
  it('tells an exact match from a prefix match', () => {
    assert.equal(caseIdMatch('c1', 'c1'), 'exact');
    assert.equal(caseIdMatch('c10', 'c1'), 'prefix');
    assert.equal(caseIdMatch('c2', 'c1'), null);
  });

  it('evals override --case c1 records case c1 although c10…c19 exist', async () => {
    const dir = await project();
    const flags = ['--case', 'c1', '--evaluator', 'says', '--score', '0'];
    const r = await runInProcess(['override', 'r.json', ...flags], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /on case c1 \(/);
    const line = JSON.parse(readFileSync(join(dir, 'evals-overrides.jsonl'), 'utf8')) as {
      caseId: string;
    };
    assert.equal(line.caseId, 'c1');
  });

  it('evals override refuses an exact id found at several grid points until --grid narrows it', async () => {
    const dir = await project(['grid: { t: [a, b] }']);
    const flags = ['--case', 'c1', '--evaluator', 'says', '--score', '0'];
    const r = await runInProcess(['override', 'r.json', ...flags], dir);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--case c1 matches 2 cases/);
    const narrowed = await runInProcess(['override', 'r.json', ...flags, '--grid', 't=b'], dir);
    assert.equal(narrowed.code, 0, narrowed.stderr);
    // A start of several ids that is no id is still refused.
    const prefix = ['--case', 'c', '--evaluator', 'says', '--score', '0', '--grid', 't=b'];
    const refused = await runInProcess(['override', 'r.json', ...prefix], dir);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--case c matches 12 cases .*: give the whole id, more of it/);
  });

  it('evals show --case c1 shows case c1 alone', async () => {
    const dir = await project();
    const r = await runInProcess(['show', 'r.json', '--case', 'c1', '--json'], dir);
    assert.equal(r.code, 0, r.stderr);
    const shown = JSON.parse(r.stdout) as { matched: number; cases: { case: { id: string } }[] };
    assert.equal(shown.matched, 1);
    assert.deepEqual(
      shown.cases.map((c) => c.case.id),
      ['c1'],
    );
    // A start that is no id still shows every case it starts.
    const all = await runInProcess(['show', 'r.json', '--case', 'c', '--json'], dir);
    assert.equal(all.code, 0, all.stderr);
    assert.equal((JSON.parse(all.stdout) as { matched: number }).matched, 12);
  });

  it('evals show --case c1 --failed says case c1 (not c10…c19) matches no status flag', async () => {
    const dir = await project();
    const r = await runInProcess(['show', 'r.json', '--case', 'c1', '--failed'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /--case c1 is in r\.json, but none of its results .* matches --failed/);
  });
});
