/**
 * `--baseline`: the comparison with an earlier results artifact, applied to a finished run.
 * Loaded on demand, so a run without a baseline never loads the statistics.
 */
import { compareArtifacts } from '../compare/compare.ts';
import { commonCasesProblem } from '../compare/validate-comparable.ts';
import { compareRecorded } from '../compare/recorded-blocks.ts';
import { unknownRemovedEntriesTexts } from '../compare/unknown-removed.ts';
import {
  missingEvaluatorsText,
  regressionCondition,
  REGRESSIONS_EXPECTED,
  significantRegressions,
} from '../compare/gate.ts';
import {
  goneGridPoints,
  goneGridPointsText,
  type GoneGridPoints,
} from '../compare/gone-grid-points.ts';
import {
  foreignBaselineText,
  goneSuites,
  headSuites,
  unknownRemovedSuitesTexts,
  withMissingSuites,
} from '../compare/gone-suites.ts';
import { runKey } from '../shared/run-key.ts';
import { renderComparisonText } from '../report/comparison-text.ts';
import { caseLabelFinder } from '../report/comparison-case-lists.ts';
import { labelledComparableCases, REPORTED_WHOLE_CASES } from '../report/reported-cases.ts';
import { shortWhy } from '../report/html-model-why.ts';
import { describeRun } from '../report/labels.ts';
import { UsageError, usageError } from '../shared/errors.ts';
import { overallVerdict } from '../artifact/artifact.ts';
import { listProblems, schemaVersionProblem } from '../artifact/schema.ts';
import {
  describeBaseline,
  isBaseline,
  withBaselinePath,
  type RecordedBaseline,
} from '../artifact/merge-baseline.ts';
import type { Comparison, RunRef } from '../types/comparison.ts';
import type { GateSpec } from '../types/index.ts';
import type { CaseResult, ResultsArtifact } from '../types/index.ts';
import { readComparable } from './artifact-files.ts';
import { terminalWidth, useColor, type CommandContext } from './context.ts';

/**
 * The baseline file, checked to be a results artifact of this schema version, read a case at a
 * time with its cases reduced to what the comparison reads (`readComparable`) and their labels,
 * which name the cases it lists.
 */
export async function readBaseline(path: string, ctx: CommandContext): Promise<ResultsArtifact> {
  const read = await readComparable(path, ctx, (_, run) => labelledComparableCases(run));
  if (read.ok) return read.artifact;
  const version = (read.value as { schemaVersion?: unknown } | null)?.schemaVersion;
  const versionProblem = schemaVersionProblem(version);
  throw usageError(
    'baseline.invalid',
    versionProblem !== null
      ? `--baseline ${path}: ${versionProblem}`
      : `--baseline ${path} is not a results artifact: ${listProblems(read.problems)}`,
    path,
  );
}

/**
 * The results file `path` compared with the baseline file `baselinePath`, as `evals compare
 * BASELINE RESULTS` compares them: what `evals report --baseline` shows and the Action's
 * `mode: report` posts. Usage errors name the file that is not a results artifact, or say that
 * the two share no case.
 */
export async function compareResultsFile(
  baselinePath: string,
  path: string,
  ctx: CommandContext,
): Promise<Comparison> {
  const base = await readBaseline(baselinePath, ctx);
  const head = await readComparable(path, ctx);
  if (!head.ok) throw usageError('report.invalid', `${path} is not a results artifact`, path);
  // As `evals compare` does: a rename under the recorded `regressions: block` (a one-suite
  // config's suite, or only grid value) is compared over no pair and said, not refused as a
  // wrong file. The report does not gate, so it is said as a warning and the exit stays 0.
  const compared = compareRecorded(base, head.artifact, { base: baselinePath, head: path });
  const { foreign, goneSuites: suites, goneGridPoints: points, unknownRemoved } = compared;
  const said = [
    ...(foreign !== undefined ? [foreign] : []),
    ...points.map((block) => `${block.suite}: ${block.text}`),
    ...suites.map((block) => block.text),
    ...unknownRemoved,
  ];
  for (const line of said) ctx.stderr.write(`warning: ${line}\n`);
  return compared.comparison;
}

