/**
 * A listed case on the terminal: `✗ id  source  reasons` on one line when it fits; else the id
 * and source on the first line and each reason on a line of its own, cut if it must be as
 * `cutReason` does: its framing words whole and each long value in it cut in its middle, so
 * neither the start of a reason nor the cause at the end of a value is what gets cut.
 */
import { printable, textWidthUpTo } from '../shared/text-table.ts';
import type { CaseResult } from '../types/index.ts';
import type { Painter } from './ansi.ts';
import { caseLabel, caseName, cutMiddle } from './case-text.ts';
import { reasonOf } from './evaluation-reason.ts';
import { cutReason } from './reason-cut.ts';
import { describeCaseFailure, describeFailedEvaluation, flakyLabel } from './labels.ts';

/** Why a case did not pass, one entry per reason, each with what its evaluator recorded. */
export function caseReasons(result: CaseResult): string[] {
  if (result.passed || result.error !== null) return describeCaseFailure(result);
  const failed = result.evaluations.filter((evaluation) => evaluation.passed === false);
  if (failed.length === 0) return describeCaseFailure(result);
  return failed.map((evaluation) => {
    const reason = reasonOf(evaluation);
    const text = describeFailedEvaluation(evaluation);
    return reason === null ? text : `${text}: ${reason}`;
  });
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
  const reasons = caseReasons(result);
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
    ...reasons.map((reason) => `${under}${cutReason(printable(reason), width - under.length)}`),
  ];
}
