import type { FoundProblems } from '../artifact/schema.ts';
import { compareArtifacts } from '../compare/compare.ts';
import { blockedMissingEvaluators, type MissingEvaluatorsBlock } from '../compare/gate.ts';
import { validateComparable } from '../compare/validate-comparable.ts';
import { renderComparisonJson } from '../report/comparison.ts';
import { renderComparisonMarkdown } from '../report/comparison-markdown.ts';
import { renderComparisonText } from '../report/comparison-text.ts';
import { shortWhy } from '../report/html-model-why.ts';
import { caseLabelFinder } from '../report/comparison-case-lists.ts';
import { describeRun } from '../report/labels.ts';
import { failingCasesWhole, labelledComparableCases } from '../report/reported-cases.ts';
import { runKey } from '../shared/run-key.ts';
import type { Comparison, RunRef } from '../types/comparison.ts';
import type { CaseResult, ResultsArtifact } from '../types/index.ts';
import {
  blockedGoneGridPoints,
  compareRecorded,
  type GoneGridPointsBlock,
  type GoneSuiteBlock,
} from '../compare/recorded-blocks.ts';
import { readComparable } from '../pipeline/artifact-files.ts';
import { terminalWidth, useColor, type CommandContext } from '../pipeline/context.ts';

export type CompareFormat = 'text' | 'md' | 'json';

/**
 * `evals compare BASE HEAD`: paired statistics between two results artifacts. Exit 1 when a row
 * regressed significantly, or when a run of HEAD lacks an evaluator of its BASE run that its
 * recorded gate would fail it for (`regressions: block` without it in `removedEvaluators`, as
 * `evals run --baseline` fails it), or a grid point of BASE its grid no longer has, or when
 * HEAD's config lacks a suite of BASE whose recorded gate blocks; 0 otherwise, 2 for bad input.
 */
export async function compareCommand(
  basePath: string,
  headPath: string,
  format: CompareFormat,
  ctx: CommandContext,
): Promise<number> {
  // Every case keeps its label, to name it in the case lists; HEAD's failing cases (a bounded
  // number) whole: the markdown and the text say why each fails now.
  const [base, head] = await Promise.all([
    readComparable(basePath, ctx, (_, run) => labelledComparableCases(run)),
    readComparable(
      headPath,
      ctx,
      format === 'json'
        ? (_, run) => labelledComparableCases(run)
        : (_, run) => failingCasesWhole(labelledComparableCases(run)),
    ),
  ]);
  const names = { base: basePath, head: headPath };
  let comparison: Comparison;
  let foreign: string | undefined;
  // The suites of BASE that HEAD's config no longer has and BASE's recorded gate blocks on: a
  // reason to exit 1 of their own, which every format says.
  let goneSuites: readonly GoneSuiteBlock[] = [];
  let unknownRemoved: readonly string[] = [];
  if (base.ok && head.ok) {
    ({ comparison, goneSuites, foreign, unknownRemoved } = compareRecorded(
      base.artifact,
      head.artifact,
      names,
    ));
  } else {
    // Throws: the validation says what is wrong with the file(s) that did not read as artifacts.
    comparison = compareResults(
      base.ok ? base.artifact : base.value,
      head.ok ? head.artifact : head.value,
      names,
      { ...(base.ok ? {} : { base: base.problems }), ...(head.ok ? {} : { head: head.problems }) },
    );
  }
  // The runs HEAD's recorded gate fails for an evaluator of BASE they lack: a reason to exit 1
  // beside the statistics, which every format says.
  const missing = head.ok ? blockedMissingEvaluators(comparison, head.artifact) : [];
  const gone = head.ok
    ? blockedGoneGridPoints(comparison, head.artifact, base.ok ? base.artifact : undefined)
    : [];
  const headCase = head.ok ? headCaseFinder(head.artifact) : undefined;
  const caseLabel = caseLabelFinder(
    ...[head, base].flatMap((side) => (side.ok ? [side.artifact] : [])),
  );
  const render =
    format === 'json'
      ? (c: Comparison) => renderComparisonJson(withGateFailures(c, missing, gone, goneSuites))
      : format === 'md'
        ? (c: Comparison) =>
            renderComparisonMarkdown(c, {
              ...(headCase ? { headCase } : {}),
              caseLabel,
              missingEvaluators: [
                ...missing,
                ...gone.map(({ suite, text }) => ({ suite, params: {}, text })),
              ],
              goneSuites,
            })
        : (c: Comparison) =>
            renderComparisonText(c, {
              color: useColor(ctx),
              caseLabel,
              width: terminalWidth(ctx),
              whyOf: (run, id) => {
                const found = headCase?.(run, id);
                return found === undefined ? null : shortWhy(found);
              },
            });
  ctx.stdout.write(render(comparison));
  // Said on stderr too, so `--format json` stays one JSON document.
  if (foreign !== undefined) ctx.stderr.write(`HEAD: ${foreign}\n`);
  for (const block of missing) ctx.stderr.write(`HEAD ${describeRun(block)}: ${block.text}\n`);
  for (const block of gone) ctx.stderr.write(`HEAD ${block.suite}: ${block.text}\n`);
  for (const block of goneSuites) ctx.stderr.write(`HEAD: ${block.text}\n`);
  for (const text of unknownRemoved) ctx.stderr.write(`warning: HEAD: ${text}\n`);
  const blocked = missing.length > 0 || gone.length > 0 || goneSuites.length > 0;
  return comparison.hasRegression || blocked ? 1 : 0;
}

