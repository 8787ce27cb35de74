/**
 * The tests of a comparison's rows, done together: each row's own test (the sign-flip test for
 * scores and pass rates, a paired permutation test for agreement κ), then the family of every row tested at
 * once (Holm to decide, Benjamini–Hochberg q-values to read), then each row's power. Pure.
 */
import type {
  AgreementChange,
  ChangeLabel,
  ComparisonFamily,
  EvaluatorChange,
  PassRateChange,
  RowTest,
  RunComparison,
} from '../types/comparison.ts';
import type { Interval } from '../types/index.ts';
import { adjustFamily } from './family.ts';
import {
  kappaChangeTest,
  observedKappaChange,
  testBasedInterval,
  TOLERANCE as KAPPA_TOLERANCE,
} from './kappa-change.ts';
import { withoutNoise } from '../shared/float-noise.ts';
import { normalQuantileUpper, normalUpperTail } from './normal.ts';
import { rowPower } from './power.ts';
import type { PairedAgreement, PairedRow, RunPairing } from './run-comparison.ts';
import { significanceLevel, signFlipTest } from './sign-flip.ts';

/** How the rows are tested. */
export interface RowTestSettings {
  confidence: number;
  /**
   * Sign vectors every resampled row draws first; a row of a large family whose p stays small
   * draws more, up to `resamplesFor` (`resampling-stages.ts`).
   */
  resamples: number;
  seed: number;
  minPaired: number;
}

/** The tested runs, the family they formed, and the sign vectors resampled rows drew. */
export interface TestedRuns {
  runs: RunComparison[];
  family: ComparisonFamily;
  /** Sign vectors every resampled row drew first. */
  resamples: number;
  /** The most one row could draw: enough for p to reach the family's Holm thresholds. */
  maxResamples: number;
  /** Sign vectors (and κ swaps) drawn by every row together: the comparison's work. */
  drawn: number;
}

/**
 * Tests every row of every run as one family. A row enters the family when it has a verdict
 * (enough paired cases) and some case changed: a row where nothing moved can never be
 * significant, so leaving it out costs no error and spares the rest its share of α.
 */
export function testRuns(pairings: readonly RunPairing[], settings: RowTestSettings): TestedRuns {
  // Rounded (0.05, not 1 − 0.95 = 0.050000000000000044): p = 0.05 is then not below it, as the
  // interval, which keeps 0 at p = 0.05, says.
  const alpha = significanceLevel(settings.confidence);
  let familySize = 0;
  for (const pairing of pairings) {
    for (const row of [pairing.passRate, ...pairing.evaluators]) {
      if (inFamily(row, settings.minPaired)) familySize++;
    }
    for (const row of pairing.agreement) {
      if (agreementInFamily(row, settings.minPaired)) familySize++;
    }
  }
  const maxResamples = resamplesFor(familySize, alpha, settings.resamples);
  const test: TestContext = { ...settings, maxResamples, alpha, tally: { drawn: 0 } };

  const runs = pairings.map((pairing): RunComparison => {
    const pass = scoreTest(pairing.passRate, test);
    const passRate: PassRateChange = {
      paired: pairing.passRate.diffs.length,
      baseRate: pass.base,
      headRate: pass.head,
      delta: pass.delta,
      ci: pass.ci,
      sd: pass.sd,
      passToFail: pairing.passRate.passToFail,
      failToPass: pairing.passRate.failToPass,
      ...pass.test,
    };
    const evaluators = pairing.evaluators.map((row): EvaluatorChange => {
      const score = scoreTest(row, test, row.lowerIsBetter === true);
      return {
        evaluator: row.evaluator,
        ...(row.lowerIsBetter === true ? { lowerIsBetter: true as const } : {}),
        ...(row.directionChanged === true ? { directionChanged: true as const } : {}),
        paired: row.diffs.length,
        ...((row.lostInHead ?? 0) > 0 ? { lostInHead: row.lostInHead } : {}),
        ...((row.lostInBase ?? 0) > 0 ? { lostInBase: row.lostInBase } : {}),
        baseMean: score.base,
        headMean: score.head,
        delta: score.delta,
        ci: score.ci,
        sd: score.sd,
        ...score.test,
      };
    });
    return {
      suite: pairing.suite,
      params: pairing.params,
      trials: pairing.trials,
      ...baseTrials(pairing),
      minDetectableEffect: pairing.minDetectableEffect,
      passRate,
      evaluators,
      agreement: pairing.agreement.map((row) => agreementRow(row, test)),
      evaluatorsOnlyInBase: pairing.evaluatorsOnlyInBase,
      evaluatorsOnlyInHead: pairing.evaluatorsOnlyInHead,
      ...(pairing.evaluatorsReplaced === undefined
        ? {}
        : { evaluatorsReplaced: pairing.evaluatorsReplaced }),
      cases: pairing.cases,
      ...(pairing.incomplete === undefined ? {} : { incomplete: pairing.incomplete }),
      ...(pairing.verdicts === undefined ? {} : { verdicts: pairing.verdicts }),
      ...(pairing.trialsAgreed === true ? { trialsAgreed: true as const } : {}),
    };
  });

  // The family: Holm decides, q-values are shown. Power is per row at the family's level.
  const members: RowTest[] = [];
  for (const [i, run] of runs.entries()) {
    const pairing = pairings[i];
    if (pairing === undefined) continue;
    if (inFamily(pairing.passRate, settings.minPaired)) members.push(run.passRate);
    for (const [j, row] of run.evaluators.entries()) {
      const paired = pairing.evaluators[j];
      if (paired !== undefined && inFamily(paired, settings.minPaired)) members.push(row);
    }
    for (const [j, row] of run.agreement.entries()) {
      const paired = pairing.agreement[j];
      if (paired !== undefined && agreementInFamily(paired, settings.minPaired)) members.push(row);
    }
  }
  const adjusted = adjustFamily(members.map((row) => row.pValue ?? 1));
  const family: ComparisonFamily = { rows: members.length, regressions: 0, improvements: 0 };
  for (const [i, row] of members.entries()) {
    row.adjustedP = adjusted.holm[i] ?? 1;
    row.qValue = adjusted.q[i] ?? 1;
    row.significant = row.label !== 'unchanged' && row.adjustedP < alpha;
    if (row.significant && row.label === 'regressed') family.regressions++;
    if (row.significant && row.label === 'improved') family.improvements++;
  }
  for (const [i, run] of runs.entries()) addPower(run, pairings[i], familySize, alpha);
  return { runs, family, resamples: settings.resamples, maxResamples, drawn: test.tally.drawn };
}

