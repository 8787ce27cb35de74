import { compareArtifacts } from '../compare/compare.ts';
import { requireCommonCases, validateComparable } from '../compare/validate-comparable.ts';
import { renderComparisonJson } from '../report/comparison.ts';
import { renderComparisonMarkdown } from '../report/comparison-markdown.ts';
import { renderComparisonText } from '../report/comparison-text.ts';
import type { Comparison } from '../types/comparison.ts';
import type { ResultsArtifact } from '../types/index.ts';
import { readComparable } from '../pipeline/artifact-files.ts';
import { useColor, type CommandContext } from '../pipeline/context.ts';

export type CompareFormat = 'text' | 'md' | 'json';

/**
 * `evals compare BASE HEAD`: paired statistics between two results artifacts. Exit 0 when no
 * row regressed significantly, 1 when one did, 2 for bad input.
 */
export async function compareCommand(
  basePath: string,
  headPath: string,
  format: CompareFormat,
  ctx: CommandContext,
): Promise<number> {
  const [base, head] = await Promise.all([
    readComparable(basePath, ctx),
    readComparable(headPath, ctx),
  ]);
  const names = { base: basePath, head: headPath };
  let comparison: Comparison;
  if (base.ok && head.ok) {
    requireCommonCases(base.artifact, head.artifact, names);
    comparison = compareArtifacts(base.artifact, head.artifact);
  } else {
    // Throws: the validation says what is wrong with the file(s) that did not read as artifacts.
    comparison = compareResults(
      base.ok ? base.artifact : base.value,
      head.ok ? head.artifact : head.value,
      names,
    );
  }
  const render =
    format === 'json'
      ? renderComparisonJson
      : format === 'md'
        ? renderComparisonMarkdown
        : (c: Comparison) => renderComparisonText(c, { color: useColor(ctx) });
  ctx.stdout.write(render(comparison));
  return comparison.hasRegression ? 1 : 0;
}

/** Validates both sides (throwing a UsageError naming the file at fault) and compares them. */
export function compareResults(
  base: unknown,
  head: unknown,
  names: { base: string; head: string },
): Comparison {
  validateComparable(base, head, names);
  return compareArtifacts(base as ResultsArtifact, head as ResultsArtifact);
}
