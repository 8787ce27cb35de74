/**
 * A listed case on the terminal: `✗ id  source  reasons` on one line when it fits; else the id
 * and source on the first line and each reason on a line of its own. A reason too wide for that
 * line is split after its framing (`exact 0 (needs ≥ 1):`), which stays whole, so the score and
 * threshold are never what gets cut; what the evaluator said goes on the next line, cut if it
 * must be as `cutReason` does: its framing words whole and each long value in it cut in its
 * middle, so neither the start of a reason nor the cause at the end of a value is what gets cut.
 */
import { printable, textWidthUpTo } from '../shared/text-table.ts';
import type { CaseResult } from '../types/index.ts';
import type { Painter } from './ansi.ts';
import { caseLabel, caseName, cutMiddle } from './case-text.ts';
import { reasonWithTrial } from './evaluation-reason.ts';
import { cutReason, reasonPieces } from './reason-cut.ts';
import { describeCaseFailure, describeFailedEvaluation, flakyLabel } from './labels.ts';

/**
 * Why a case did not pass, one entry per reason, each with what its evaluator recorded (from
 * which trial, when the case ran several): the summary's reasons, whole.
 */
export function caseReasons(result: CaseResult): string[] {
  return reasonParts(result).map(([framing, reason]) =>
    reason === null ? framing : `${framing}: ${reason}`,
  );
}

/**
 * {@link caseReasons} as `[framing, what the evaluator said]`: `['exact 0 (needs ≥ 1)',
 * 'expected "a", got "b"']`, the second null when there is nothing more to say.
 */
function reasonParts(result: CaseResult): [string, string | null][] {
  const bare = (): [string, null][] => describeCaseFailure(result).map((text) => [text, null]);
  if (result.passed || result.error !== null) return bare();
  const failed = result.evaluations.filter((evaluation) => evaluation.passed === false);
  if (failed.length === 0) return bare();
  // With trials, the reason is one failing trial's, which it names (`trial 2: …`), as `evals show`.
  const hasTrials = result.trials !== undefined;
  return failed.map((evaluation) => [
    describeFailedEvaluation(evaluation),
    reasonWithTrial(evaluation, hasTrials),
  ]);
}

/**
 * One reason in lines of at most `width` columns after `under`: whole when it fits, else its
 * framing and colon on one line and the evaluator's words, cut to fit, on the next, further in.
 */
function reasonLines(
  framing: string,
  reason: string | null,
  under: string,
  width: number,
): string[] {
  const room = width - under.length;
  const text = printable(reason === null ? framing : `${framing}: ${reason}`);
  if (reason === null) return wrappedReason(text, under, width);
  if (textWidthUpTo(text, room) <= room) return [`${under}${text}`];
  const deeper = `${under}  `;
  return [
    `${under}${cutMiddle(printable(`${framing}:`), room)}`,
    `${deeper}${cutReason(printable(reason), width - deeper.length)}`,
  ];
}

/**
 * A reason with nothing split off (an error: `POST … failed (ECONNREFUSED): connect …; nothing
 * accepts connections there: …; after 3 attempts`) in lines after `under`: one when it fits; else
 * two, split after the last whole part (before a `; ` of its framing) that fits the first, the
 * rest further in and cut if it must be (`cutReason`), so the hint after the cause is not what is
 * left out at 160 columns; one line cut as `cutReason` does when not even the first part fits.
 */
export function wrappedReason(text: string, under: string, width: number): string[] {
  const room = width - under.length;
  if (textWidthUpTo(text, room) <= room) return [`${under}${text}`];
  let split = -1;
  let at = 0;
  for (const piece of reasonPieces(text)) {
    if (!piece.value) {
      for (const match of piece.text.matchAll(/; /g)) {
        const end = at + match.index;
        if (textWidthUpTo(text.slice(0, end), room) > room) break;
        split = end;
      }
    }
    at += piece.text.length;
  }
  if (split <= 0) return [`${under}${cutReason(text, room)}`];
  const deeper = `${under}  `;
  const rest = text.slice(split + 2);
  return [`${under}${text.slice(0, split)};`, `${deeper}${cutReason(rest, width - deeper.length)}`];
}

/**
 * A content hash as an id (`hash: [q]`): 40 or more hex digits, which say nothing to a reader in
 * full (the case's label names it), so it stays short even where the whole would fit.
 */
const HASH_ID = /^[0-9a-f]{40,}$/;

/**
 * The lines of one listed case; `shortId` is its id as the listing shows it when the line is
 * short of room. An id the user wrote (`refund-window-2024`) is shown whole when the line has
 * room for it, as one line or as the head line above the reasons.
 */
export function renderCaseLines(
  result: CaseResult,
  shortId: string,
  paint: Painter,
  width: number,
  indent: string,
): string[] {
  const errored = result.error !== null;
  const mark = result.passed
    ? paint.yellow('~')
    : errored
      ? paint.yellow('!')
      : paint.red('\u2717');
  const source = result.source ? `${result.source.file}:${result.source.line}` : '(inline)';
  const flaky = flakyLabel(result);
  const parts = reasonParts(result);
  const reasons = parts.map(([framing, reason]) =>
    reason === null ? framing : `${framing}: ${reason}`,
  );
  const room = width - indent.length - 2;
  const ids = shortId === result.id || HASH_ID.test(result.id) ? [shortId] : [result.id, shortId];
  const heads = ids.map((id) =>
    printable(
      [caseName(id, caseLabel(result), 30), source, flaky].filter((p) => p !== null).join('  '),
    ),
  );
  for (const headText of heads) {
    const oneLine =
      reasons.length === 0 ? headText : `${headText}  ${printable(reasons.join('; '))}`;
    if (textWidthUpTo(oneLine, room) <= room) return [`${indent}${mark} ${oneLine}`];
  }
  const headText =
    heads.find((text) => textWidthUpTo(text, room) <= room) ?? heads[heads.length - 1] ?? '';
  const head = `${indent}${mark} ${cutMiddle(headText, room)}`;
  const under = `${indent}    `;
  return [
    head,
    ...parts.flatMap(([framing, reason]) => reasonLines(framing, reason, under, width)),
  ];
}
