/**
 * What the text and markdown forms of a `Comparison` say alike, before either formats it: the
 * order of runs and rows (bad news first), each row's numbers, the case lists, the counts line
 * and the footnote on the statistics. Pure and deterministic: no clock, no locale, numbers at a
 * fixed precision.
 */
import { describeRun, formatCount, formatPercent, plural, shortId } from './labels.ts';
import type {
  CaseRef,
  ChangeCounts,
  ChangeLabel,
  Comparison,
  EvaluatorChange,
  PassRateChange,
  RunComparison,
  RunRef,
} from '../types/comparison.ts';

/** Cases listed per list and run; the rest are counted (the JSON form has them all). */
export const MAX_LISTED_COMPARE_CASES = 10;

/** Runs listed as present on one side only; the rest are counted. */
const MAX_LISTED_RUNS = 10;

/** `1 regression · 2 improvements · 5 unchanged · 1 with too few cases`; regressions emphasized. */
export function countsLine(counts: ChangeCounts, emphasize: (text: string) => string): string {
  const regressions = plural(counts.regressed, 'regression');
  return [
    counts.regressed > 0 ? emphasize(regressions) : regressions,
    plural(counts.improved, 'improvement'),
    `${formatCount(counts.unchanged)} unchanged`,
    `${formatCount(counts.tooFewCases)} with too few cases`,
  ].join(' · ');
}

/** What the labels mean and how the statistics were made: the last line of either form. */
export function footnote(comparison: Comparison): string {
  const { settings } = comparison;
  const percent = Math.round(settings.confidence * 100);
  return (
    `Scores: ${percent}% CI of the paired mean difference (bootstrap, ${formatCount(settings.iterations)} resamples, seed ${settings.seed}); ` +
    `pass rate: exact McNemar test. Unchanged means no significant change either way, not proof of equality; ` +
    `rows with fewer than ${settings.minPaired} paired cases get no verdict.`
  );
}

/** The runs present on one side only, titled, leaving out an empty side. */
export function oneSidedRuns(comparison: Comparison): [string, RunRef[]][] {
  const lists: [string, RunRef[]][] = [
    ['Runs only in BASE (not run in HEAD):', comparison.onlyInBase],
    ['Runs only in HEAD (new, nothing to compare with):', comparison.onlyInHead],
  ];
  return lists.filter(([, runs]) => runs.length > 0);
}

/** Up to `MAX_LISTED_RUNS` run names, then `… N more`. */
export function listRuns(runs: readonly RunRef[]): string[] {
  const lines = runs.slice(0, MAX_LISTED_RUNS).map(describeRun);
  if (runs.length > lines.length) lines.push(`… ${formatCount(runs.length - lines.length)} more`);
  return lines;
}

/** The evaluators a run has on one side only, by side, leaving out an empty side. */
export function evaluatorsOnOneSide(run: RunComparison): ['BASE' | 'HEAD', string[]][] {
  const sides: ['BASE' | 'HEAD', string[]][] = [
    ['BASE', run.evaluatorsOnlyInBase],
    ['HEAD', run.evaluatorsOnlyInHead],
  ];
  return sides.filter(([, ids]) => ids.length > 0);
}

const LABEL_ORDER: Record<ChangeLabel, number> = {
  regressed: 0,
  improved: 1,
  unchanged: 2,
  'too few cases': 3,
};

/** Runs with a regression first, otherwise in HEAD's order (the sort is stable). */
export function orderRuns(runs: readonly RunComparison[]): RunComparison[] {
  const regressed = (run: RunComparison): number =>
    run.passRate.label === 'regressed' || run.evaluators.some((row) => row.label === 'regressed')
      ? 0
      : 1;
  return [...runs].sort((a, b) => regressed(a) - regressed(b));
}

/** One row of a run's table: its pass rate, or one evaluator's scores. */
export type Row =
  { kind: 'pass rate'; change: PassRateChange } | { kind: 'evaluator'; change: EvaluatorChange };

/** The pass-rate row and the evaluator rows, by label; the pass rate first among equals. */
export function orderRows(run: RunComparison): Row[] {
  const rows: Row[] = [
    { kind: 'pass rate', change: run.passRate },
    ...run.evaluators.map((change): Row => ({ kind: 'evaluator', change })),
  ];
  return rows.sort((a, b) => LABEL_ORDER[a.change.label] - LABEL_ORDER[b.change.label]);
}

