/**
 * A judge's κ row in a comparison: the paired permutation test over the labelled rows both runs
 * judged. It holds its level where the two-κ Wald test it replaced cried wolf (a judge that did
 * not change flagged ~9% of the time at 12 labels), still sees a real drop, and reads its
 * verdicts from artifacts as `evals compare` reads them: cases reduced, the label column and
 * the judge's choice kept, also when the label column is named `label` (which the reduced case
 * also uses to name cases by).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  kappaChangeTest,
  testBasedInterval,
  type VerdictPair,
} from '../src/compare/kappa-change.ts';
import { comparableCases } from '../src/compare/comparable.ts';
import { mulberry32 } from '../src/compare/sign-flip.ts';
import { normalUpperTail } from '../src/compare/normal.ts';
import { identityWeights, kappa } from '../src/evaluators/agreement.ts';
import type { Comparison } from '../src/types/comparison.ts';
import { agreementProject } from './helpers/agreement-project.ts';
import { runInProcess } from './helpers/in-process.ts';

const SETTINGS = { resamples: 4999, seed: 0x5eed };
const CAT2 = identityWeights(2);

/** Rows whose human label is random and whose two verdicts are each right with `accuracy`. */
function unchangedJudge(n: number, accuracy: number, random: () => number): VerdictPair[] {
  return Array.from({ length: n }, () => {
    const human = random() < 0.5 ? 1 : 0;
    const verdict = (): number => (random() < accuracy ? human : 1 - human);
    return { human, base: verdict(), head: verdict() };
  });
}

/** The Wald test of two independent κ this test replaced: its p for the same rows. */
function waldP(rows: readonly VerdictPair[]): number | null {
  const table = (side: 'base' | 'head'): number[][] => {
    const t = [
      [0, 0],
      [0, 0],
    ];
    for (const row of rows) t[row.human]![row[side]]!++;
    return t;
  };
  const base = kappa(table('base'), CAT2);
  const head = kappa(table('head'), CAT2);
  if (base.kappa === null || head.kappa === null || base.se === null || head.se === null) {
    return null;
  }
  const se = Math.hypot(base.se, head.se);
  return se > 0 ? Math.min(1, 2 * normalUpperTail(Math.abs(head.kappa - base.kappa) / se)) : 1;
}

describe('kappaChangeTest', () => {
  it('holds its 5% level for an unchanged judge with 12 labels, where the Wald test did not', () => {
    const random = mulberry32(2026);
    const simulations = 800;
    let flagged = 0;
    let waldFlagged = 0;
    for (let s = 0; s < simulations; s++) {
      const rows = unchangedJudge(12, 0.75, random);
      const tested = kappaChangeTest({ weights: CAT2, rows }, SETTINGS);
      if (tested !== null && tested.pValue < 0.05) flagged++;
      const wald = waldP(rows);
      if (wald !== null && wald < 0.05) waldFlagged++;
    }
    assert.ok(flagged / simulations <= 0.05, `paired test flagged ${flagged} of ${simulations}`);
    assert.ok(waldFlagged / simulations > 0.07, `Wald flagged ${waldFlagged} of ${simulations}`);
  });

  it('finds a judge that got worse (κ 0.9 → 0.2 over 100 labels)', () => {
    // Labels alternate; BASE is wrong on rows 0–4, HEAD on rows 60–99.
    const rows = Array.from({ length: 100 }, (_, i) => {
      const human = i % 2;
      return { human, base: i < 5 ? 1 - human : human, head: i >= 60 ? 1 - human : human };
    });
    const tested = kappaChangeTest({ weights: CAT2, rows }, SETTINGS);
    assert.ok(tested !== null);
    assert.equal(tested.baseKappa.toFixed(3), '0.900');
    assert.equal(tested.headKappa.toFixed(3), '0.200');
    assert.equal(tested.method, 'resampled');
    assert.equal(tested.pValue, 1 / 5000);
  });

  it('is exact over every swap: two changed rows give p = 2/4', () => {
    // Ten rows agree on both sides; on two, HEAD is wrong. Swapping neither or both rows gives
    // the same |Δκ|, swapping one gives Δκ = 0: p = 2/4.
    const rows: VerdictPair[] = Array.from({ length: 10 }, (_, i) => ({
      human: i % 2,
      base: i % 2,
      head: i % 2,
    }));
    rows.push({ human: 1, base: 1, head: 0 }, { human: 0, base: 0, head: 1 });
    const tested = kappaChangeTest({ weights: CAT2, rows }, SETTINGS);
    assert.ok(tested !== null);
    assert.equal(tested.method, 'exact');
    assert.equal(tested.pValue, 0.5);
    assert.ok(tested.delta < 0);
  });

  it('no changed verdict: p = 1 and the widest interval; κ undefined on a side: no test', () => {
    const same = Array.from({ length: 12 }, (_, i) => ({ human: i % 2, base: i % 2, head: i % 2 }));
    const tested = kappaChangeTest({ weights: CAT2, rows: same }, SETTINGS);
    assert.equal(tested?.pValue, 1);
    assert.deepEqual(testBasedInterval(0, 1, 0.05), { low: -2, high: 2, se: null });
    assert.deepEqual(testBasedInterval(-0.1, 1, 0.05), { low: -2, high: 2, se: null });
    // Every label and BASE verdict "pass": chance agreement is 1 and κ has no value.
    const undefinedBase = Array.from({ length: 12 }, (_, i) => ({
      human: 1,
      base: 1,
      head: i % 2,
    }));
    assert.equal(kappaChangeTest({ weights: CAT2, rows: undefinedBase }, SETTINGS), null);
  });

  it("the interval excludes 0 exactly when p < 0.05 (Miettinen's test-based interval)", () => {
    for (const p of [0.001, 0.01, 0.049, 0.05, 0.051, 0.2, 0.9]) {
      const interval = testBasedInterval(-0.3, p, 0.05);
      assert.equal(interval.high < 0, p < 0.05, `p = ${p}: [${interval.low}, ${interval.high}]`);
      assert.ok(interval.low >= -2);
    }
  });
});

