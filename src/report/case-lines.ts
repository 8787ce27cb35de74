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
import { cutReason } from './reason-cut.ts';
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
  if (reason === null || textWidthUpTo(text, room) <= room) {
    return [`${under}${cutReason(text, room)}`];
  }
  const deeper = `${under}  `;
  return [
    `${under}${cutMiddle(printable(`${framing}:`), room)}`,
    `${deeper}${cutReason(printable(reason), width - deeper.length)}`,
  ];
}

/** The lines of one listed case; `shortId` is its id as the listing shows it. */
export function renderCaseLines(
  result: CaseResult,
  shortId: string,
  paint: Painter,
  width: number,
  indent: string,
): string[] {
  const errored = result.error !== null;
  const mark = result.passed ? paint.yellow('~') : errored ? paint.yellow('!') : paint.red('✗');
  const source = result.source ? `${result.source.file}:${result.source.line}` : '(inline)';
  const name = caseName(shortId, caseLabel(result), 30);
  const flaky = flakyLabel(result);
  const parts = reasonParts(result);
  const reasons = parts.map(([framing, reason]) =>
    reason === null ? framing : `${framing}: ${reason}`,
  );
  const room = width - indent.length - 2;
  const oneLine = printable(
    [name, source, flaky, reasons.join('; ')]
      .filter((part) => part !== null && part !== '')
      .join('  '),
  );
  if (textWidthUpTo(oneLine, room) <= room) return [`${indent}${mark} ${oneLine}`];
  const headText = [name, source, flaky].filter((part) => part !== null).join('  ');
  const head = `${indent}${mark} ${cutMiddle(printable(headText), room)}`;
  const under = `${indent}    `;
  return [
    head,
    ...parts.flatMap(([framing, reason]) => reasonLines(framing, reason, under, width)),
  ];
}
