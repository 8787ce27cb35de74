import type { FoundProblems } from '../artifact/schema.ts';
import { compareArtifacts } from '../compare/compare.ts';
import { blockedMissingEvaluators, type MissingEvaluatorsBlock } from '../compare/gate.ts';
import { commonCasesProblem, validateComparable } from '../compare/validate-comparable.ts';
import { renderComparisonJson } from '../report/comparison.ts';
import { renderComparisonMarkdown } from '../report/comparison-markdown.ts';
import { renderComparisonText } from '../report/comparison-text.ts';
import { shortWhy } from '../report/html-model-why.ts';
import { caseLabelFinder } from '../report/comparison-case-lists.ts';
import { describeRun } from '../report/labels.ts';
import { failingCasesWhole, labelledComparableCases } from '../report/reported-cases.ts';
import { runKey } from '../shared/run-key.ts';
import type { Comparison, RunRef } from '../types/comparison.ts';
import type { CaseResult, GateSpec, Params, ResultsArtifact } from '../types/index.ts';
import { goneGridPoints, goneGridPointsText } from '../compare/gone-grid-points.ts';
import {
  foreignBaselineText,
  goneSuites as findGoneSuites,
  headSuites,
} from '../compare/gone-suites.ts';
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
  const goneSuites = base.ok && head.ok ? blockedGoneSuites(base.artifact, head.artifact) : [];
  if (base.ok && head.ok) {
    // A one-suite config whose suite, or only grid value, was renamed shares no case with BASE:
    // that is the removal the gate fails, as `evals run --baseline` fails it, not a wrong file.
    const apart = commonCasesProblem(base.artifact, head.artifact, names);
    try {
      comparison = compareArtifacts(base.artifact, head.artifact);
    } catch (error) {
      throw apart ?? error;
    }
    const renamed =
      goneSuites.length > 0 || blockedGoneGridPoints(comparison, head.artifact).length > 0;
    if (apart !== undefined && !renamed) throw apart;
    // Sharing no suite and no case, BASE is likelier another config's than renamed: said first.
    if (apart !== undefined && goneSuites.length > 0) {
      foreign = foreignBaselineText(base.artifact, headSuites(head.artifact), {
        config: "HEAD's config",
        run: 'HEAD',
      });
    }
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
  const gone = head.ok ? blockedGoneGridPoints(comparison, head.artifact) : [];
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

/** A suite of HEAD that `evals compare` fails for grid points of BASE its grid no longer has. */
interface GoneGridPointsBlock {
  suite: string;
  /** BASE's grid points the suite's grid lacks and its `gate.removedGridValues` does not list. */
  gridPoints: Params[];
  text: string;
}

/**
 * The suites of `head` whose recorded gate has `regressions: block` and whose grid, run whole,
 * lacks grid points of BASE not listed in its `removedGridValues` (see gone-grid-points.ts), as
 * `evals run --baseline` fails their runs.
 */
function blockedGoneGridPoints(
  comparison: Comparison,
  head: ResultsArtifact,
): GoneGridPointsBlock[] {
  const gate = (suite: string): GateSpec | undefined =>
    head.runs.find((run) => run.suite === suite)?.plan?.gate;
  return goneGridPoints(comparison, head, (suite) => gate(suite)?.removedGridValues)
    .filter((points) => gate(points.suite)?.regressions === 'block')
    .map((points) => ({
      suite: points.suite,
      gridPoints: points.gone,
      text: goneGridPointsText(points),
    }));
}

/** A suite of BASE that `evals compare` fails for: HEAD's config no longer has it. */
interface GoneSuiteBlock {
  suite: string;
  text: string;
}

/**
 * The suites of `base` that `head`'s whole config lacks and its `removedSuites` does not list,
 * whose gate BASE recorded has `regressions: block` (see gone-suites.ts), as `evals run
 * --baseline` fails the run for them.
 */
function blockedGoneSuites(base: ResultsArtifact, head: ResultsArtifact): GoneSuiteBlock[] {
  return findGoneSuites(base, headSuites(head))
    .filter((suite) => suite.regressions === 'block')
    .map(({ suite, text }) => ({ suite, text }));
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
