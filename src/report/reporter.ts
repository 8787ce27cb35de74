/**
 * The one place where "what is done with results" plugs in. A reporter hears of the run as it
 * goes (start, each finished case) and gets the finished artifact at the end, with every case
 * readable in testset order from the run's case log. The terminal progress and summary, the
 * artifact file, the JUnit report and the pull-request reports are each one reporter; a new
 * one is a file and a line in the registry (`report/registry.ts`).
 */
import type { CaseLog } from '../artifact/case-log.ts';
import type { CaseDone, EngineStart } from '../run/types.ts';
import type { ResultsArtifact } from '../types/index.ts';

/** The end of a run, as every reporter gets it. */
export interface RunEnd {
  /**
   * The results artifact with every run's summary, gate and verdict, its `cases` left empty:
   * they are in `log`, which may hold more than memory should.
   */
  artifact: ResultsArtifact;
  /** Every finished case of run `i` of the artifact, in testset order: `log.cases(i)`. */
  log: CaseLog;
}

/**
 * What a reporter may do. Every method is optional. `onRunStart` and `onCaseDone` are called
 * synchronously while cases run and must be cheap; one that throws does not stop the run (its
 * error is raised once every case has settled). `onRunEnd` runs once, after the last case, in
 * registration order, and may write files.
 */
export interface Reporter {
  onRunStart?(start: EngineStart): void;
  onCaseDone?(done: CaseDone): void;
  onRunEnd?(end: RunEnd): void | Promise<void>;
  /**
   * Once the run is over, however it ended (after `onRunEnd`, or instead of it when the run
   * failed): release what the reporter holds, such as a timer or a live terminal line.
   */
  close?(): void;
}