/**
 * Compares the run with its baseline, embeds the comparison (recording `baselinePath` in it, so
 * `--resume` and `evals merge` compare again with the same file), prints it, and applies each
 * suite's `gate.regressions`: `block` adds a failing gate condition for corrected significant
 * regressions, `warn` prints them. A baseline sharing no case with the run is a warning here,
 * not an error: the run itself is done and stays valid. `suites` gives each suite's gate rules
 * (a merge has them from each run's recorded `plan`). `told` names the baseline in messages
 * (default its path) and hears why the run was not compared, when it was not.
 */
export function withComparison(
  artifact: ResultsArtifact,
  cases: (run: number) => Iterable<CaseResult>,
  baseline: ResultsArtifact,
  baselinePath: string,
  suites: readonly {
    id: string;
    gate: Pick<GateSpec, 'regressions' | 'removedEvaluators' | 'removedGridValues'>;
  }[],
  ctx: CommandContext,
  told: UncomparedListener = {},
): ResultsArtifact {
  const shown = told.shown ?? baselinePath;
  // The run's cases as the comparison reads them, with their labels (reducing already reduced
  // ones changes nothing); and why its first failing cases fail, said beside them in the lists
  // (a reduced case has lost what its evaluators said).
  const whys = new Map<string, string>();
  const head = {
    ...artifact,
    runs: artifact.runs.map((run, i) => {
      const reduce = labelledComparableCases(run);
      const key = runKey(run);
      let kept = 0;
      const reduced = Array.from(cases(i), (result) => {
        const why = kept < REPORTED_WHOLE_CASES ? shortWhy(result) : null;
        if (why !== null) {
          kept++;
          whys.set(JSON.stringify([key, result.id]), why);
        }
        return reduce(result);
      });
      return { ...run, cases: reduced };
    }),
  };
  // Suites of the baseline the config no longer has, compared with nothing whether the rest is;
  // those BASE blocks on fail the run (`missingSuites`), those it warns on are said.
  const headConfig = headSuites(artifact);
  const goneFromConfig = goneSuites(baseline, headConfig);
  // Both sides are valid already: the run's own cases, and a baseline checked as it was read.
  // A run cut short may not have reached a case the baseline holds, and a shard's cases may
  // all be new: either is compared all the same (its runs must still match), so that it
  // records its baseline, and `--resume` or `evals merge` gates on it.
  const apart = commonCasesProblem(
    baseline,
    head,
    { base: shown, head: 'this run' },
    artifact.interrupted || artifact.shard !== undefined,
  );
  // Sharing no suite and no case, the baseline is likelier another config's than renamed: said
  // first, in one sentence, before the suite-by-suite removals the gate still fails it for.
  const foreign =
    apart !== undefined && goneFromConfig.some((suite) => suite.regressions === 'block')
      ? foreignBaselineText(baseline, headConfig, { config: 'this config', run: 'this run' })
      : undefined;
  if (foreign !== undefined) ctx.stderr.write(`warning: ${foreign}\n`);
  for (const suite of goneFromConfig) {
    if (suite.regressions === 'warn') ctx.stderr.write(`warning: ${suite.text}\n`);
  }
  const gates = new Map(suites.map((s) => [s.id, s.gate]));
  for (const text of [
    ...unknownRemovedSuitesTexts(baseline, headConfig),
    ...unknownRemovedEntriesTexts(baseline, artifact, (suite) => gates.get(suite)),
  ]) {
    ctx.stderr.write(`warning: ${text}\n`);
  }
  const goneGrid = (c: Comparison): GoneGridPoints[] =>
    goneGridPoints(c, artifact, (suite) => gates.get(suite)?.removedGridValues, baseline);
  let comparison: Comparison;
  try {
    try {
      comparison = withBaselinePath(compareArtifacts(baseline, head), baselinePath);
      // Recorded, so that the reports of the artifact (PR comment, summary, page) say it too.
      if (foreign !== undefined) comparison = { ...comparison, foreignBaseline: foreign };
    } catch (error) {
      throw apart ?? error;
    }
    // No case in common is the wrong file, unless a rename the gate blocks on explains it (a
    // one-suite config whose suite, or only grid value, was renamed): that fails below instead.
    const blocks = (suite: string): boolean => gates.get(suite)?.regressions === 'block';
    const renamed =
      goneFromConfig.some((suite) => suite.regressions === 'block') ||
      goneGrid(comparison).some((points) => blocks(points.suite));
    if (apart !== undefined && !renamed) throw apart;
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.stderr.write(`warning: no comparison with ${shown}: ${error.message}\n`);
      told.uncompared?.(error.message);
      const notCompared = { baseline: shown, why: error.message };
      return withMissingSuites({ ...artifact, notCompared }, goneFromConfig);
    }
    // The comparison itself broke (values it cannot handle, or a bug): the run's results are
    // still written, and a suite that blocks on regressions fails, since that was not checked.
    const why = `the comparison with ${shown} failed: ${error instanceof Error ? error.message : String(error)}`;
    ctx.stderr.write(`warning: ${why}; the results are written without it\n`);
    told.uncompared?.(why);
    const notCompared = { baseline: shown, why };
    return withMissingSuites({ ...uncompared(artifact, suites, why), notCompared }, goneFromConfig);
  }
  // Grid points of the baseline the suite's grid no longer has, by suite (said once per suite).
  const gone = new Map(
    goneGrid(comparison).map((points) => [points.suite, goneGridPointsText(points)]),
  );
  for (const [suite, text] of gone) {
    if ((gates.get(suite)?.regressions ?? 'warn') === 'warn') {
      ctx.stderr.write(`warning: ${suite}: ${text}\n`);
    }
  }
  const runs = artifact.runs.map((run) => {
    const compared = comparison.runs.find((c) => runKey(c) === runKey(run));
    const gate = gates.get(run.suite);
    const rule = gate?.regressions ?? 'warn';
    const goneText = gone.get(run.suite);
    if ((!compared && goneText === undefined) || rule === 'off') return run;
    const removed = gate?.removedEvaluators ?? [];
    if (rule === 'warn') {
      if (!compared) return run;
      // Named as the comparison names the run: with a grid, the suite alone would say it twice.
      const blocking = significantRegressions(compared).map((b) => b.text);
      const missing = missingEvaluatorsText(compared, removed);
      if (blocking.length > 0) {
        ctx.stderr.write(
          `warning: ${describeRun(run)}: significant regression: ${blocking.join('; ')}\n`,
        );
      }
      if (missing !== undefined) ctx.stderr.write(`warning: ${describeRun(run)}: ${missing}\n`);
      return run;
    }
    const condition = regressionCondition(compared, removed, goneText);
    const conditions = [...run.gate.conditions, condition];
    return {
      ...run,
      gate: { conditions },
      verdict: condition.passed ? run.verdict : ('fail' as const),
    };
  });
  const caseLabel = caseLabelFinder(head, baseline);
  // Past the first failing cases, the reduced case's reason: its evaluators and scores, a few
  // dozen looked up at most (the lists show ten cases each).
  const whyOf = (run: RunRef, id: string): string | null => {
    const key = runKey(run);
    const kept = whys.get(JSON.stringify([key, id]));
    if (kept !== undefined) return kept;
    const reduced = head.runs.find((r) => runKey(r) === key)?.cases.find((c) => c.id === id);
    return reduced === undefined ? null : shortWhy(reduced);
  };
  const options = { color: useColor(ctx), caseLabel, width: terminalWidth(ctx), whyOf };
  ctx.stdout.write(`\n${renderComparisonText(comparison, options)}`);
  const verdict = overallVerdict(runs, artifact.interrupted);
  return withMissingSuites({ ...artifact, runs, verdict, comparison }, goneFromConfig);
}

