/**
 * The markdown report the GitHub Action posts: the sticky PR comment, the check run's summary and
 * the job summary are all this one document, rendered under different size budgets. Pure: the
 * artifact (with its statistical comparison, when it has one) in, a string out.
 *
 * It reads in five seconds: one sentence with the verdict, one compact table (the statistical
 * comparison with the baseline, else the grid points), then the details, folded where they are
 * long.
 *
 * The parts, each its own file: the model worked out once (`markdown-model.ts`), the verdict
 * sentence and the compact tables (`markdown-overview.ts`, and `comparison-markdown.ts` for the
 * statistical comparison), the budget search over what fits (`markdown-budget.ts`), the document
 * and its run sections (`markdown-runs.ts`), the failing cases (`markdown-cases.ts`) and the
 * escaping of user text (`markdown-text.ts`).
 */
import { fitToBudget } from './markdown-budget.ts';
import { buildModel, type MarkdownOptions } from './markdown-model.ts';
import type { ReportedArtifact } from './reported-cases.ts';

export type { MarkdownOptions } from './markdown-model.ts';

/**
 * Renders the report. The text is never longer than `options.maxChars`: when everything does not
 * fit, sections are dropped in reverse priority (failing cases beyond the first few, then the
 * evaluator rows of passing runs, then the first few cases, then the evaluator rows of failing
 * runs, then whole runs, passing ones first) and each cut says what is missing. Cuts happen
 * between blocks, never inside a tag or a code block. Ends with a newline.
 */
export function renderMarkdownReport(artifact: ReportedArtifact, options: MarkdownOptions): string {
  const model = buildModel(artifact, options);
  return fitToBudget(model, Math.max(0, Math.floor(options.maxChars)));
}