/** A row's words, for either form to lay out. */
export interface RowText {
  name: string;
  /** `0.81 → 0.86 (+0.05, 95% CI +0.02…+0.08)` */
  change: string;
  /** `p = 0.003`, `McNemar p = 0.021`, or '' */
  test: string;
  label: ChangeLabel;
  /** `(4 paired)` after `too few cases`, else ''. */
  note: string;
}

/** The words of `row`; intervals are at `confidence` (0.95 prints `95% CI`). */
export function rowText(row: Row, confidence: number): RowText {
  if (row.kind === 'pass rate') {
    const c = row.change;
    const change =
      c.baseRate === null || c.headRate === null || c.delta === null
        ? 'no case in both runs'
        : `${formatPercent(c.baseRate)} → ${formatPercent(c.headRate)} (${signed(c.delta * 100, 1)} pp; ` +
          `${formatCount(c.passToFail)} pass→fail, ${formatCount(c.failToPass)} fail→pass)`;
    return {
      name: 'pass rate',
      change,
      test: c.paired === 0 ? '' : `McNemar ${formatP(c.pValue)}`,
      label: c.label,
      note: c.label === 'too few cases' ? `(${formatCount(c.paired)} paired)` : '',
    };
  }
  const c = row.change;
  const change =
    c.baseMean === null || c.headMean === null || c.delta === null || c.ci === null
      ? 'no case scored in both runs'
      : `${c.baseMean.toFixed(2)} → ${c.headMean.toFixed(2)} (${signed(c.delta, 2)}, ` +
        `${Math.round(confidence * 100)}% CI ${signed(c.ci.low, 2)}…${signed(c.ci.high, 2)})`;
  return {
    name: c.evaluator,
    change,
    test: c.pValue === null ? '' : formatP(c.pValue),
    label: c.label,
    note: c.label === 'too few cases' ? `(${formatCount(c.paired)} paired)` : '',
  };
}

/**
 * `+0.05`, `-0.02`, `0.00` for exactly zero. A tiny non-zero value keeps its sign (`+0.00`), so
 * an interval bound never looks as if it sat on the other side of 0.
 */
function signed(value: number, digits: number): string {
  const text = Math.abs(value).toFixed(digits);
  if (value === 0) return text;
  return `${value > 0 ? '+' : '-'}${text}`;
}

/**
 * `p < 0.001`, `p = 0.034`, `p = 1`. Three decimals, except that a p-value under 0.05 never
 * prints as `0.050` (it shows four), so the number never contradicts the label.
 */
function formatP(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  if (p >= 0.9995) return 'p = 1';
  const text = p.toFixed(3);
  return `p = ${p < 0.05 && text === '0.050' ? p.toFixed(4) : text}`;
}

/** One list of a run's cases that changed (newly failing, fixed, …). */
export interface CaseList {
  title: string;
  /** Said after the count: why the list is there. */
  note?: string;
  cases: readonly (CaseRef & { trialPassRate?: number | null })[];
  /** Bad news: emphasized. */
  alarm?: boolean;
}

/** A run's non-empty case lists, bad news first. */
export function caseLists(run: RunComparison): CaseList[] {
  const { cases } = run;
  const lists: CaseList[] = [
    { title: 'newly failing', cases: cases.newlyFailing, alarm: true },
    { title: 'fixed', cases: cases.fixed },
    { title: 'added', cases: cases.added },
    { title: 'removed', cases: cases.removed },
    {
      title: 'testset row changed',
      note: 'not a behaviour change, left out of the statistics',
      cases: cases.contentChanged,
    },
    { title: 'flaky in HEAD', note: 'trials disagreed', cases: cases.flaky },
  ];
  return lists.filter((list) => list.cases.length > 0);
}

/** `q-017`, `testsets/qa.csv:18`, and for a flaky case `60.0% of trials passed`. */
export function caseText(ref: CaseList['cases'][number]): {
  id: string;
  source: string | null;
  detail: string | null;
} {
  return {
    id: shortId(ref.id),
    source: ref.source === null ? null : `${ref.source.file}:${ref.source.line}`,
    detail:
      ref.trialPassRate === undefined || ref.trialPassRate === null
        ? null
        : `${formatPercent(ref.trialPassRate)} of trials passed`,
  };
}
