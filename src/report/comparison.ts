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
import type { Comparison } from '../types/comparison.ts';

/** The comparison as indented JSON, ending with a newline. Key order is the model's. */
export function renderComparisonJson(comparison: Comparison): string {
  return `${JSON.stringify(comparison, null, 2)}\n`;
}