/**
 * The JSON form with why `evals compare` exits 1 beside `hasRegression` (which stays the
 * statistics' own, as in the artifact): `blocked`, whether it fails; `missingEvaluators`, the
 * runs HEAD's recorded gate fails for an evaluator of BASE they lack; `missingGridPoints`, the
 * suites it fails for grid points of BASE their grid no longer has. Added after
 * `hasRegression`, so a reader of the earlier keys reads them as before.
 */
function withGateFailures(
  comparison: Comparison,
  missing: readonly MissingEvaluatorsBlock[],
  gone: readonly GoneGridPointsBlock[],
  goneSuites: readonly GoneSuiteBlock[],
): Comparison & {
  blocked: boolean;
  missingEvaluators: readonly MissingEvaluatorsBlock[];
  missingGridPoints: readonly GoneGridPointsBlock[];
  missingSuites: readonly GoneSuiteBlock[];
} {
  const { runs, onlyInBase, onlyInHead, ...head } = comparison;
  const failed = missing.length > 0 || gone.length > 0 || goneSuites.length > 0;
  return {
    ...head,
    blocked: comparison.hasRegression || failed,
    missingEvaluators: missing,
    missingGridPoints: gone,
    missingSuites: goneSuites,
    runs,
    onlyInBase,
    onlyInHead,
  };
}

/** HEAD's case by run and id, so the markdown tables and the text can say why a case fails now. */
function headCaseFinder(
  head: ResultsArtifact,
): (run: RunRef, id: string) => CaseResult | undefined {
  const cases = new Map<string, CaseResult>();
  for (const run of head.runs) {
    for (const result of run.cases) cases.set(JSON.stringify([runKey(run), result.id]), result);
  }
  return (run, id) => cases.get(JSON.stringify([runKey(run), id]));
}

/**
 * Validates both sides (throwing a UsageError naming the file at fault; `placed` as
 * `validateComparable` takes it) and compares them.
 */
export function compareResults(
  base: unknown,
  head: unknown,
  names: { base: string; head: string },
  placed: { base?: FoundProblems<string>; head?: FoundProblems<string> } = {},
): Comparison {
  validateComparable(base, head, names, placed);
  return compareArtifacts(base as ResultsArtifact, head as ResultsArtifact);
}
