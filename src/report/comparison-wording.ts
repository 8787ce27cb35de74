/**
 * What the text and markdown forms of a `Comparison` say alike, before either formats it: the
 * order of runs and rows (bad news first), each row's numbers, the case lists, the counts line
 * and the footnote on the statistics. Pure and deterministic: no clock, no locale, numbers at a
 * fixed precision. The case lists are `comparison-case-lists.ts`, what an incomplete side means
 * `comparison-incomplete.ts`, what one side has alone `comparison-one-sided.ts`.
 */
import { EXACT_LIMIT } from '../compare/sign-flip.ts';
import { tooFewToTest } from '../compare/power.ts';
import { EXACT_LIMIT as KAPPA_EXACT_LIMIT } from '../compare/kappa-change.ts';
import { incompleteRunNote } from './comparison-incomplete.ts';
import { formatCount, formatMean, formatPercent, plural } from './labels.ts';
import {
  endsAtZero,
  possibleCounts,
  SHOWN_ORDER,
  shownLabel,
  withinFamilyNoise,
} from './shown-label.ts';
import { scoredNote } from './comparison-lost-scores.ts';
import { detectWords, pointsSize, underpoweredRow } from './row-power.ts';
import { formatP, plusMinus } from './comparison-numbers.ts';
import { formatKappa, formatScoreChange, signed } from '../shared/format-change.ts';
import type {
  AgreementChange,
  ChangeLabel,
  Comparison,
  EvaluatorChange,
  PassRateChange,
  RowTest,
  RunComparison,
} from '../types/comparison.ts';

/**
 * `1 regression · 1 possible regression · 2 improvements · 3 unchanged · 2 not significant
 * (underpowered) · 1 with too few cases`: rows by what the reports call them (`shownLabel`, and
 * `not significant` for a row that could not have seen `gate.minDetectableEffect`, `shownWords`). A regression is one still
 * significant over the whole comparison, what `regressions: block` acts on, and is emphasized; a
 * possible one does not block but has a q-value below 0.05. A row whose own test alone calls a
 * change is counted unchanged, as it is shown. Possible changes are named only if any.
 */
export function countsLine(
  comparison: Pick<Comparison, 'counts' | 'family' | 'runs'>,
  emphasize: (text: string) => string,
): string {
  const { counts, family } = comparison;
  const shown = possibleCounts(comparison.runs);
  const regressions = plural(family.regressions, 'regression');
  const possible = (n: number, what: string): string[] =>
    n > 0 ? [`${formatCount(n)} possible ${what}${n === 1 ? '' : 's'}`] : [];
  // An underpowered row is no evidence that nothing changed: counted apart, as it is called.
  const weak = comparison.runs
    .flatMap((run) => [run.passRate, ...run.evaluators, ...run.agreement])
    .filter(underpoweredRow).length;
  const underpowered = weak > 0 ? [`${formatCount(weak)} not significant (underpowered)`] : [];
  return [
    family.regressions > 0 ? emphasize(regressions) : regressions,
    ...possible(shown.regressions, 'regression'),
    plural(family.improvements, 'improvement'),
    ...possible(shown.improvements, 'improvement'),
    `${formatCount(counts.unchanged - weak + shown.noise)} unchanged`,
    ...underpowered,
    `${formatCount(counts.tooFewCases)} with too few cases`,
  ].join(' · ');
}

/** HEAD's `trials`, and BASE's as `baseTrials` when it differs. */
type RunTrials = Pick<RunComparison, 'trials' | 'baseTrials'>;

/**
 * `40 cases compared`, with trials `· 3 trials each, averaged per case` (or `· BASE 1 trial,
 * HEAD 3 trials, …` when the sides differ), for a side cut short `· BASE has 2 of 6 planned cases`.
 */
export function comparedLine(run: RunComparison & RunTrials): string {
  const base = run.baseTrials ?? run.trials;
  const trials =
    base !== run.trials
      ? ` · BASE ${plural(base, 'trial')}, HEAD ${plural(run.trials, 'trial')}, averaged per case`
      : run.trials > 1
        ? ` · ${run.trials} trials each, averaged per case`
        : '';
  return `${plural(run.passRate.paired, 'case')} compared${trials}${incompleteRunNote(run)}`;
}

/** Why no row could block: too few paired cases, no changed case, or some of each. */
function emptyFamilyNote({ counts, settings }: Comparison): string {
  const rows = counts.improved + counts.regressed + counts.unchanged + counts.tooFewCases;
  const fewer = `Every row had fewer than ${plural(settings.minPaired, 'paired case')}`;
  let why = counts.tooFewCases === rows ? fewer : `${fewer} or no changed case to test`;
  if (counts.tooFewCases === 0) why = 'No row had a changed case to test';
  return `${rows === 0 ? 'No run was in both' : why}, so no change could block. `;
}

