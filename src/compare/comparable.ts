/**
 * Cases reduced to what a comparison reads. A small module of its own: the run pipeline reduces
 * cases for `--baseline` and the Action without loading the statistics.
 */
import type { CaseResult, EvaluationResult } from '../types/index.ts';

const NO_DATA: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * A case reduced to what a comparison reads (identity, source, pass status, flakiness, and each
 * evaluation's score, pass status and error): data, output, metadata, thresholds, durations and
 * trial lists are dropped (durations become 0). A run compared with its `--baseline` holds both
 * sides' cases at once; reduced, 100,000 of them take a fraction of the memory.
 */
export function comparableCase(result: CaseResult): CaseResult {
  const reduced: CaseResult = {
    id: result.id,
    contentId: result.contentId,
    ...(result.inputId !== undefined ? { inputId: result.inputId } : {}),
    source: result.source,
    data: NO_DATA,
    output: null,
    error: result.error,
    durationMs: 0,
    passed: result.passed,
    evaluations: result.evaluations.map(reducedEvaluation),
  };
  if (result.trialPassRate !== undefined) reduced.trialPassRate = result.trialPassRate;
  if (result.flaky !== undefined) reduced.flaky = result.flaky;
  return reduced;
}

/** An evaluation reduced to what a comparison reads: score, pass status and error. */
function reducedEvaluation(evaluation: EvaluationResult): EvaluationResult {
  return {
    evaluator: evaluation.evaluator,
    score: evaluation.score,
    threshold: null,
    passed: evaluation.passed,
    metadata: null,
    error: evaluation.error,
    durationMs: 0,
  };
}
