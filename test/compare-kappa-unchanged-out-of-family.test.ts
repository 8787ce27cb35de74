/**
 * A judge whose verdicts changed on some labelled rows but whose κ did not (it is wrong on as
 * many rows of each label as before, only other ones) can never be significant: every swap of
 * its verdicts reaches a change of 0. docs/statistics.md leaves such a row out of the family
 * ("the same κ on both sides"), so it must not take a share of α from the rows that moved.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Comparison } from '../src/types/comparison.ts';
import { agreementProject } from './helpers/agreement-project.ts';
import { runInProcess } from './helpers/in-process.ts';

async function compare(dir: string): Promise<{ json: Comparison; text: string }> {
  for (const side of ['base', 'head']) {
    const run = await runInProcess(['run', '-o', `${side}.json`], dir, { SIDE: side });
    assert.ok(run.code === 0 || run.code === 1, run.stderr);
  }
  const json = await runInProcess(['compare', 'base.json', 'head.json', '--format', 'json'], dir);
  assert.ok(json.code === 0 || json.code === 1, json.stderr);
  const text = await runInProcess(['compare', 'base.json', 'head.json'], dir);
  return { json: JSON.parse(json.stdout) as Comparison, text: text.stdout };
}

describe('a κ row whose κ did not change', () => {
  it('is left out of the Holm family although some verdicts changed', async () => {
    // Even rows are labelled pass: BASE fails rows 0 and 2, HEAD rows 4 and 6. The tables, and
    // so κ, are the same; the pass rate and the judge's scores did move.
    const dir = agreementProject({
      rows: 40,
      baseWrong: (i) => i === 0 || i === 2,
      headWrong: (i) => i === 4 || i === 6,
    });
    const { json, text } = await compare(dir);
    const run = json.runs[0];
    assert.ok(run !== undefined);
    const kappaRow = run.agreement[0];
    assert.ok(kappaRow !== undefined);
    assert.equal(kappaRow.delta, 0);
    assert.equal(kappaRow.label, 'unchanged');
    assert.equal(kappaRow.adjustedP, null, 'not a member of the family');
    assert.equal(run.passRate.adjustedP !== null, true, 'the pass rate moved: in the family');
    assert.equal(json.family.rows, 2);
    assert.match(text, /over all 2 rows of this comparison in which something changed/);
  });
});
