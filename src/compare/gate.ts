import type { GateCondition, ResultsArtifact } from '../types/index.ts';
import type { Comparison, ReplacedScorer, RowTest, RunComparison } from '../types/comparison.ts';
import { runKey } from '../shared/run-key.ts';
import { formatMean, formatPercent } from '../shared/format-numbers.ts';
import { formatKappa, formatScoreChange, signed } from '../shared/format-change.ts';
import { PASS_CONDITION_EVALUATOR } from '../shared/reserved-ids.ts';

/** How a suite treats a statistically significant regression (`gate.regressions`). */
export type RegressionPolicy = 'block' | 'warn' | 'off';

/** One row that regressed and survives the correction for testing many rows at once. */
export interface BlockingRegression {
  /** An evaluator id, `pass rate`, or `<id> agreement`. */
  row: string;
  text: string;
  pValue: number;
  /** Holm-adjusted over the comparison's family. */
  adjustedP: number;
}

/**
 * The regressions of one run that a gate acts on: rows labelled `regressed` that stay
 * significant after Holm's correction over the whole comparison (`RowTest.significant`). For an
 * evaluator whose lower scores are better (`lowerIsBetter`) that is a significant rise. The
 * family is every row of every run of the comparison, so however many suites and grid points a
 * pull request runs, the chance that noise alone blocks it stays at about 5%. Rows with too few
 * cases are not tested and never block.
 */
export function significantRegressions(run: RunComparison): BlockingRegression[] {
  const found: BlockingRegression[] = [];
  const add = (row: string, test: RowTest, text: string): void => {
    if (test.label !== 'regressed' || !test.significant) return;
    if (test.pValue === null || test.adjustedP === null) return;
    const ps = `p ${pText(test.pValue)}, Holm p ${pText(test.adjustedP)}`;
    found.push({ row, text: `${text}, ${ps})`, pValue: test.pValue, adjustedP: test.adjustedP });
  };
  const pass = run.passRate;
  add(
    'pass rate',
    pass,
    `pass rate ${pct(pass.baseRate)} → ${pct(pass.headRate)} (${points(pass.delta)}`,
  );
  for (const e of run.evaluators) {
    // A rise is what regressed when lower is better: the text says so, or +0.200 reads as good.
    const way = e.lowerIsBetter === true ? ', lower is better' : '';
    add(
      e.evaluator,
      e,
      `${e.evaluator} ${fmt(e.baseMean)} → ${fmt(e.headMean)} (${change(e.delta)}${way}`,
    );
  }
  for (const a of run.agreement) {
    add(
      `${a.evaluator} agreement`,
      a,
      `${a.evaluator} agreement κ ${kappa(a.baseKappa)} → ${kappa(a.headKappa)} (${change(a.delta)}`,
    );
  }
  return found;
}

/** What a `regressions` gate condition asks for. */
export const REGRESSIONS_EXPECTED =
  'no significant regression against the baseline (Holm-corrected over the comparison)';

/**
 * What it asks for when an evaluator of the baseline is missing too: said only then, so that the
 * condition of a run that passes, or fails for a regression alone, reads as it always has.
 */
const REGRESSIONS_AND_EVALUATORS_EXPECTED = `${REGRESSIONS_EXPECTED}, and every evaluator of the baseline's run in this run or in gate.removedEvaluators`;

/** What it asks for when a grid point of the baseline is gone from the suite's grid. */
const REGRESSIONS_AND_GRID_EXPECTED = `${REGRESSIONS_EXPECTED}, and every grid point of the baseline in the suite's grid or in gate.removedGridValues`;

/**
 * The gate condition a `block` policy adds: fails when a corrected regression remains, when an
 * evaluator of the baseline's run is missing from this one and `removed` (the suite's
 * `gate.removedEvaluators`) does not list it, or when `goneGridPoints` says which grid points of
 * the baseline the suite's grid no longer has (gone-grid-points.ts). `run` is absent for a run
 * new in HEAD, which only the last can fail. A removed or renamed evaluator is compared with
 * nothing, so without this, renaming one and loosening its threshold would pass unchecked.
 */
export function regressionCondition(
  run: RunComparison | undefined,
  removed: readonly string[] = [],
  goneGridPoints?: string,
): GateCondition {
  const found = run === undefined ? [] : significantRegressions(run).map((b) => b.text);
  const missing = run === undefined ? undefined : missingEvaluatorsText(run, removed);
  if (missing !== undefined) found.push(missing);
  if (goneGridPoints !== undefined) found.push(goneGridPoints);
  return {
    name: 'regressions',
    expected:
      missing !== undefined
        ? REGRESSIONS_AND_EVALUATORS_EXPECTED
        : goneGridPoints !== undefined
          ? REGRESSIONS_AND_GRID_EXPECTED
          : REGRESSIONS_EXPECTED,
    actual: found.length === 0 ? 'none' : found.join('; '),
    passed: found.length === 0,
  };
}

/**
 * What a run says of the baseline's evaluators it lacks and `removed` does not list, naming the
 * new ones beside them (a rename shows as one of each) and how to accept the change; `undefined`
 * when there are none. `pass` records a pass function's errors, not an evaluator of the config.
 */
