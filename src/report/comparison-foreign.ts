/**
 * What a comparison says first when its baseline looks like another config's: it shares no
 * suite and no case with the run, and the suites it lacks fail the run one by one as "renamed?".
 * The wrong file is the likelier mistake, so the reports of the artifact say it above those
 * failures, as the run said it on stderr.
 */
import type { Comparison } from '../types/comparison.ts';
import type { IncompleteWarning } from './comparison-incomplete.ts';

/** The warning of `comparison.foreignBaseline`; none when the comparison records no such sentence. */
export function foreignBaselineWarnings(comparison: Comparison): IncompleteWarning[] {
  const text = comparison.foreignBaseline;
  return text === undefined ? [] : [{ title: 'A baseline of another config?', detail: text }];
}