/**
 * The most sign vectors one resampled row draws: `minimum`, or enough that the smallest p-value
 * they can give, 1 / (resamples + 1), is a quarter of the first Holm threshold α / rows. With
 * fewer, a family of a few hundred rows could never block anything however clear the change.
 * Only a row whose p stays small draws them all (`resampling-stages.ts`).
 */
export function resamplesFor(familySize: number, alpha: number, minimum: number): number {
  return Math.max(minimum, Math.ceil((4 * familySize) / alpha) - 1);
}

/** BASE's trials when they differ from HEAD's, for the heading to say each side's count. */
function baseTrials(pairing: RunPairing): { baseTrials?: number } {
  return pairing.baseTrials !== pairing.trials ? { baseTrials: pairing.baseTrials } : {};
}

function inFamily(row: PairedRow, minPaired: number): boolean {
  return row.diffs.length >= minPaired && row.diffs.some((d) => d !== 0);
}

function agreementInFamily(row: PairedAgreement, minPaired: number): boolean {
  if (row.verdicts !== undefined) {
    // Like a score row: some labelled row's verdict changed, on enough rows, with κ defined.
    // Verdicts that changed without moving κ (as many misses per label, on other rows) can
    // never be significant: every swap that leaves κ defined reaches a change of 0.
    const observed = observedKappaChange(row.verdicts);
    return (
      observed !== null &&
      observed.compared >= minPaired &&
      observed.discordant > 0 &&
      Math.abs(observed.delta) > KAPPA_TOLERANCE
    );
  }
  const change = agreementChange(row);
  if (change === null) return false;
  if (row.base.compared < minPaired || row.head.compared < minPaired) return false;
  // The same κ on both sides can never be significant, like a score row where nothing moved.
  return change.delta !== 0;
}

type TestContext = RowTestSettings & {
  alpha: number;
  maxResamples: number;
  /** Sign vectors and swaps drawn so far, for `TestedRuns.drawn`. */
  tally: { drawn: number };
};

/** A score or pass-rate row's means and sign-flip test. */
interface ScoreTest {
  base: number | null;
  head: number | null;
  delta: number | null;
  ci: Interval | null;
  sd: number | null;
  test: RowTest;
}

function scoreTest(row: PairedRow, test: TestContext, lowerIsBetter = false): ScoreTest {
  const n = row.diffs.length;
  if (n === 0) {
    return {
      base: null,
      head: null,
      delta: null,
      ci: null,
      sd: null,
      test: untested('too few cases'),
    };
  }
  const result = signFlipTest(row.diffs, test);
  test.tally.drawn += result.drawn ?? 0;
  return {
    base: row.baseTotal / n,
    head: row.headTotal / n,
    delta: result.mean,
    ci: { low: result.low, high: result.high },
    sd: result.sd,
    test: {
      ...untested(labelOf(n, result.pValue, result.mean, test, lowerIsBetter)),
      pValue: result.pValue,
    },
  };
}

/**
 * A judge's κ row: the paired permutation test over the labelled rows both runs judged
 * (`kappa-change.ts`), with its test-based interval. An artifact that did not record the judge's
 * `agreement:` has no paired verdicts: its two κ are then compared as independent estimates,
 * by a Wald test and its interval, Δ ± z·SE.
 */