/** What the labels mean and how the statistics were made: the last line of either form. */
export function footnote(comparison: Comparison): string {
  const { settings, family } = comparison;
  const percent = Math.round(settings.confidence * 100);
  const tried = comparison.runs.some(
    (run: RunTrials) => Math.max(run.trials, run.baseTrials ?? 1) > 1,
  );
  const trials = tried
    ? "With trials, each case's trials are averaged first: the case is the unit. "
    : '';
  const kappa = comparison.runs.some((run) => run.agreement.length > 0)
    ? `κ rows: paired permutation test of the verdicts on the labelled rows both runs judged (exact up to ${formatCount(KAPPA_EXACT_LIMIT)} changed verdicts, else random swaps), CI from its p. `
    : '';
  return (
    `Scores and pass rates: paired sign-flip test, ${percent}% CI by inverting the same test, so p < ${formatAlpha(settings.confidence)} exactly when the CI excludes 0 ` +
    `(exact up to ${formatCount(EXACT_LIMIT)} changed cases, else ${formatCount(settings.resamples)} random sign vectors${moreVectors(settings)}, seed ${settings.seed}; normal approximation above ${formatCount(settings.resamplingLimit)} changed cases). ` +
    kappa +
    (family.rows === 0
      ? emptyFamilyNote(comparison)
      : `A block needs Holm p < ${formatAlpha(settings.confidence)} over all ${plural(family.rows, 'row')} of this comparison in which something changed (every suite, grid point, evaluator, pass rate and κ; a row where no case changed cannot be significant and is left out of the count); q is Benjamini–Hochberg. `) +
    `Unchanged means no significant change either way, not proof of equality; "could detect" is the change found ${Math.round(settings.power * 100)}% of the time at the corrected level${weakNote(comparison)}. ` +
    trials +
    `Rows with fewer than ${settings.minPaired} paired cases get no verdict.`
  );
}

/** Said of the rows called `not significant (underpowered)`, when there are any. */
function weakNote({ runs }: Comparison): string {
  const rows = runs.flatMap((run) => [run.passRate, ...run.evaluators, ...run.agreement]);
  if (!rows.some(underpoweredRow)) return '';
  return '; "not significant (underpowered)": no significant change, but too few cases to see a change of the suite\'s gate.minDetectableEffect';
}

/**
 * How far a row of a large family draws on: only a row whose p stays small needs the vectors
 * that let p reach the family's Holm thresholds. Nothing for a family that needs no more.
 */
function moreVectors(settings: Comparison['settings']): string {
  const most = settings.maxResamples ?? settings.resamples;
  return most > settings.resamples
    ? `, up to ${formatCount(most)} for a row whose p stays small`
    : '';
}

/** `0.05` for 95%. */
function formatAlpha(confidence: number): string {
  return String(Number((1 - confidence).toFixed(4)));
}

/** One row of a run's table: its pass rate, one evaluator's scores, or a judge's agreement κ. */
export type Row =
  | { kind: 'pass rate'; change: PassRateChange }
  | { kind: 'evaluator'; change: EvaluatorChange; compared?: number }
  | { kind: 'agreement'; change: AgreementChange };

/** The pass-rate, evaluator and agreement rows, by shown label; the pass rate first among equals. */
export function orderRows(run: RunComparison): Row[] {
  const rows: Row[] = [
    { kind: 'pass rate', change: run.passRate },
    ...run.evaluators.map((change): Row => ({
      kind: 'evaluator',
      change,
      compared: run.passRate.paired,
    })),
    ...run.agreement.map((change): Row => ({ kind: 'agreement', change })),
  ];
  const order = (row: Row): number => SHOWN_ORDER[shownLabel(row.change)];
  return rows.sort((a, b) => order(a) - order(b));
}

/** A row's numbers as a compact table shows them: `80.0%`, `60.0%`, `-20.0 pp`; `—` when absent. */
export interface RowCells {
  name: string;
  base: string;
  head: string;
  delta: string;
  label: ChangeLabel;
}

