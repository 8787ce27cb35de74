/**
 * The lists of a run's cases that changed between BASE and HEAD (newly failing, fixed, added,
 * …, not run on an incomplete side), as the text and markdown forms of a comparison list them.
 */
import { formatPercent, shortId } from './labels.ts';
import type { CaseRef, RunComparison } from '../types/comparison.ts';

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
}

/** The titles of the case lists, in the order they are shown: bad news first. */
export const CASE_LIST_TITLES = [
  'newly failing',
  'fixed',
  'added',
  'removed',
  'not run in BASE',
  'not run in HEAD',
  'testset row changed',
  'flaky in HEAD',
] as const;

/** A run's non-empty case lists, bad news first. */
export function caseLists(run: RunComparison): CaseList[] {
  const { cases } = run;
  const lists: CaseList[] = [
    { title: 'newly failing', cases: cases.newlyFailing, alarm: true },
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
