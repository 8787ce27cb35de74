/** The reasons on each trial's line of a case's detail on the page (`html-model.ts`). */
import { cutReason } from './reason-cut.ts';
import type { EvaluationResult } from '../types/index.ts';
import { reasonOf } from './evaluation-reason.ts';
import { shortenText } from './failure-details.ts';
import { oneLine } from '../shared/one-line.ts';

/** Characters of each reason on a trial's line, as on `evals show`'s trial lines. */
const TRIAL_REASON_CHARS = 160;

/**
 * Why one trial's evaluations failed or errored: the case's evaluations explain one failing
 * trial at most (none for a flaky case that passed), so each trial says its own, as `evals
 * show` does.
 */
export function trialReasons(evaluations: readonly EvaluationResult[]): string[] {
  return evaluations.flatMap((evaluation) => {
    if (evaluation.passed !== false) return [];
    // An error is cut as the terminal cuts one: its cause (after a URL) whole.
    if (evaluation.error !== null) {
      const error = `error: ${oneLine(evaluation.error)}`;
      return [`${evaluation.evaluator}: ${cutReason(error, TRIAL_REASON_CHARS)}`];
    }
    const reason = reasonOf(evaluation);
    if (reason === null) return [];
    return [`${evaluation.evaluator}: ${shortenText(oneLine(reason), TRIAL_REASON_CHARS)}`];
  });
}