/** The cells of `row` in the compact comparison table (the statistics stay in `rowText`). */
export function rowCells(row: Row): RowCells {
  const or = (value: number | null, format: (value: number) => string): string =>
    value === null ? '—' : format(value);
  if (row.kind === 'pass rate') {
    const c = row.change;
    return {
      name: 'pass rate',
      base: or(c.baseRate, formatPercent),
      head: or(c.headRate, formatPercent),
      delta: or(c.delta, (d) => `${signed(d * 100, 1)} pp`),
      label: c.label,
    };
  }
  if (row.kind === 'agreement') {
    const c = row.change;
    return {
      name: `${c.evaluator} agreement (${c.weighted ? 'weighted κ' : 'κ'})`,
      base: or(c.baseKappa, formatKappa),
      head: or(c.headKappa, formatKappa),
      delta: or(c.delta, formatScoreChange),
      label: c.label,
    };
  }
  const c = row.change;
  const way = directionWords(c);
  return {
    name: way === '' ? c.evaluator : `${c.evaluator} (${way})`,
    // As every report writes a mean: a mean short of 1 never reads as 1. A side with no score
    // where the other has some says so, not `—` on both (which reads as nothing measured).
    base: c.baseMean === null && (c.lostInBase ?? 0) > 0 ? 'no score' : or(c.baseMean, formatMean),
    head: c.headMean === null && (c.lostInHead ?? 0) > 0 ? 'no score' : or(c.headMean, formatMean),
    delta: or(c.delta, formatScoreChange),
    label: c.label,
  };
}

/** A row's words, for either form to lay out. */
export interface RowText {
  name: string;
  /** `0.810 → 0.860 (+0.050, 95% CI +0.020…+0.080)` */
  change: string;
  /** `p = 0.003 · Holm p = 0.041 · q = 0.020`, `McNemar p = 0.021 · …`, or '' */
  test: string;
  label: ChangeLabel;
  /**
   * After the label: `(lower is better)` first for an evaluator read that way (and what BASE said
   * when its threshold's direction changed); `(4 paired)` for too few cases; for an unchanged row what it could have
   * seen (`could detect ±0.06`, or `underpowered: could detect ±0.15, ~450 cases needed for
   * ±0.10`); for a regressed or improved row the family's correction removed, why it does not
   * count. Else ''.
   */
  note: string;
  /** The row cannot see the suite's `gate.minDetectableEffect`. */
  underpowered: boolean;
}

/**
 * The words of `row`; intervals are at `confidence` (0.95 prints `95% CI`), and `target` is the
 * run's `gate.minDetectableEffect`, the change an underpowered row's case count is sized for.
 */
export function rowText(row: Row, confidence: number, target: number): RowText {
  const ci = `${Math.round(confidence * 100)}% CI`;
  const underpowered = row.change.power?.underpowered === true;
  if (row.kind === 'pass rate') {
    const c = row.change;
    const change =
      c.baseRate === null || c.headRate === null || c.delta === null
        ? 'no case in both runs with the same row'
        : `${formatPercent(c.baseRate)} → ${formatPercent(c.headRate)} (${signed(c.delta * 100, 1)} pp` +
          (c.ci === null
            ? ''
            : tooFewToTest(c.paired, confidence)
              ? `, ${untestable(c.paired)}`
              : `, ${ci} ${signed(c.ci.low * 100, 1)}…${signed(c.ci.high * 100, 1)} pp${atZero(c.delta, c.ci)}`) +
          `; ${formatCount(c.passToFail)} pass→fail, ${formatCount(c.failToPass)} fail→pass)`;
    return {
      name: 'pass rate',
      change,
      test: testText(c, 'McNemar '),
      label: c.label,
      note: noteText(c, c.paired, target, pointsSize),
      underpowered,
    };
  }
  if (row.kind === 'agreement') {
    const c = row.change;
    const kappa = c.weighted ? 'weighted κ' : 'κ';
    const change =
      c.baseKappa === null || c.headKappa === null || c.delta === null || c.ci === null
        ? `${kappa} not measured on both sides`
        : `${kappa} ${formatKappa(c.baseKappa)} → ${formatKappa(c.headKappa)} (${formatScoreChange(c.delta)}, ` +
          `${ci} ${formatScoreChange(c.ci.low)}…${formatScoreChange(c.ci.high)})`;
    return {
      name: `${c.evaluator} agreement`,
      change,
      test: testText(c, ''),
      label: c.label,
      note: noteText(c, Math.min(c.compared.base, c.compared.head), target, plusMinus),
      underpowered,
    };
  }
  const c = row.change;
  const change =
    c.baseMean === null || c.headMean === null || c.delta === null || c.ci === null
      ? unpairedScores(c)
      : tooFewToTest(c.paired, confidence)
        ? `${formatMean(c.baseMean)} → ${formatMean(c.headMean)} (${formatScoreChange(c.delta)}, ${untestable(c.paired)})`
        : `${formatMean(c.baseMean)} → ${formatMean(c.headMean)} (${formatScoreChange(c.delta)}, ` +
          `${ci} ${formatScoreChange(c.ci.low)}…${formatScoreChange(c.ci.high)}${atZero(c.delta, c.ci)})`;
  const way = directionNote(c);
  const scored = scoredNote(row);
  // `(0 of 9 scored on both sides)` already counts the paired cases: no `(0 paired)` after it.
  const note =
    scored !== '' && c.label === 'too few cases' ? '' : noteText(c, c.paired, target, plusMinus);
  return {
    name: c.evaluator,
    change,
    test: testText(c, ''),
    label: c.label,
    note: [way === '' ? '' : `(${way})`, scored, note].filter(Boolean).join(' '),
    underpowered,
  };
}