function agreementRow(row: PairedAgreement, test: TestContext): AgreementChange {
  const shared = {
    evaluator: row.evaluator,
    column: row.head.column,
    weighted: row.head.weighted,
    compared: { base: row.base.compared, head: row.head.compared },
    baseKappa: row.base.kappa,
    headKappa: row.head.kappa,
  };
  const tooFew = { ...shared, delta: null, ci: null, se: null, ...untested('too few cases') };
  if (row.verdicts !== undefined) {
    const tested = kappaChangeTest(row.verdicts, test);
    if (tested === null) return tooFew;
    test.tally.drawn += tested.drawn ?? 0;
    const { compared, delta, pValue } = tested;
    const interval = testBasedInterval(delta, pValue, test.alpha);
    return {
      ...shared,
      compared: { base: compared, head: compared },
      baseKappa: withoutNoise(tested.baseKappa),
      headKappa: withoutNoise(tested.headKappa),
      delta,
      ci: { low: interval.low, high: interval.high },
      se: interval.se,
      ...untested(labelOf(compared, pValue, delta, test)),
      pValue,
    };
  }
  const change = agreementChange(row);
  if (change === null) return tooFew;
  const { delta, se } = change;
  const n = Math.min(row.base.compared, row.head.compared);
  if (!(se > 0)) {
    // Both summaries have a standard error of 0 (κ = 1 on both sides): no noise was measured,
    // so nothing can be tested or bounded. As a paired κ row that could not be tested: p = 1,
    // the whole range a κ change can take, no power claimed (`could detect ±0.00` before, a
    // 95% CI of 0.000…0.000, and a change of any size with no spread called significant).
    const whole = { low: -2, high: 2 };
    return {
      ...shared,
      delta,
      ci: whole,
      se: null,
      ...untested(labelOf(n, 1, delta, test)),
      pValue: 1,
    };
  }
  const z = normalQuantileUpper(test.alpha / 2);
  const pValue = Math.min(1, 2 * normalUpperTail(Math.abs(delta) / se));
  return {
    ...shared,
    delta,
    ci: { low: delta - z * se, high: delta + z * se },
    se,
    ...untested(labelOf(n, pValue, delta, test)),
    pValue,
  };
}

function agreementChange(row: PairedAgreement): { delta: number; se: number } | null {
  const { base, head } = row;
  if (base.kappa === null || head.kappa === null) return null;
  if (base.kappaSe === null || head.kappaSe === null) return null;
  return { delta: head.kappa - base.kappa, se: Math.hypot(base.kappaSe, head.kappaSe) };
}

/**
 * The row's own verdict: p < α exactly when its interval excludes 0. A rise is an improvement,
 * unless the row's lower values are its better ones (`lowerIsBetter`: an evaluator whose
 * thresholds bound it from above only); the test itself is two-sided and the same either way.
 */
export function labelOf(
  n: number,
  pValue: number,
  delta: number,
  test: Pick<TestContext, 'alpha' | 'minPaired'>,
  lowerIsBetter = false,
): ChangeLabel {
  if (n < test.minPaired) return 'too few cases';
  if (pValue < test.alpha) return delta > 0 !== lowerIsBetter ? 'improved' : 'regressed';
  return 'unchanged';
}

/** A row's test fields before the family is known. */
function untested(label: ChangeLabel): RowTest {
  return { pValue: null, adjustedP: null, qValue: null, label, significant: false, power: null };
}

/**
 * Fills in `power` for every row with a verdict. A score row whose values are all 0 or 1 changes
 * by ±1 per case, like the pass rate, so the sign-flip test's count floor bounds its change; a
 * row with values in between (a graded score, or trials averaged) is bounded by its noise, once
 * enough of its cases changed to measure one (`rowPower`'s `changed`).
 */
function addPower(
  run: RunComparison,
  pairing: RunPairing | undefined,
  family: number,
  alpha: number,
): void {
  const target = run.minDetectableEffect;
  const rows: [PassRateChange | EvaluatorChange, PairedRow | undefined][] = [
    [run.passRate, pairing?.passRate],
    ...run.evaluators.map((row, j): [EvaluatorChange, PairedRow | undefined] => [
      row,
      pairing?.evaluators[j],
    ]),
  ];
  for (const [row, paired] of rows) {
    if (row.label === 'too few cases' || row.sd === null) continue;
    const cases = row.paired;
    const standardError = row.sd / Math.sqrt(cases);
    const bounded = paired?.graded !== true;
    const changed = paired === undefined ? undefined : changedCases(paired.diffs);
    row.power = rowPower({
      standardError,
      cases,
      family,
      alpha,
      target,
      bounded,
      signFlip: true,
      ...(changed === undefined ? {} : { changed }),
    });
  }
  for (const row of run.agreement) {
    if (row.label === 'too few cases' || row.se === null) continue;
    const cases = Math.min(row.compared.base, row.compared.head);
    row.power = rowPower({ standardError: row.se, cases, family, alpha, target, bounded: false });
  }
}

/** Cases whose change is not 0 (differences within float noise were made 0 when paired). */
function changedCases(diffs: Float64Array): number {
  let changed = 0;
  for (const d of diffs) if (d !== 0) changed++;
  return changed;
}