/**
 * For a caller that reports the run further (the Action): how messages name the baseline (the
 * artifact it was downloaded from, rather than a temporary file), and a listener told why the
 * run was not compared with it (it shares no case with the run, or the comparison failed).
 */
export interface UncomparedListener {
  shown?: string;
  uncompared?: (why: string) => void;
}

/**
 * `artifact` with a failing `regressions` condition (saying `why`) on each run of a suite whose
 * `gate.regressions` is `block`: its regressions could not be checked, so it cannot pass.
 */
function uncompared(
  artifact: ResultsArtifact,
  suites: readonly {
    id: string;
    gate: Pick<GateSpec, 'regressions' | 'removedEvaluators' | 'removedGridValues'>;
  }[],
  why: string,
): ResultsArtifact {
  const blocking = new Set(suites.filter((s) => s.gate.regressions === 'block').map((s) => s.id));
  const runs = artifact.runs.map((run) => {
    if (!blocking.has(run.suite)) return run;
    const condition = {
      name: 'regressions',
      expected: REGRESSIONS_EXPECTED,
      actual: `not checked: ${why}`,
      passed: false,
    };
    return {
      ...run,
      gate: { conditions: [...run.gate.conditions, condition] },
      verdict: 'fail' as const,
    };
  });
  return { ...artifact, runs, verdict: overallVerdict(runs, artifact.interrupted) };
}