/**
 * In place of the interval of a row too small to test (see `tooFewToTest`): `no interval: 2
 * cases are too few to test`. Its interval would be the largest change seen, which reads as a
 * bound it is not.
 */
export function untestable(paired: number): string {
  return `no interval: ${plural(paired, 'case')} ${paired === 1 ? 'is' : 'are'} too few to test`;
}

/**
 * What a score row with no case scored on both sides says instead of a change: which side had
 * no scores (an evaluator that errored on every case in BASE is no change, nor a regression),
 * or, when each side lacks some, that none is scored on both.
 */
function unpairedScores(change: EvaluatorChange): string {
  const lostInBase = change.lostInBase ?? 0;
  const lostInHead = change.lostInHead ?? 0;
  if (lostInBase > 0 && lostInHead === 0) return 'no score in BASE (errored or missing there)';
  if (lostInHead > 0 && lostInBase === 0) return 'no score in HEAD (errored or missing there)';
  return 'no case scored in both runs';
}

/**
 * Which way up an evaluator row is read, for the compact table: `lower is better`, with what BASE
 * said when the threshold's direction changed; '' for the usual higher-is-better row.
 */
export function directionWords(change: EvaluatorChange): string {
  if (change.directionChanged === true) {
    return change.lowerIsBetter === true
      ? 'lower is better; higher in BASE'
      : 'higher is better; lower in BASE';
  }
  return change.lowerIsBetter === true ? 'lower is better' : '';
}

/** The same in full, for the row's note: a changed direction says whose the label follows. */
function directionNote(change: EvaluatorChange): string {
  if (change.directionChanged !== true) return directionWords(change);
  const now = change.lowerIsBetter === true ? 'lower' : 'higher';
  const before = change.lowerIsBetter === true ? 'higher' : 'lower';
  return `direction changed: ${now} is better in HEAD, ${before} in BASE; labelled as HEAD says`;
}

/** `p = 0.003 · Holm p = 0.041 · q = 0.020`; the corrected figures only for rows in the family. */
function testText(row: RowTest, prefix: string): string {
  if (row.pValue === null) return '';
  const parts = [`${prefix}${formatP(row.pValue)}`];
  if (row.adjustedP !== null) parts.push(`Holm ${formatP(row.adjustedP)}`);
  if (row.qValue !== null) parts.push(`q ${formatP(row.qValue).slice(2)}`);
  return parts.join(' · ');
}

function noteText(
  row: RowTest,
  paired: number,
  target: number,
  size: (value: number) => string,
): string {
  if (row.label === 'too few cases') return `(${formatCount(paired)} paired)`;
  if (withinFamilyNoise(row)) {
    // Shown `unchanged`, although its interval leaves 0 out: say why, or it reads as a bug.
    return '(p < 0.05 on this row alone, q ≥ 0.05 over the comparison: within the noise of many rows)';
  }
  if (row.label !== 'unchanged') {
    return row.significant ? '' : '(not significant once every row of the comparison is counted)';
  }
  const power = row.power;
  if (power === null) return '';
  const detect = detectWords(power, size);
  if (!power.underpowered) return `(${detect})`;
  const needed =
    power.casesNeeded === null
      ? ''
      : `, ~${formatCount(power.casesNeeded)} cases needed for ${size(target)}`;
  return `(underpowered: ${detect}${needed})`;
}

/** `, includes 0` after an interval that ends at 0 (see `endsAtZero`). */
function atZero(delta: number, ci: { low: number; high: number }): string {
  return endsAtZero(delta, ci) ? ', includes 0' : '';
}

export {
  CASE_LIST_TITLES,
  caseLists,
  caseText,
  MAX_LISTED_COMPARE_CASES,
  type CaseList,
} from './comparison-case-lists.ts';
