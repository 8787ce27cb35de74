/**
 * Cases reduced to what a comparison reads. A small module of its own: the run pipeline reduces
 * cases for `--baseline` and the Action without loading the statistics.
 */
import type { CaseResult, EvaluationResult, RunResult } from '../types/index.ts';
import { ownFields } from '../shared/own-key.ts';

const NO_DATA: Readonly<Record<string, unknown>> = Object.freeze({});

/** A run's cases reduced by `comparableCase`, keeping what its judges' κ rows read. */
export function comparableCases(run: Pick<RunResult, 'plan'>): (result: CaseResult) => CaseResult {
  const kept = agreementKept(run);
  return (result) => comparableCase(result, kept);
}

/**
 * What a judge's κ row reads of a case (compare/kappa-change.ts): the human label in each
 * `agreement:` column, and the choice an evaluation with `agreement:` picked.
 */
export interface AgreementKept {
  columns: readonly string[];
  evaluators: ReadonlySet<string>;
}

/** The `agreement:` columns and evaluators of a run, as its plan recorded them. */
export function agreementKept(run: Pick<RunResult, 'plan'>): AgreementKept {
  const specs = Object.entries(run.plan?.agreement ?? {});
  return {
    columns: [...new Set(specs.map(([, spec]) => spec.column))],
    evaluators: new Set(specs.map(([id]) => id)),
  };
}

/**
 * A case reduced to what a comparison reads (identity, source, tags, pass status, flakiness, each
 * evaluation's score, pass status and error, and what `kept` names for the judges' κ): the rest
 * of its data, output, metadata, thresholds, durations and trial lists are dropped (durations
 * become 0). A run compared with its `--baseline` holds both sides' cases at once; reduced,
 * 100,000 of them take a fraction of the memory. Reducing a reduced case changes nothing.
 */
export function comparableCase(result: CaseResult, kept: AgreementKept): CaseResult {
  const reduced: CaseResult = {
    id: result.id,
    contentId: result.contentId,
    ...(result.inputId !== undefined ? { inputId: result.inputId } : {}),
    source: result.source,
    data: keptData(result.data, kept.columns),
    output: null,
    error: result.error,
    durationMs: 0,
    passed: result.passed,
    evaluations: result.evaluations.map((evaluation) =>
      reducedEvaluation(evaluation, kept.evaluators.has(evaluation.evaluator)),
    ),
  };
  // A run narrowed by `--tag` is compared knowing which rows its filter could select.
  if (result.tags !== undefined) reduced.tags = result.tags;
  if (result.trialPassRate !== undefined) reduced.trialPassRate = result.trialPassRate;
  if (result.flaky !== undefined) reduced.flaky = result.flaky;
  return reduced;
}

/** The `columns` of a case's data (absent ones left out); a shared empty object for none. */
function keptData(data: unknown, columns: readonly string[]): Record<string, unknown> {
  if (columns.length === 0 || data === null || typeof data !== 'object') return NO_DATA;
  const fields = data as Record<string, unknown>;
  return ownFields(
    columns.filter((column) => Object.hasOwn(fields, column)).map((c) => [c, fields[c]] as const),
  );
}

/**
 * An evaluation reduced to what a comparison reads: score, pass status and error, and for a
 * judge with `agreement:` the choice it picked (its verdict, which its score alone may not name).
 */
function reducedEvaluation(evaluation: EvaluationResult, keepChoice: boolean): EvaluationResult {
  const choice = keepChoice ? evaluation.metadata?.choice : undefined;
  return {
    evaluator: evaluation.evaluator,
    score: evaluation.score,
    threshold: null,
    passed: evaluation.passed,
    metadata: typeof choice === 'string' ? { choice } : null,
    error: evaluation.error,
    durationMs: 0,
  };
}
