/**
 * The comparison with a baseline as the HTML report shows it: a row per pass rate, evaluator and
 * judge κ (with its interval, for the table and the chart), the newly failing cases, and what
 * the text and markdown forms also name: runs on one side only, evaluators on one side only, and
 * a run's cases that changed (fixed, added, removed, …). Those facts come from the same
 * functions the other forms use (`oneSidedRuns`, `evaluatorsOnOneSide`, `caseLists`), never
 * worked out again here.
 */
import { pointsSize, scoreSize, verdictWords } from './row-power.ts';
import type { Comparison, RunComparison } from '../types/comparison.ts';
import type { RunResult } from '../types/index.ts';
import { calmFlipsName } from './newly-failing.ts';
import { ALARM_LEAD } from './alarm-reasons.ts';
import { incompleteRunNote, incompleteWarnings } from './comparison-incomplete.ts';
import type { IncompleteWarning } from './comparison-incomplete.ts';
import { caseLists, caseText, directionWords, type CaseList } from './comparison-wording.ts';
import { evaluatorsOnOneSide, renamedNote, oneSidedRuns } from './comparison-one-sided.ts';
import { lostScoreWarnings, scoredNote } from './comparison-lost-scores.ts';
import { foreignBaselineWarnings } from './comparison-foreign.ts';
import { endsAtZero, shownLabel } from './shown-label.ts';
import { tooFewToTest } from '../compare/power.ts';
import { caseCount, countedCases, listHeading } from './comparison-case-lists.ts';
import { describeRun, formatCount } from './labels.ts';

/** Cases of one changed-case list held in the page; the rest are counted. */
export const LISTED_CHANGED_CASES = 50;

/** A row of the baseline comparison chart: a change with its confidence interval. */
export interface ComparisonRowView {
  run: string;
  /** ` · BASE has 2 of 6 planned cases` when a side of the run is incomplete, else ''. */
  incomplete: string;
  /** What the numbers are: a pass rate (shown as percentages), a mean score, or a κ. */
  kind: 'pass rate' | 'evaluator' | 'agreement';
  metric: string;
  /** `metric` without its note on scored cases: what the chart names the row by. */
  name: string;
  base: number | null;
  head: number | null;
  delta: number | null;
  low: number | null;
  high: number | null;
  /** An end exactly at 0 around a change: 0 is inside, which the page says (`includes 0`). */
  endsAtZero: boolean;
  /** Its shown label (`shownLabel`): what the page colours it by. */
  label: string;
  /**
   * What the page calls it: the label, or `not significant (underpowered: could detect ±0.26)`
   * for a row that could not have seen the suite's `gate.minDetectableEffect` (`verdictWords`).
   */
  verdict: string;
}

/** One list of a run's changed cases (`caseLists`), as the page lists it. */
export interface ChangedCasesView {
  title: CaseList['title'];
  /** Why the list is there (`trials disagreed`), or ''. */
  note: string;
  /** Every case of the list; `cases` holds at most `LISTED_CHANGED_CASES` of them. */
  count: number;
  /** Whether the cases are HEAD's (the page can open them); not for removed / not run in HEAD. */
  inHead: boolean;
  /** `label`: what the comparison recorded for a case only BASE has (see `CaseRef.label`). */
  cases: { id: string; source: string | null; detail: string | null; label: string | null }[];
}

/** What changed in one run between BASE and HEAD, besides its rows. */
export interface RunChangesView {
  run: string;
  /** `evaluators only in BASE: tone` and the same for HEAD; [] when both have the same. */
  evaluators: string[];
  /** Its non-empty changed-case lists, newly failing left out (the page lists those apart). */
  lists: ChangedCasesView[];
}

