/**
 * `--baseline`: the comparison with an earlier results artifact, applied to a finished run.
 * Loaded on demand, so a run without a baseline never loads the statistics.
 */
import { compareArtifacts } from '../compare/compare.ts';
import { requireCommonCases } from '../compare/validate-comparable.ts';
import { regressionCondition } from '../compare/gate.ts';
import { runKey } from '../shared/run-key.ts';
import { renderComparisonText } from '../report/comparison-text.ts';
import { caseLabelFinder } from '../report/comparison-case-lists.ts';
import { labelledComparableCase } from '../report/reported-cases.ts';
import { UsageError, usageError } from '../shared/errors.ts';
import { overallVerdict } from '../artifact/artifact.ts';
import { validateArtifact } from '../artifact/schema.ts';
import type { SuiteSpec } from '../run/types.ts';
import type { CaseResult, ResultsArtifact } from '../types/index.ts';
import { readComparable } from './artifact-files.ts';
import { useColor, type CommandContext } from './context.ts';

/**
 * The baseline file, checked to be a results artifact of this schema version, read a case at a
 * time with its cases reduced to what the comparison reads (`readComparable`) and their labels,
 * which name the cases it lists.
 */
export async function readBaseline(path: string, ctx: CommandContext): Promise<ResultsArtifact> {
  const read = await readComparable(path, ctx, () => labelledComparableCase);
  if (read.ok) return read.artifact;
  const problems = validateArtifact(read.value);
  const version = (read.value as { schemaVersion?: unknown } | null)?.schemaVersion;
  throw usageError(
    'baseline.invalid',
    version !== undefined && version !== 1
      ? `--baseline ${path}: schemaVersion ${JSON.stringify(version)} is not supported (this evalgate reads schemaVersion 1)`
      : `--baseline ${path} is not a results artifact: ${problems.slice(0, 3).join('; ')}`,
    path,
  );
}

/**
 * Compares the run with its baseline, embeds the comparison, prints it, and applies each suite's
 * `gate.regressions`: `block` adds a failing gate condition for corrected significant
 * regressions, `warn` prints them. A baseline sharing no case with the run is a warning here,
 * not an error: the run itself is done and stays valid.
 */
export function withComparison(
  artifact: ResultsArtifact,
  cases: (run: number) => Iterable<CaseResult>,
  baseline: ResultsArtifact,
  baselinePath: string,
  suites: SuiteSpec[],
  ctx: CommandContext,
): ResultsArtifact {
  // The run's cases as the comparison reads them, with their labels (reducing already reduced
  // ones changes nothing).
  const head = {
    ...artifact,
    runs: artifact.runs.map((run, i) => ({
      ...run,
      cases: Array.from(cases(i), labelledComparableCase),
    })),
  };
  let comparison;
  try {
    // Both sides are valid already: the run's own cases, and a baseline checked as it was read.
    requireCommonCases(baseline, head, { base: baselinePath, head: 'this run' });
    comparison = compareArtifacts(baseline, head);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    ctx.stderr.write(`warning: no comparison with ${baselinePath}: ${error.message}\n`);
    return artifact;
  }
  const policy = new Map(suites.map((s) => [s.id, s.gate.regressions ?? 'warn']));
  const runs = artifact.runs.map((run) => {
    const compared = comparison.runs.find((c) => runKey(c) === runKey(run));
    const rule = policy.get(run.suite) ?? 'warn';
    if (!compared || rule === 'off') return run;
    const condition = regressionCondition(compared);
    if (rule === 'warn') {
      if (!condition.passed)
        ctx.stderr.write(`warning: ${run.suite}: significant regression: ${condition.actual}\n`);
      return run;
    }
    const conditions = [...run.gate.conditions, condition];
    return {
      ...run,
      gate: { conditions },
      verdict: condition.passed ? run.verdict : ('fail' as const),
    };
  });
  const caseLabel = caseLabelFinder(head, baseline);
  ctx.stdout.write(`\n${renderComparisonText(comparison, { color: useColor(ctx), caseLabel })}`);
  return { ...artifact, runs, verdict: overallVerdict(runs, artifact.interrupted), comparison };
}
