/**
 * Scores HEAD lost: cases scored in BASE that have no score in HEAD (the evaluator errored, the
 * function failed, the score was NaN). A row is tested on the cases scored on both sides only, so
 * without these words an evaluator that broke on half the cases could read as `improved`.
 */
import { describeRun, formatCount, plural } from './labels.ts';
import type { Comparison } from '../types/comparison.ts';
import type { Row } from './comparison-wording.ts';
import type { IncompleteWarning } from './comparison-incomplete.ts';

/**
 * `(15 of 30 scored on both sides; 15 lost in HEAD: error or no score)` when the row paired fewer
 * cases than its run compared, so a row never hides the cases it left out; '' otherwise.
 */
export function scoredNote(row: Extract<Row, { kind: 'evaluator' }>): string {
  const { paired } = row.change;
  const compared = row.compared;
  if (compared === undefined || paired >= compared) return '';
  const lost = row.change.lostInHead ?? 0;
  const missing = row.change.lostInBase ?? 0;
  const lostText = lost === 0 ? '' : `; ${formatCount(lost)} lost in HEAD: error or no score`;
  const missingText =
    missing === 0 ? '' : `; ${formatCount(missing)} missing in BASE: error or no score there`;
  return `(${formatCount(paired)} of ${formatCount(compared)} scored on both sides${lostText}${missingText})`;
}

/** Runs named in the warning; the rest are counted. */
const LISTED = 5;

/**
 * One warning when some evaluator lost scores in HEAD, naming the first rows
 * (`q · sc: 15 of 30 cases`); none otherwise. Shown with the incomplete-side warnings.
 */
export function lostScoreWarnings(comparison: Comparison): IncompleteWarning[] {
  const rows: string[] = [];
  let total = 0;
  for (const run of comparison.runs) {
    for (const change of run.evaluators) {
      const lost = change.lostInHead ?? 0;
      if (lost === 0) continue;
      total += lost;
      rows.push(
        `${describeRun(run)} · ${change.evaluator}: ${formatCount(lost)} of ${formatCount(run.passRate.paired)} cases`,
      );
    }
  }
  if (rows.length === 0) return [];
  const more = rows.length > LISTED ? ` and ${formatCount(rows.length - LISTED)} more` : '';
  return [
    {
      title: 'HEAD lost scores',
      detail:
        `(evaluator error, function error or NaN): ${plural(total, 'score')} BASE had ${total === 1 ? 'is' : 'are'} missing in HEAD: ` +
        `${rows.slice(0, LISTED).join('; ')}${more}.` +
        ' Those rows are tested only on the cases scored on both sides; look at the errors before trusting them.',
    },
  ];
}
