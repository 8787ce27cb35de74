/**
 * The JSON form of a `Comparison` (`evals compare --format json`); the text and markdown forms
 * are `comparison-text.ts` and `comparison-markdown.ts`. All three are pure and deterministic:
 * no clock, no locale, numbers at a fixed precision and a fixed order, so
 * the same comparison always renders to the same bytes (a CI log or a PR comment can be diffed
 * and cached).
 *
 * Order: the runs with a regression first, and in each run the rows by label (regressed,
 * improved, unchanged, too few cases), so a reviewer reads the bad news first. What the text
 * (`comparison-text.ts`) and markdown (`comparison-markdown.ts`) forms say alike is worked out
 * once, in `comparison-wording.ts`.
 */
import { tooFewToTest } from '../compare/power.ts';
import type { Comparison, EvaluatorChange, PassRateChange } from '../types/comparison.ts';
import { untestable } from './comparison-wording.ts';

/**
 * The comparison as indented JSON, ending with a newline. Key order is the model's. A row of too
 * few paired cases to test (see `tooFewToTest`) has no interval, as the text and markdown forms
 * say: its `ci` is `null`, and `noInterval` says why.
 */
export function renderComparisonJson(comparison: Comparison): string {
  const { confidence } = comparison.settings;
  const shown = {
    ...comparison,
    runs: comparison.runs.map((run) => ({
      ...run,
      passRate: withoutUntestableInterval(run.passRate, confidence),
      evaluators: run.evaluators.map((row) => withoutUntestableInterval(row, confidence)),
    })),
  };
  return `${JSON.stringify(shown, null, 2)}\n`;
}

/**
 * `row` without the interval of a test that can reject nothing: it is only the largest change
 * seen on each side, which a script would read as a bound. `noInterval` ends the row.
 */
function withoutUntestableInterval<T extends PassRateChange | EvaluatorChange>(
  row: T,
  confidence: number,
): T {
  if (row.ci === null || !tooFewToTest(row.paired, confidence)) return row;
  return { ...row, ci: null, noInterval: untestable(row.paired) };
}
