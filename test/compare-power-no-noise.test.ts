/**
 * A row with no measured noise never claims to see any change: two identical runs of a
 * deterministic evaluator whose scores vary across cases used to print `unchanged (could detect
 * ±0.00)`, beside rows scored 1.0 everywhere that said `could detect ±0.60`. With fewer changed
 * cases than the sign-flip test needs, a graded row gets the count floor of a pass/fail row.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { normalQuantileUpper } from '../src/compare/normal.ts';
import { fewestDetectable, rowPower } from '../src/compare/power.ts';
import type { Comparison } from '../src/types/comparison.ts';
import { agreementProject } from './helpers/agreement-project.ts';
import type { CaseSpec } from './helpers/compare-builder.ts';
import { compareSides } from './helpers/compare-cli.ts';
import { runInProcess } from './helpers/in-process.ts';

const CASES = 60;

/**
 * `graded` varies across cases (0.3 to 0.9) and is the same on both sides, as a deterministic
 * evaluator scores the same outputs; `perfect` is 1 everywhere; `one` is `graded` with one case
 * 0.01 higher in HEAD; `many` is `graded` with 20 cases moving by ±0.01, half each way.
 */
function sides(): [CaseSpec[], CaseSpec[]] {
  const base: CaseSpec[] = [];
  const head: CaseSpec[] = [];
  for (let i = 0; i < CASES; i++) {
    const score = 0.3 + (i % 7) * 0.1;
    const moved = i < 20 ? (i % 2 === 0 ? 0.01 : -0.01) : 0;
    const scores = { graded: score, perfect: 1, one: score, many: score };
    base.push({ id: `c${i}`, scores, passed: true });
    head.push({
      id: `c${i}`,
      scores: { ...scores, one: i === 0 ? score + 0.01 : score, many: score + moved },
      passed: true,
    });
  }
  return [base, head];
}

interface JsonRow {
  evaluator: string;
  label: string;
  sd: number;
  paired: number;
  adjustedP: number | null;
  power: { detectable: number; underpowered: boolean; casesNeeded: number | null } | null;
}

async function compare(format: 'json' | 'text' | 'md'): Promise<string> {
  const result = await compareSides(...sides(), format);
  assert.equal(result.code, 0, result.stderr);
  return result.stdout;
}