/**
 * `withComparison` of a run's artifacts with `chosen`, their cases read from `cases`. `quiet`
 * for the artifact written as the process quits at once (a second Ctrl-C, user code calling
 * `process.exit`): compared so that it records its baseline for `--resume`, with nothing printed
 * (no one is left to read the table), and written uncompared if the comparison fails, since
 * results without it are better than none. `told`: as {@link withComparison} takes it.
 */
export function comparer(
  chosen: ChosenBaseline,
  cases: (run: number) => Iterable<CaseResult>,
  suites: readonly {
    id: string;
    gate: Pick<GateSpec, 'regressions' | 'removedEvaluators' | 'removedGridValues'>;
  }[],
  ctx: CommandContext,
  told: UncomparedListener = {},
): (artifact: ResultsArtifact, quiet?: boolean) => ResultsArtifact {
  const silent = { write: () => true };
  const compare = (artifact: ResultsArtifact, context: CommandContext): ResultsArtifact =>
    withComparison(artifact, cases, chosen.artifact, chosen.path, suites, context, told);
  return (artifact, quiet = false) => {
    if (!quiet) return compare(artifact, ctx);
    try {
      return compare(artifact, { ...ctx, stdout: silent, stderr: silent });
    } catch {
      return artifact;
    }
  };
}

/** A baseline file chosen and read: what `withComparison` compares with. */
export interface ChosenBaseline {
  path: string;
  artifact: ResultsArtifact;
}

/**
 * The baseline a run that finishes recorded pieces compares with: `given` (`--baseline`) when
 * there is one, else the one the pieces were compared with (`recorded`, see merge-baseline.ts),
 * read again from its file, which must still hold that run. `whose` names the pieces in
 * messages (`part.json's`, `the shards'`), `advice` says how to give a baseline (`pass
 * --baseline FILE again`). Refuses (a usage error) when the recorded baseline cannot be read
 * again or holds another run now, so that the comparison, and the regression gate with it, is
 * never dropped without a word. A `given` baseline other than the recorded one is used (the
 * comparison is made again over every case, so it is consistent), and said.
 */
export async function chooseBaseline(
  given: string | undefined,
  recorded: RecordedBaseline | undefined,
  whose: string,
  advice: string,
  ctx: CommandContext,
): Promise<ChosenBaseline | undefined> {
  if (given !== undefined) {
    const artifact = await readBaseline(given, ctx);
    if (recorded !== undefined && !isBaseline(artifact, recorded.identity)) {
      ctx.stderr.write(
        `note: comparing with ${given}, not with ${whose} baseline ${describeBaseline(recorded)}: every case is compared with ${given}\n`,
      );
    }
    return { path: given, artifact };
  }
  if (recorded === undefined) return undefined;
  const again = `${advice} (that baseline, wherever it is now, or another: every case is compared with FILE), so that the regression gate is not dropped`;
  const { path } = recorded;
  if (path === undefined) {
    throw usageError(
      'baseline.unrecorded',
      `${whose} baseline, ${describeBaseline(recorded)}, is not recorded by file (an earlier evalgate wrote it): ${again}`,
    );
  }
  let artifact: ResultsArtifact;
  try {
    artifact = await readBaseline(path, ctx);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    throw usageError(
      'baseline.gone',
      `${whose} baseline ${path} cannot be read now (${error.message}): ${again}`,
    );
  }
  if (!isBaseline(artifact, recorded.identity)) {
    throw usageError(
      'baseline.changed',
      `${path} is no longer ${whose} baseline: it holds ${describeBaseline({ identity: artifact })}, not ${describeBaseline({ identity: recorded.identity })}; ${again}`,
    );
  }
  return { path, artifact };
}
