/**
 * The lists of a run's cases that changed between BASE and HEAD (newly failing, fixed, added,
 * …, not run on an incomplete side), as the text and markdown forms of a comparison list them.
 */
import { formatCount, formatPercent, plural, shortId } from './labels.ts';
import { caseLabel, caseName } from './case-text.ts';
import { alarmLines } from './alarm-reasons.ts';
import { flipsAside, newlyFailingAlarm } from './newly-failing.ts';
import { runKey } from '../shared/run-key.ts';
import type { CaseRef, RunComparison, RunRef } from '../types/comparison.ts';
import type { CaseResult } from '../types/index.ts';

/** Cases listed per list and run; the rest are counted (the JSON form has them all). */
export const MAX_LISTED_COMPARE_CASES = 10;

/** One list of a run's cases that changed (newly failing, fixed, …). */
export interface CaseList {
  title: (typeof CASE_LIST_TITLES)[number];
  /** Said after the count: why the list is there. */
  note?: string;
  cases: readonly (CaseRef & { trialPassRate?: number | null })[];
  /** Bad news: emphasized. */
  alarm?: boolean;
  /**
   * Said after the count, inside its parentheses, for newly failing cases that are no alarm:
   * what the pass rate can tell of them (`4 fixed the other way, within the noise: …`,
   * `flipsAside`).
   */
  aside?: string;
  /**
   * For an alarm, why it is one, a line each (`the grid point passed its gate in BASE and fails
   * it now`, see `alarmLines`): said under the heading, which stays short.
   */
  reasons?: string[];
}

/** The titles of the case lists, in the order they are shown: bad news first. */
export const CASE_LIST_TITLES = [
  'newly failing',
  'fixed',
  'added',
  'removed',
  'not run in BASE',
  'not run in HEAD',
  'not selected in BASE',
  'not selected in HEAD',
  'testset row changed',
  'flaky in HEAD',
] as const;

/**
 * A run's non-empty case lists, bad news first. Newly failing cases are an alarm only when the
 * grid point's statistics say something regressed (`newlyFailingAlarm`); their `reasons` say
 * why, or else their `aside` what the pass rate can tell of them.
 */
export function caseLists(run: RunComparison): CaseList[] {
  const { cases } = run;
  const alarm = newlyFailingAlarm(run);
  const lists: CaseList[] = [
    {
      title: 'newly failing',
      cases: cases.newlyFailing,
      alarm,
      ...(alarm ? { reasons: alarmLines([run]) } : { aside: flipsAside([run]) }),
    },
    { title: 'fixed', cases: cases.fixed },
    { title: 'added', cases: cases.added },
    { title: 'removed', cases: cases.removed },
    {
      title: 'not run in BASE',
      note: 'BASE is incomplete and has no result for them: not compared, not counted as added',
      cases: cases.notRunInBase ?? [],
    },
    {
      title: 'not run in HEAD',
      note: 'HEAD is incomplete and has no result for them: not compared, not counted as removed',
      cases: cases.notRunInHead ?? [],
    },
    {
      title: 'not selected in BASE',
      note: 'BASE ran with --tag and they lack its tags: not compared, not counted as added',
      cases: cases.notSelectedInBase ?? [],
    },
    {
      title: 'not selected in HEAD',
      note: 'HEAD ran with --tag and they lack its tags: not compared, not counted as removed',
      cases: cases.notSelectedInHead ?? [],
    },
    {
      title: 'testset row changed',
      note: 'not a behaviour change, left out of the statistics',
      cases: cases.contentChanged,
    },
    { title: 'flaky in HEAD', note: 'trials disagreed', cases: cases.flaky },
  ];
  return lists.filter((list) => list.cases.length > 0);
}

/**
 * `newly failing (5; 4 fixed the other way, within the noise: …)`: a list's title and count, and
 * its aside when it has one, as every form heads a list.
 */
export function listHeading(title: string, counted: string, aside: string | undefined): string {
  return `${title} (${counted}${aside === undefined || aside === '' ? '' : `; ${aside}`})`;
}

/**
 * Which case a listed case is, over the grid points of a comparison: a suite's case, by id and
 * source line (two suites may give unrelated inline cases one id). A case newly failing on two
 * grid points is one case, listed on both: every form counts cases by this key.
 */
export function listedCaseKey(run: RunRef, ref: CaseRef): string {
  return JSON.stringify([run.suite, ref.id, ref.source?.file, ref.source?.line]);
}

/**
 * How every form counts a list over grid points: `5` when each case is listed once, else the
 * cases and the (case, grid point) pairs, `5 cases, 7 counting each grid point`.
 */
export function countedCases(cases: number, pairs: number): string {
  return pairs === cases
    ? formatCount(cases)
    : `${plural(cases, 'case')}, ${formatCount(pairs)} counting each grid point`;
}

/** The cases and (case, grid point) pairs of `lists`, each a run's list (see `listedCaseKey`). */
export function caseCount(lists: readonly { run: RunRef; cases: readonly CaseRef[] }[]): {
  cases: number;
  pairs: number;
} {
  const keys = new Set<string>();
  let pairs = 0;
  for (const { run, cases } of lists) {
    pairs += cases.length;
    for (const ref of cases) keys.add(listedCaseKey(run, ref));
  }
  return { cases: keys.size, pairs };
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

/**
 * A listed case's label (`caseLabel`: its `name`, `question`, … field), by run and id; `null`
 * when it has none (a case with a dedup id is named by its id).
 */
export type CaseLabelFinder = (run: RunRef, id: string) => string | null;

/** Columns of a label in a list's case name, as `evals show`'s listings cut it. */
export const LISTED_LABEL_WIDTH = 40;

/**
 * The labels of the cases of `artifacts`, the first artifact that labels a case winning: HEAD
 * then BASE, so that a removed case (only in BASE) is named too.
 */
export function caseLabelFinder(
  ...artifacts: readonly {
    runs: readonly {
      suite: string;
      params: RunRef['params'];
      cases: readonly Pick<CaseResult, 'id' | 'data'>[];
    }[];
  }[]
): CaseLabelFinder {
  const labels = new Map<string, string>();
  for (const artifact of artifacts) {
    for (const run of artifact.runs) {
      const key = runKey(run);
      for (const result of run.cases) {
        const id = JSON.stringify([key, result.id]);
        const label = labels.has(id) ? null : caseLabel(result);
        if (label !== null && label !== '') labels.set(id, label);
      }
    }
  }
  return (run, id) => labels.get(JSON.stringify([runKey(run), id])) ?? null;
}

/**
 * A listed case's name in the text form: its short id, and its label quoted and cut to
 * `LISTED_LABEL_WIDTH` columns when it has one (`3f9a1c2b7d4… "What is the capital of France?"`),
 * as the summary and `evals show` name a case.
 */
export function listedCaseName(ref: CaseRef, label: string | null): string {
  return caseName(shortId(ref.id), label, LISTED_LABEL_WIDTH);
}