describe('the power of a row with no measured noise', () => {
  it('gives a deterministic graded row, an all-equal row and one changed case the count floor', async () => {
    const comparison = JSON.parse(await compare('json')) as {
      family: { rows: number };
      runs: { evaluators: JsonRow[] }[];
    };
    const rows = comparison.runs[0]?.evaluators ?? [];
    const row = (name: string): JsonRow => {
      const found = rows.find((r) => r.evaluator === name);
      assert.ok(found !== undefined, name);
      return found;
    };
    // `one` and `many` moved: two rows tested together, so 7 cases must move alike (2/2^7 <
    // 0.05/2), a change of 7/60 when each moves the whole range; 0.10 takes 70 cases.
    assert.equal(comparison.family.rows, 2);
    const fewest = fewestDetectable(0.05, 2);
    assert.equal(fewest, 7);
    const floor = { detectable: fewest / CASES, underpowered: true, casesNeeded: 70 };
    for (const name of ['graded', 'perfect', 'one']) {
      assert.equal(row(name).label, 'unchanged', name);
      assert.deepEqual(row(name).power, floor, name);
    }
    assert.equal(row('graded').sd, 0);

    // 20 changed cases are enough to measure a noise: the figure is the noise's, as before.
    const many = row('many');
    const multiplier = normalQuantileUpper(0.05 / 4) + normalQuantileUpper(0.2);
    assert.ok(many.power !== null);
    const byNoise = (multiplier * many.sd) / Math.sqrt(many.paired);
    assert.ok(Math.abs(many.power.detectable - byNoise) < 1e-12, JSON.stringify(many));
    assert.equal(many.power.underpowered, false);
  });

  it('says so alike in the text and the markdown forms, never ±0.00', async () => {
    const text = await compare('text');
    const line = (name: string): string => {
      const found = text.split('\n').find((l) => l.startsWith(`  ${name} `));
      assert.ok(found !== undefined, text);
      return found;
    };
    // Nothing moved in `graded` or `perfect`: unchanged is what the data show, with its limit.
    for (const name of ['graded', 'perfect']) {
      assert.match(
        line(name),
        /unchanged \(underpowered: could detect ±0\.12, ~70 cases needed for ±0\.10\)$/,
      );
    }
    // One case moved: the row is in the family and cannot see 0.10, so not `unchanged`.
    assert.match(
      line('one'),
      /not significant \(underpowered: could detect ±0\.12, ~70 cases needed for ±0\.10\)$/,
    );
    assert.match(line('many'), /unchanged \(could detect ±0\.0\d+\)$/);
    assert.doesNotMatch(text, /±0\.00\b/);

    const md = await compare('md');
    const mdLine = (name: string): string => {
      // The statistics per grid point, a list item a row (the table above has no room for it).
      const found = md.split('\n').find((l) => l.startsWith('- ') && l.includes(` ${name}:`));
      assert.ok(found !== undefined, md);
      return found;
    };
    assert.match(mdLine('graded'), /unchanged · \(underpowered: could detect ±0\.12, ~70 cases/);
    assert.match(mdLine('one'), /not significant · \(underpowered: could detect ±0\.12, ~70 cases/);
    assert.doesNotMatch(md, /could detect ±0\.00\b/);
  });

  it('keeps the floor for a graded row with few changed cases, and past 1 with tiny n', () => {
    const settings = { family: 1, alpha: 0.05, target: 0.1, bounded: false, signFlip: true };
    // No case changed among 30: 6 must move (2/2^6 < 0.05), 6/30 = 0.2; 0.1 takes 60 cases.
    const still = rowPower({ ...settings, standardError: 0, cases: 30, changed: 0 });
    assert.deepEqual(still, { detectable: 0.2, underpowered: true, casesNeeded: 60 });
    // Five tiny changes, fewer than six: the same floor, not their near-zero noise.
    const few = rowPower({ ...settings, standardError: 0.0001, cases: 30, changed: 5 });
    assert.deepEqual(few, still);
    // Six changed cases (k) no longer drop the floor at once: it steps down a sixth a case, to
    // none at 11 (2k - 1), where the noise as measured is the figure.
    const steps = [6, 7, 10, 11].map(
      (changed) => rowPower({ ...settings, standardError: 0.0001, cases: 30, changed }).detectable,
    );
    const floors = [5 / 6, 4 / 6, 1 / 6].map((share) => (6 * share) / 30);
    floors.forEach((floor, i) => assert.ok(Math.abs((steps[i] ?? 0) - floor) < 1e-12, `${i}`));
    assert.ok((steps[3] ?? 1) < 0.001, JSON.stringify(steps));
    // Each changed case more lowers the figure, never raising it.
    const all = Array.from(
      { length: 30 },
      (_, changed) =>
        rowPower({ ...settings, standardError: 0.0001, cases: 30, changed }).detectable,
    );
    all.slice(1).forEach((figure, i) => assert.ok(figure <= (all[i] ?? 0), `${i + 1} changed`));
    // Three cases: even six moving the whole range could not be had; past 1, no change at all.
    const tiny = rowPower({ ...settings, standardError: 0, cases: 3, changed: 0 });
    assert.equal(tiny.detectable, 2);
    assert.equal(tiny.underpowered, true);
  });

  it('claims nothing for a κ row whose two summaries have no spread (κ 1 on both sides)', async () => {
    // The judge gets every one of 20 labelled rows right on both sides: κ = 1, whose standard
    // error is 0. Without BASE's recorded `agreement:` the two κ are compared as summaries, and
    // the row's noise of 0 used to read `95% CI 0.000…0.000 … could detect ±0.00`.
    const dir = agreementProject({ rows: 20, baseWrong: () => false, headWrong: () => false });
    for (const side of ['base', 'head']) {
      const result = await runInProcess(['run', '-o', `${side}.json`], dir, { SIDE: side });
      assert.equal(result.code, 0, result.stderr);
    }
    const path = join(dir, 'base.json');
    const base = JSON.parse(readFileSync(path, 'utf8')) as {
      runs: { plan?: { agreement?: unknown } }[];
    };
    for (const r of base.runs) delete r.plan?.agreement;
    writeFileSync(path, JSON.stringify(base));
    const json = await runInProcess(['compare', 'base.json', 'head.json', '--format', 'json'], dir);
    const row = (JSON.parse(json.stdout) as Comparison).runs[0]?.agreement[0];
    assert.ok(row !== undefined, json.stdout);
    // No spread measured: nothing tested (p = 1), the whole range of a κ change, no power.
    assert.deepEqual([row.baseKappa, row.headKappa, row.label], [1, 1, 'unchanged']);
    assert.deepEqual(
      [row.se, row.pValue, row.ci, row.power],
      [null, 1, { low: -2, high: 2 }, null],
    );
    const text = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    assert.equal(text.code, 0, text.stderr);
    const line = text.stdout.split('\n').find((l) => l.includes('κ 1.000 → 1.000'));
    assert.ok(line !== undefined, text.stdout);
    assert.doesNotMatch(line, /could detect/);
    assert.doesNotMatch(line, /CI 0\.000…0\.000/);
  });
});
