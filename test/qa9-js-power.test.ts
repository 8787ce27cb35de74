/**
 * QA round 9, MEDIUM-1: the power of a row ("could detect ±X", "underpowered", "~N cases
 * needed") follows the row's noise for a graded score, and keeps the sign-flip test's count floor
 * where every changed case moves by ±1 (the pass rate, scores that are all 0 or 1).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { normalQuantileUpper } from '../src/compare/normal.ts';
import { fewestDetectable, rowPower } from '../src/compare/power.ts';
import type { CaseSpec } from './helpers/compare-builder.ts';
import { compareSides } from './helpers/compare-cli.ts';

const CASES = 20;

/** A small per-case jitter, different on each side: 0, 0.01, …, 0.04. */
function jitter(i: number, side: 'base' | 'head'): number {
  return ((i * 7 + (side === 'head' ? 3 : 0)) % 5) * 0.01;
}

/**
 * 20 cases. `steady` is 0.5 plus the jitter on both sides; `shifted` is the same and moves by
 * -0.03 in HEAD; `noisy` swings by ±0.15 per case and does not move on average; `exact` is 0/1
 * and one case goes from 1 to 0 (the case's pass/fail follows it).
 */
function sides(): [CaseSpec[], CaseSpec[]] {
  const base: CaseSpec[] = [];
  const head: CaseSpec[] = [];
  for (let i = 0; i < CASES; i++) {
    const before = 0.5 + jitter(i, 'base');
    const after = 0.5 + jitter(i, 'head');
    base.push({
      id: `c${i}`,
      scores: { steady: before, shifted: before, noisy: 0.5, exact: 1 },
      passed: true,
    });
    head.push({
      id: `c${i}`,
      scores: {
        steady: after,
        shifted: after - 0.03,
        noisy: i % 2 === 0 ? 0.65 : 0.35,
        exact: i === 0 ? 0 : 1,
      },
      passed: i !== 0,
    });
  }
  return [base, head];
}

interface JsonRow {
  evaluator?: string;
  label: string;
  significant: boolean;
  sd: number;
  paired: number;
  power: { detectable: number; underpowered: boolean; casesNeeded: number | null } | null;
}

interface JsonComparison {
  family: { rows: number };
  runs: { passRate: JsonRow; evaluators: JsonRow[] }[];
}

async function compare(format: 'json' | 'text'): Promise<string> {
  const result = await compareSides(...sides(), format);
  assert.ok(result.code === 0 || result.code === 1, result.stderr);
  return result.stdout;
}

