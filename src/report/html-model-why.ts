/**
 * Why a case did not pass, as its row in the HTML report's case table says it without a click:
 * the terminal summary's reasons (`caseReasons`: the case's error with its cause, else each
 * failing evaluation with what it said), joined on one line. Read from the artifact, which is
 * scrubbed already; only cut here, never re-read from anything raw.
 */
import type { CaseResult } from '../types/index.ts';
import { oneLine } from '../shared/one-line.ts';
import { caseReasons } from './case-lines.ts';
import { cutReason } from './reason-cut.ts';

/**
 * Longest reason the page holds (the row's tooltip, the detail's line): one custom evaluator's
 * `metadata.reason` may be a page long, and 100,000 rows each holding theirs would weigh the
 * page down; the detail's evaluations table still has every reason whole.
 */
export const MAX_WHY_CHARS = 2_000;

/** Columns of the reason the row itself shows; a narrower cell cuts it further, at its end. */
export const SHOWN_WHY_CHARS = 160;

/** A case's reason: whole (up to `MAX_WHY_CHARS`) and as its row shows it, when that differs. */
export interface CaseWhy {
  why: string;
  /** `why` cut as the terminal cuts a reason (framing whole, values in their middle). */
  whyShown?: string;
}

/** Why `result` did not pass; null when it passed (a flaky case that passed included). */
export function caseWhy(result: CaseResult): CaseWhy | null {
  const reasons = caseReasons(result);
  if (reasons.length === 0) return null;
  const why = cutReason(oneLine(reasons.join('; ')), MAX_WHY_CHARS);
  const shown = cutReason(why, SHOWN_WHY_CHARS);
  // Absent when the same: 100,000 rows with a second copy would only weigh the page down.
  return shown === why ? { why } : { why, whyShown: shown };
}

/**
 * Why `result` did not pass, as short as a row shows it (`SHOWN_WHY_CHARS` columns, cut after
 * the artifact's scrub): what the comparison's case lists say beside each case, in every form.
 * Null when it passed.
 */
export function shortWhy(result: CaseResult): string | null {
  const why = caseWhy(result);
  return why === null ? null : (why.whyShown ?? why.why);
}