async function compareJson(dir: string): Promise<Comparison> {
  for (const side of ['base', 'head']) {
    const run = await runInProcess(['run', '-o', `${side}.json`], dir, { SIDE: side });
    assert.ok(run.code === 0 || run.code === 1, run.stderr);
  }
  const compared = await runInProcess(
    ['compare', 'base.json', 'head.json', '--format', 'json'],
    dir,
  );
  assert.ok(compared.code === 0 || compared.code === 1, compared.stderr);
  return JSON.parse(compared.stdout) as Comparison;
}

describe('comparableCases', () => {
  it("keeps the label column and an agreement judge's choice, nothing else of data or metadata", () => {
    const reduce = comparableCases({
      plan: {
        evaluators: ['judge', 'other'],
        trials: 1,
        gate: {},
        agreement: { judge: { column: 'human', choices: { no: 0, maybe: 0, yes: 1 } } },
      },
    });
    const evaluation = (evaluator: string) => ({
      evaluator,
      score: 0,
      threshold: null,
      passed: false,
      metadata: { choice: 'maybe', reason: 'long text' },
      error: null,
      durationMs: 3,
    });
    const reduced = reduce({
      id: 'a',
      contentId: 'c',
      source: { file: 'rows.jsonl', line: 1 },
      data: { question: 'q', human: 'maybe' },
      output: 'o',
      error: null,
      durationMs: 5,
      passed: false,
      evaluations: [evaluation('judge'), evaluation('other')],
    });
    assert.deepEqual(reduced.data, { human: 'maybe' });
    assert.deepEqual(reduced.evaluations[0]?.metadata, { choice: 'maybe' });
    assert.equal(reduced.evaluations[1]?.metadata, null);
    assert.deepEqual(reduce(reduced), reduced);
  });
});

describe('evals compare: the κ row from reduced artifacts', () => {
  for (const column of ['human', 'label']) {
    it(`reads each row's label and the judge's verdict (label column "${column}")`, async () => {
      const comparison = await compareJson(
        agreementProject({
          rows: 60,
          baseWrong: (i) => i < 3,
          headWrong: (i) => i >= 30,
          labelColumn: column,
        }),
      );
      const row = comparison.runs[0]?.agreement[0];
      assert.ok(row !== undefined);
      // BASE is wrong on 3 of 60 rows, HEAD on 30: κ 0.9 → 0.
      assert.deepEqual(row.compared, { base: 60, head: 60 });
      assert.equal(row.baseKappa, 0.9);
      assert.equal(row.headKappa, 0);
      assert.equal(row.label, 'regressed');
      assert.ok(row.pValue !== null && row.pValue < 0.001, String(row.pValue));
      assert.equal(comparison.hasRegression, true);
    });
  }

  it('the footnote says how κ rows are tested', async () => {
    const dir = agreementProject({ rows: 30, baseWrong: (i) => i < 2, headWrong: (i) => i >= 20 });
    await compareJson(dir);
    const text = await runInProcess(['compare', 'base.json', 'head.json'], dir);
    assert.match(text.stdout, /κ rows: paired permutation test .*exact up to 16 changed verdicts/);
  });

  it('an artifact without the judge’s recorded agreement falls back to the two summaries’ κ', async () => {
    const dir = agreementProject({ rows: 60, baseWrong: (i) => i < 3, headWrong: (i) => i >= 30 });
    await compareJson(dir);
    const path = join(dir, 'base.json');
    const artifact = JSON.parse(readFileSync(path, 'utf8')) as {
      runs: { plan?: { agreement?: unknown } }[];
    };
    for (const run of artifact.runs) delete run.plan?.agreement;
    writeFileSync(path, JSON.stringify(artifact));
    const compared = await runInProcess(
      ['compare', 'base.json', 'head.json', '--format', 'json'],
      dir,
    );
    const row = (JSON.parse(compared.stdout) as Comparison).runs[0]?.agreement[0];
    assert.ok(row !== undefined && row.se !== null && row.pValue !== null);
    // The Wald test: p from Δκ / SE, the summaries' SEs combined.
    const expected = 2 * normalUpperTail(Math.abs(row.delta ?? 0) / row.se);
    assert.ok(Math.abs(row.pValue - Math.min(1, expected)) < 1e-12);
  });
});