describe('the power of a comparison row (QA9 MEDIUM-1)', () => {
  it('follows the noise of graded score rows and keeps the ±1 floor of pass/fail rows', async () => {
    const comparison = JSON.parse(await compare('json')) as JsonComparison;
    const qa = comparison.runs[0];
    assert.ok(qa !== undefined);
    const row = (name: string): JsonRow => {
      const found = qa.evaluators.find((r) => r.evaluator === name);
      assert.ok(found !== undefined, name);
      return found;
    };
    // Every row moved, so all five are tested together: Holm's first step is α / 5.
    const family = comparison.family.rows;
    assert.equal(family, 5);
    const multiplier = normalQuantileUpper(0.05 / (2 * family)) + normalQuantileUpper(0.2);
    const byNoise = (r: JsonRow): number => (multiplier * r.sd) / Math.sqrt(r.paired);

    // The same noise sees a -0.03 change: the steady row can see small changes too.
    assert.equal(row('shifted').label, 'regressed');
    assert.equal(row('shifted').significant, true);

    const steady = row('steady');
    assert.equal(steady.label, 'unchanged');
    assert.ok(steady.power !== null);
    assert.ok(Math.abs(steady.power.detectable - byNoise(steady)) < 1e-12, JSON.stringify(steady));
    assert.ok(steady.power.detectable < 0.05, JSON.stringify(steady));
    assert.equal(steady.power.underpowered, false);
    assert.equal(steady.power.casesNeeded, null);

    // Noisier: underpowered by its noise, sized by its noise, not by the count floor (8 / 0.1).
    const noisy = row('noisy');
    assert.equal(noisy.label, 'unchanged');
    assert.ok(noisy.power !== null);
    assert.ok(Math.abs(noisy.power.detectable - byNoise(noisy)) < 1e-12, JSON.stringify(noisy));
    assert.equal(noisy.power.underpowered, true);
    const needed = Math.ceil(CASES * (byNoise(noisy) / 0.1) ** 2);
    assert.ok(needed > CASES && needed < 40, String(needed));
    assert.equal(noisy.power.casesNeeded, needed);

    // 0/1 rows: a change of Δ moves Δ·n cases, and 8 must move for 2/2^8 < 0.05/5.
    const fewest = fewestDetectable(0.05, family);
    assert.equal(fewest, 8);
    for (const r of [row('exact'), qa.passRate]) {
      assert.equal(r.label, 'unchanged');
      assert.deepEqual(r.power, {
        detectable: fewest / CASES,
        underpowered: true,
        casesNeeded: fewest / 0.1,
      });
    }

    const text = await compare('text');
    const line = (name: string): string => {
      const found = text.split('\n').find((l) => l.startsWith(`  ${name} `));
      assert.ok(found !== undefined, text);
      return found;
    };
    const fixed = (value: number): string => value.toFixed(2);
    assert.match(
      line('steady'),
      new RegExp(`unchanged \\(could detect ±${fixed(byNoise(steady))}\\)$`),
    );
    assert.match(
      line('noisy'),
      new RegExp(
        `not significant \\(underpowered: could detect ±${fixed(byNoise(noisy))}, ~${needed} cases needed for ±0\\.10\\)$`,
      ),
    );
    assert.match(
      line('exact'),
      /not significant \(underpowered: could detect ±0\.40, ~80 cases needed for ±0\.10\)$/,
    );
    assert.match(
      line('pass rate'),
      /not significant \(underpowered: could detect ±40\.0 pp, ~80 cases needed for ±10\.0 pp\)$/,
    );
    // Of the four rows the test cannot call, three are underpowered (noisy, exact, the pass
    // rate): not significant, not unchanged.
    assert.match(text, /1 unchanged · 3 not significant \(underpowered\)/);
  });

  it('still says no change is detectable with fewer cases than the sign-flip test needs', () => {
    // 30 rows tested together: 2/2^k < 0.05/30 takes k = 11 cases, and a graded row has 10.
    const fewest = fewestDetectable(0.05, 30);
    assert.equal(fewest, 11);
    const power = rowPower({
      standardError: 0.001,
      cases: 10,
      family: 30,
      alpha: 0.05,
      target: 0.1,
      bounded: false,
      signFlip: true,
    });
    assert.equal(power.detectable, fewest / 10);
    assert.ok(power.detectable > 1);
    assert.equal(power.underpowered, true);
    assert.equal(power.casesNeeded, fewest);
  });
});

describe('the wording of a row that no change could reach', () => {
  it('says too few cases, not "could detect" a change past what a score can move', async () => {
    // 10 cases and 29 graded evaluators that all move a little: with 29 rows tested together
    // the sign-flip test needs 11 cases moving alike, so no change of these rows could count.
    const names = Array.from({ length: 29 }, (_, j) => `e${j}`);
    const side = (which: 'base' | 'head'): CaseSpec[] =>
      Array.from({ length: 10 }, (_, i) => ({
        id: `c${i}`,
        scores: Object.fromEntries(names.map((name) => [name, 0.5 + jitter(i, which)])),
        passed: true,
      }));
    const result = await compareSides(side('base'), side('head'));
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stdout,
      /e0 .*not significant \(underpowered: too few cases to detect any change, ~11 cases needed for ±0\.10\)/,
    );
    assert.doesNotMatch(result.stdout, /could detect ±1\./);
  });
});