/** The comparison part of the report model. */
export interface ComparisonView {
  base: string;
  confidence: number;
  /** One per incomplete side (interrupted, partially merged): the comparison is not a full one. */
  warnings: IncompleteWarning[];
  rows: ComparisonRowView[];
  newlyFailing: { run: string; id: string }[];
  /**
   * The runs with newly failing cases, in `newlyFailing`'s order: whether the page lists them as
   * an alarm (`caseLists`, as every form), the heading the text form gives them
   * (`Newly failing (5; 4 fixed the other way, within the noise: …)` when they are none), and
   * for an alarm why, a reason each (`the grid point passed its gate in BASE and fails it now`,
   * `pass rate regressed, Holm p = 0.002`), listed one a line as every form lists them; else [].
   */
  newlyFailingRuns: { run: string; alarm: boolean; heading: string; reasons: string[] }[];
  /** What every form says before an alarm's reasons (`an alarm because:`, `ALARM_LEAD`). */
  alarmLead: string;
  /** What the page calls the newly failing cases that are no alarm (`calmFlipsName`), or ''. */
  calmNewlyFailing: string;
  /**
   * The newly failing cases counted as every form counts them: cases, a case newly failing on
   * several grid points once, with the (case, grid point) pairs beside when they differ
   * (`countedCases`: `14 cases, 24 counting each grid point`). `alarm`: those listed open;
   * `calm`: the cases of the others, as the PR comment's summary counts them; `all`: every one,
   * as the case table's filter and the comparison's link to it say; `byPoint`: some case is
   * listed on several grid points, so the page's list, a line per pair, says so.
   */
  newlyFailingCount: { alarm: string; calm: number; all: string; byPoint: boolean };
  /** Runs on one side only, titled as the text form titles them; [] when every run is in both. */
  oneSidedRuns: { title: string; runs: string[] }[];
  /** Runs with evaluators on one side only or cases that changed; the others are left out. */
  changes: RunChangesView[];
}

/** A row's interval ends for the chart; none when the row is too few cases to test. */
function interval(
  ci: { low: number; high: number } | null,
  tooFew: boolean,
): { low: number | null; high: number | null } {
  return ci === null || tooFew ? { low: null, high: null } : { low: ci.low, high: ci.high };
}

