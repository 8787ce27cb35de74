/**
 * What a run that ended early (`evals run` exit 3 or 130) left of the files the step promised:
 * the sentence the step fails with (`run-evals.ts`).
 */
import { EXIT, type RunOutcome } from '../pipeline/run.ts';
import type { WriteFailure } from '../report/file-reports.ts';

/**
 * What an exit code of `evals run` other than its verdict's says about the files the step
 * promised, true to what is on disk: `output` (the results, `-o`) written, kept elsewhere, or
 * kept nowhere, and the other files that failed (the lines naming each file and its cause are
 * already on stderr, in the log).
 */
export function incompleteRun(
  outcome: Pick<RunOutcome, 'exitCode' | 'unwritten'>,
  output: string,
): string | undefined {
  const { exitCode, unwritten } = outcome;
  if (exitCode !== EXIT.unwritten && exitCode !== EXIT.interrupted) return undefined;
  const results = unwritten.find((failure) => failure.path === output);
  const others = unwritten.filter((failure) => failure !== results).map(otherFile);
  const also = others.length > 0 ? `; ${others.join('; ')}` : '';
  if (exitCode === EXIT.interrupted) {
    if (results === undefined) {
      return `the run was interrupted: ${output} holds only the cases that finished${also}`;
    }
    return results.kept === null
      ? `the run was interrupted and ${output} could not be written, nor a copy anywhere: the cases that finished are lost (the log says why)${also}`
      : `the run was interrupted and ${output} could not be written: the cases that finished are kept at ${results.kept} (the log says why)${also}`;
  }
  if (results === undefined) {
    const which = others.length > 0 ? others.join('; ') : 'a file could not be written';
    return `the run finished and ${output} holds its results, but ${which} (the log says why)`;
  }
  return results.kept === null
    ? `the run finished but ${output} could not be written, nor a copy anywhere: its results are lost (the log says why)${also}`
    : `the run finished but ${output} could not be written: its complete results are kept at ${results.kept} (the log says why)${also}`;
}

/** `report.html could not be written (kept at /tmp/…)`: a file other than the results. */
function otherFile({ path, kept }: WriteFailure): string {
  return `${path} could not be written (${kept === null ? 'kept nowhere' : `kept at ${kept}`})`;
}
