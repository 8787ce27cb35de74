/** The exit codes of `evals run` (docs/cli.md "Exit codes"). */
import type { ResultsArtifact } from '../types/index.ts';
import { EXIT_UNWRITTEN } from './write-failure.ts';

/**
 * Exit codes of `evals run`: verdict pass, verdict fail (or a run cut short from inside: see
 * exit-guard.ts), bad usage (thrown as UsageErrors), the run finished but a result file could
 * not be written (`unwritten`: also when its results went beside `-o`, which another run holds),
 * interrupted by a signal.
 */
export const EXIT = {
  pass: 0,
  fail: 1,
  usage: 2,
  unwritten: EXIT_UNWRITTEN,
  interrupted: 130,
} as const;

/** The exit code of a run whose results are whole and written: its verdict's. */
export function verdictCode(artifact: ResultsArtifact): number {
  return artifact.verdict === 'pass' ? EXIT.pass : EXIT.fail;
}