/** The page's view of `comparison`. */
export function comparisonView(comparison: Comparison): ComparisonView {
  const rows: ComparisonRowView[] = [];
  const newlyFailing: { run: string; id: string }[] = [];
  const newlyFailingRuns: ComparisonView['newlyFailingRuns'] = [];
  const calmRuns: RunComparison[] = [];
  const changes: RunChangesView[] = [];
  const untested = (paired: number): boolean =>
    tooFewToTest(paired, comparison.settings.confidence);
  for (const run of comparison.runs) {
    const name = describeRun(run);
    const pass = run.passRate;
    // ` · BASE has 2 of 6 planned cases` where a side of this run was cut short, as the text says.
    const incomplete = incompleteRunNote(run);
    rows.push({
      run: name,
      incomplete,
      kind: 'pass rate',
      metric: 'pass rate',
      name: 'pass rate',
      base: pass.baseRate,
      head: pass.headRate,
      delta: pass.delta,
      // Too few to test: no interval, not the largest change seen drawn as one.
      ...interval(pass.ci, untested(pass.paired)),
      endsAtZero:
        pass.ci != null &&
        pass.delta !== null &&
        !untested(pass.paired) &&
        endsAtZero(pass.delta, pass.ci),
      label: shownLabel(pass),
      verdict: verdictWords(pass, pointsSize),
    });
    for (const change of run.evaluators) {
      // The label already follows the direction; the name says it, as the text forms do.
      const way = directionWords(change);
      const evaluator = way === '' ? change.evaluator : `${change.evaluator} (${way})`;
      rows.push({
        run: name,
        incomplete,
        kind: 'evaluator',
        metric: [evaluator, scoredNote({ kind: 'evaluator', change, compared: pass.paired })]
          .filter(Boolean)
          .join(' '),
        name: evaluator,
        base: change.baseMean,
        head: change.headMean,
        delta: change.delta,
        ...interval(change.ci, untested(change.paired)),
        endsAtZero:
          change.ci != null &&
          change.delta !== null &&
          !untested(change.paired) &&
          endsAtZero(change.delta, change.ci),
        label: shownLabel(change),
        verdict: verdictWords(change, scoreSize),
      });
    }
    // A judge's κ is a row of the comparison too: the gate counts its regression.
    for (const change of run.agreement) {
      const agreement = `${change.evaluator} agreement (${change.weighted ? 'weighted κ' : 'κ'})`;
      rows.push({
        run: name,
        incomplete,
        kind: 'agreement',
        metric: agreement,
        name: agreement,
        base: change.baseKappa,
        head: change.headKappa,
        delta: change.delta,
        low: change.ci?.low ?? null,
        high: change.ci?.high ?? null,
        endsAtZero: false,
        label: shownLabel(change),
        verdict: verdictWords(change, scoreSize),
      });
    }
    for (const ref of run.cases.newlyFailing) newlyFailing.push({ run: name, id: ref.id });
    for (const list of caseLists(run).filter((l) => l.title === 'newly failing')) {
      newlyFailingRuns.push({
        run: name,
        alarm: list.alarm === true,
        heading: listHeading('Newly failing', formatCount(list.cases.length), list.aside),
        reasons: [...(list.reasons ?? [])],
      });
      if (list.alarm !== true) calmRuns.push(run);
    }
    const evaluators = evaluatorsOnOneSide(run).map(
      ([side, ids]) => `evaluators only in ${side}: ${ids.join(', ')}`,
    );
    const renamed = renamedNote(run);
    if (renamed !== '') evaluators.push(renamed.trim().slice(1, -1));
    const lists = caseLists(run)
      .filter((list) => list.title !== 'newly failing')
      .map((list): ChangedCasesView => ({
        title: list.title,
        note: list.note ?? '',
        count: list.cases.length,
        inHead:
          list.title !== 'removed' &&
          list.title !== 'not run in HEAD' &&
          list.title !== 'not selected in HEAD',
        cases: list.cases.slice(0, LISTED_CHANGED_CASES).map((ref) => ({
          ...caseText(ref),
          // The whole id: the page finds the case by it and shows it on hover.
          id: ref.id,
          label: ref.label ?? null,
        })),
      }));
    if (evaluators.length > 0 || lists.length > 0) changes.push({ run: name, evaluators, lists });
  }
  const base = comparison.base;
  const lists = comparison.runs.map((run) => ({ run, cases: run.cases.newlyFailing }));
  const alarmed = caseCount(lists.filter(({ run }) => !calmRuns.includes(run)));
  const calm = caseCount(lists.filter(({ run }) => calmRuns.includes(run)));
  const every = caseCount(lists);
  return {
    base: `${base.config}${base.git?.sha ? ` @ ${base.git.sha.slice(0, 7)}` : ''} (${base.startedAt})`,
    confidence: comparison.settings.confidence,
    warnings: [
      ...foreignBaselineWarnings(comparison),
      ...incompleteWarnings(comparison),
      ...lostScoreWarnings(comparison),
    ],
    rows,
    newlyFailing,
    newlyFailingRuns,
    alarmLead: ALARM_LEAD,
    calmNewlyFailing: calmRuns.length === 0 ? '' : calmFlipsName(calmRuns),
    newlyFailingCount: {
      alarm: countedCases(alarmed.cases, alarmed.pairs),
      calm: calm.cases,
      all: countedCases(every.cases, every.pairs),
      byPoint: every.pairs !== every.cases,
    },
    oneSidedRuns: oneSidedRuns(comparison).map(([title, runs]) => ({
      title,
      runs: runs.map(describeRun),
    })),
    changes,
  };
}

/**
 * `view`, first saying that the verdict is the run's own when no run's gate counts regressions
 * (no suite has `gate: { regressions: block }`, or the run had no `--baseline` to act on): a
 * pass shown beside the regressions of the comparison would read as a pass despite them
 * (`evals report --baseline` on such a run).
 */
export function withVerdictNote(view: ComparisonView, runs: readonly RunResult[]): ComparisonView {
  const gated = runs.some((run) => run.gate.conditions.some((c) => c.name === 'regressions'));
  if (gated) return view;
  // A suite may have `regressions: block` and still not be gated: it ran without `--baseline`.
  const blocking = runs.some((run) => run.plan?.gate.regressions === 'block');
  const why = blocking
    ? 'the run was not compared with a baseline when it ran (gate: { regressions: block } acts in evals run --baseline)'
    : 'no suite has gate: { regressions: block }';
  const note = {
    title: "The verdict is the run's own:",
    detail: `this comparison does not gate it (${why}), so the regressions below do not change its pass or fail.`,
  };
  return { ...view, warnings: [note, ...view.warnings] };
}
