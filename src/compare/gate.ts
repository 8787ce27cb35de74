import type { GateCondition } from '../types/index.ts';
import type { RunComparison } from '../types/comparison.ts';

/** How a suite treats a statistically significant regression (`gate.regressions`). */
export type RegressionPolicy = 'block' | 'warn' | 'off';

/** One row that regressed and survives the correction for testing many rows at once. */
export interface BlockingRegression {
  /** An evaluator id, or `pass rate`. */
  row: string;
  text: string;
  pValue: number;
}

/**
 * The regressions of one run that a gate may act on. Each row is tested at 5% on its own, so a
 * run with many evaluators would show some "regression" on pure noise; Holm's step-down
 * correction over the run's tested rows keeps the chance of any false block at about 5%.
 * Rows with too few cases are not tested and never block.
 */
export function significantRegressions(run: RunComparison, alpha = 0.05): BlockingRegression[] {
  const rows: (BlockingRegression & { regressed: boolean })[] = [];
  for (const e of run.evaluators) {
    if (e.label === 'too few cases' || e.pValue === null) continue;
    rows.push({
      row: e.evaluator,
      text: `${e.evaluator} ${fmt(e.baseMean)} → ${fmt(e.headMean)} (${signed(e.delta)}, p = ${e.pValue.toPrecision(2)})`,
      pValue: e.pValue,
      regressed: e.label === 'regressed',
    });
  }
  if (run.passRate.label !== 'too few cases') {
    rows.push({
      row: 'pass rate',
      text: `pass rate ${pct(run.passRate.baseRate)} → ${pct(run.passRate.headRate)} (McNemar p = ${run.passRate.pValue.toPrecision(2)})`,
      pValue: run.passRate.pValue,
      regressed: run.passRate.label === 'regressed',
    });
  }
  const sorted = [...rows].sort((a, b) => a.pValue - b.pValue);
  const rejected = new Set<(typeof rows)[number]>();
  for (const [i, row] of sorted.entries()) {
    if (row.pValue > alpha / (sorted.length - i)) break;
    rejected.add(row);
  }
  return rows
    .filter((r) => r.regressed && rejected.has(r))
    .map(({ row, text, pValue }) => ({ row, text, pValue }));
}

/** The gate condition a `block` policy adds: fails when a corrected regression remains. */
export function regressionCondition(run: RunComparison): GateCondition {
  const blocking = significantRegressions(run);
  return {
    name: 'regressions',
    expected: 'no significant regression against the baseline',
    actual: blocking.length === 0 ? 'none' : blocking.map((b) => b.text).join('; '),
    passed: blocking.length === 0,
  };
}

function fmt(value: number | null): string {
  return value === null ? '—' : value.toFixed(3);
}

function signed(value: number | null): string {
  return value === null ? '—' : `${value >= 0 ? '+' : ''}${value.toFixed(3)}`;
}

function pct(rate: number | null): string {
  return rate === null ? '—' : `${(rate * 100).toFixed(1)}%`;
}