export function missingEvaluatorsText(
  run: RunComparison,
  removed: readonly string[],
): string | undefined {
  const replaced = (run.evaluatorsReplaced ?? []).filter((r) => !removed.includes(r.evaluator));
  const swapped = new Set(replaced.map((r) => r.evaluator));
  const missing = missingEvaluators(run, removed).filter((id) => !swapped.has(id));
  const texts = replaced.map(replacedText);
  if (missing.length > 0) texts.unshift(goneText(run, missing, swapped));
  return texts.length === 0 ? undefined : texts.join('; ');
}

/** The baseline's evaluators `missing` from the run, naming the new ones (a rename: one of each). */
function goneText(run: RunComparison, missing: readonly string[], swapped: Set<string>): string {
  const names = missing.map((id) => JSON.stringify(id)).join(', ');
  const one = missing.length === 1;
  const added = run.evaluatorsOnlyInHead.filter(
    (id) => id !== PASS_CONDITION_EVALUATOR && !swapped.has(id),
  );
  const renamed =
    added.length === 0
      ? ''
      : ` (${added.map((id) => JSON.stringify(id)).join(', ')} ${added.length === 1 ? 'is' : 'are'} new in this run: renamed?)`;
  return `evaluator${one ? '' : 's'} ${names} of the baseline ${one ? 'is' : 'are'} not in this run${renamed}, so nothing was compared with ${one ? 'it' : 'them'}; if that is intended, list ${one ? 'it' : 'them'} in the suite's gate.removedEvaluators`;
}

/**
 * An id kept for another scorer: its scores measure something else, so nothing was compared with
 * the baseline's, and a pull request could otherwise swap a strict check for a lenient one.
 */
function replacedText({ evaluator, base, head }: ReplacedScorer): string {
  const id = JSON.stringify(evaluator);
  return `evaluator ${id} is scored by ${head} in this run and was scored by ${base} in the baseline, so nothing was compared with it (another scorer's scores are no change of behaviour); if that is intended, give the new evaluator a new id and list ${id} in the suite's gate.removedEvaluators`;
}

/** The evaluators of the baseline's run that `run` lacks and `removed` does not list. */
function missingEvaluators(run: RunComparison, removed: readonly string[]): string[] {
  return run.evaluatorsOnlyInBase.filter(
    (id) => id !== PASS_CONDITION_EVALUATOR && !removed.includes(id),
  );
}

/** A run of HEAD that `evals compare` fails for the evaluators of BASE it lacks, and why. */
export interface MissingEvaluatorsBlock {
  suite: string;
  params: RunComparison['params'];
  /** The ids of BASE's run that HEAD's lacks and its `gate.removedEvaluators` does not list. */
  evaluators: string[];
  text: string;
}

/**
 * The runs of `head` whose recorded gate (`plan.gate`) has `regressions: block` and that lack an
 * evaluator of their BASE run not listed in its `removedEvaluators`: what would fail their
 * `regressions` condition under `evals run --baseline`, so `evals compare` fails on it too. A run
 * with no recorded plan (an earlier evalgate wrote it) has no gate to apply, and is left out.
 */
export function blockedMissingEvaluators(
  comparison: Comparison,
  head: ResultsArtifact,
): MissingEvaluatorsBlock[] {
  const gates = new Map(head.runs.map((run) => [runKey(run), run.plan?.gate]));
  return comparison.runs.flatMap((run) => {
    const gate = gates.get(runKey(run));
    if (gate?.regressions !== 'block') return [];
    const removed = gate.removedEvaluators ?? [];
    const text = missingEvaluatorsText(run, removed);
    if (text === undefined) return [];
    return [
      { suite: run.suite, params: run.params, evaluators: missingEvaluators(run, removed), text },
    ];
  });
}

/**
 * `= 0.0020`: two significant digits, more when two would round a p below 0.05 up to `0.050`
 * (a blocking row must not read as the value that does not block); `< 0.0001` below that, so a
 * p that underflowed to 0 never reads as certainty.
 */
function pText(p: number): string {
  if (p < 0.0001) return '< 0.0001';
  let digits = 2;
  let text = p.toPrecision(digits);
  while (p < 0.05 && Number(text) >= 0.05 && digits < 6) text = p.toPrecision(++digits);
  return `= ${text}`;
}

/** A mean as every report writes it: a mean of 0.9995 is `0.9995`, never `1.000`. */
function fmt(value: number | null): string {
  return value === null ? '—' : formatMean(value);
}

/** A κ as every report writes it (shared/format-change.ts). */
function kappa(value: number | null): string {
  return value === null ? '—' : formatKappa(value);
}

/** A change of a mean or κ as every report writes it: `-0.050`, never `-0.000` for a real one. */
function change(value: number | null): string {
  return value === null ? '—' : formatScoreChange(value);
}

/** A change of rate in percentage points: `-20.0 pp`. */
function points(delta: number | null): string {
  return delta === null ? '—' : `${signed(delta * 100, 1)} pp`;
}

/** `99.9%` for 1,999 of 2,000, as every report writes it, never `100.0%`. */
function pct(rate: number | null): string {
  return rate === null ? '—' : formatPercent(rate);
}
