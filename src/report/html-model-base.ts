/**
 * What the HTML report's case detail sets beside HEAD's for a case that changed between the
 * baseline and this run (newly failing, fixed): the baseline's status, output, error, warnings and each
 * evaluation's score and verdict. Built from baseline cases already scrubbed whole
 * (`readBaselineCases`); only cut here.
 */
import { runKey } from '../shared/run-key.ts';
import type { CaseResult, Params } from '../types/index.ts';
import { caseWhy } from './html-model-why.ts';

/** A case's key among the baseline's: its run's `runKey` and its id. */
export function baselineKey(run: { suite: string; params: Params }, id: string): string {
  return JSON.stringify([runKey(run), id]);
}

/** The baseline's cases by `baselineKey`, scrubbed whole as they were read. */
export interface BaselineCases {
  cases: ReadonlyMap<string, CaseResult>;
  /** Cases asked for: more than `cases.size` when the page's limit left some out. */
  named: number;
  /** Why the baseline file could not be read again (gone since the run), when it could not. */
  unread?: string;
}

/** The baseline's result of one case, as the detail shows it beside HEAD's. */
export interface BaseCaseView {
  status: 'passed' | 'failed' | 'errored';
  /** Cut as HEAD's detail cuts an output; null when the case errored and has none. */
  output: string | null;
  /** Whether HEAD's output is the same, whole (the page holds BASE's cut). */
  sameOutput: boolean;
  error: string | null;
  /**
   * What the target noted about the baseline's output (an integer past 2^53 read as another),
   * cut; absent when none. Without it a BASE output would show a number the answer never sent
   * and nothing would say so.
   */
  warnings?: string[];
  /** Why it did not pass in the baseline (`caseWhy`); absent when it passed. */
  why?: string;
  evaluations: { evaluator: string; score: number | null; passed: boolean | null }[];
}

/** `result` (a baseline case of `head`) as the detail shows it, its texts cut by `cut`. */
export function baseCaseView(
  result: CaseResult,
  head: CaseResult,
  shown: (value: unknown) => string,
  cut: (text: string) => string,
): BaseCaseView {
  const errored = result.error !== null && (result.output === null || result.output === undefined);
  const why = caseWhy(result);
  const outputOf = (r: CaseResult): string | null =>
    r.error !== null && (r.output === null || r.output === undefined) ? null : shown(r.output);
  return {
    status: result.error !== null ? 'errored' : result.passed ? 'passed' : 'failed',
    output: errored ? null : cut(shown(result.output)),
    sameOutput: outputOf(result) === outputOf(head),
    error: result.error === null ? null : cut(result.error),
    ...(result.warnings !== undefined &&
      result.warnings.length > 0 && { warnings: result.warnings.map(cut) }),
    ...(why !== null && { why: why.why }),
    evaluations: result.evaluations.map((e) => ({
      evaluator: e.evaluator,
      score: e.score,
      passed: e.passed,
    })),
  };
}
