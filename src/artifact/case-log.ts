/**
 * Where a run's finished cases go as they finish, and where every reader of them afterwards
 * gets them back in testset order: the artifact file, the JUnit report, the pull-request
 * reports, a baseline comparison. Cases finish out of order, so each is recorded at its
 * position in its run. Two kinds: {@link MemoryCaseLog} holds them (a library call that returns
 * them), `CaseSpool` (artifact-writer.ts) spools them to disk so memory does not grow with the
 * testset (`evals run`, `evals merge`).
 */
import { writeFileAtomic } from '../shared/write-file-atomic.ts';
import { serializeArtifactChunks } from './artifact.ts';
import type { CaseResult, ResultsArtifact } from '../types/index.ts';

export interface CaseLog {
  /** Once, before any case: how many cases each run plans, in artifact order. */
  open(runs: readonly { cases: number }[]): void;
  /**
   * A finished case of run `run`, at position `index` of the run's planned cases; `json`, when
   * given, is the case already encoded by `stringifyCase` (so it is not encoded twice).
   */
  record(run: number, index: number, result: CaseResult, json?: string): void;
  /** Run `run`'s recorded cases, in position order (synchronous: read after the run). */
  cases(run: number): Iterable<CaseResult>;
  /**
   * Writes `artifact` to `path` (through a temporary file and a rename), each run's `cases`
   * taken from this log: run i of the artifact is run i of the log.
   */
  writeArtifact(path: string, artifact: ResultsArtifact): Promise<void>;
  /** Frees what the log holds (a spool's files); nothing is read after it. Idempotent. */
  discard(): void;
}

/** A case log that holds every case in memory. */
export class MemoryCaseLog implements CaseLog {
  #runs: (CaseResult | undefined)[][] = [];

  open(runs: readonly { cases: number }[]): void {
    this.#runs = runs.map((run) => new Array<CaseResult | undefined>(run.cases));
  }

  record(run: number, index: number, result: CaseResult): void {
    const cases = this.#runs[run];
    if (cases === undefined || !(index >= 0 && index < cases.length)) {
      throw new RangeError(`no case ${index} in run ${run} of the case log`);
    }
    cases[index] = result;
  }

  cases(run: number): CaseResult[] {
    return (this.#runs[run] ?? []).filter((result): result is CaseResult => result !== undefined);
  }

  writeArtifact(path: string, artifact: ResultsArtifact): Promise<void> {
    const runs = artifact.runs.map((run, i) => ({ ...run, cases: this.cases(i) }));
    return writeFileAtomic(path, serializeArtifactChunks({ ...artifact, runs }));
  }

  discard(): void {
    this.#runs = [];
  }
}
