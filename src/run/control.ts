/**
 * A handle the edges hold on a running engine, for what only the process can tell: that the
 * event loop emptied while calls still waited (they can never settle), or that the process is
 * exiting under the run (user code called `process.exit`). The engine attaches to it while it
 * runs; outside of that, both do nothing. The engine itself never looks at `process`.
 */
import type { Params, TestCaseSource } from '../types/index.ts';
import type { EngineResult } from './types.ts';

/** A case that was in flight when the run was abandoned. */
export interface RunningCase {
  suite: string;
  params: Params;
  id: string;
  source: TestCaseSource | null;
}

/** What an abandoned run had: its runs as they stand, and the cases that were in flight. */
export interface AbandonedRun {
  /** The runs, with the cases `recorded` as errored among them. */
  result: EngineResult;
  /** Every case in flight. */
  running: RunningCase[];
  /**
   * How many of `running` were recorded as errored: the culprit alone when there is one (the
   * others did not finish, so they are left out for `--resume` to run), every case in flight
   * when the exit is blamed on no case in particular, none when the edge chose the exit.
   */
  recorded: number;
  /** The case whose user code was running synchronously, when there was one: the culprit. */
  current: RunningCase | null;
}

/** What the engine gives its control while it runs. */
export interface AttachedEngine {
  neverSettled(): number;
  abandon(reason: string, blame: Blame): AbandonedRun | undefined;
  /** The runs as they stand, without their cases; the run goes on. */
  snapshot(): EngineResult;
}

/**
 * Whom an exit is blamed on: the user code that was running (`culprit`: that case, or every case
 * in flight when none was running synchronously), or nobody (`none`: the edge chose to exit,
 * as on a second Ctrl-C, and no case is recorded).
 */
export type Blame = 'culprit' | 'none';

/** Pass one to `runSuites` (`EngineOptions.control`) to act on the run from the edge. */
export class RunControl {
  #engine: AttachedEngine | undefined;

  /** Called by the engine as it starts (with itself) and as it returns (with undefined). */
  attach(engine: AttachedEngine | undefined): void {
    this.#engine = engine;
  }

  /**
   * Nothing else can happen in the process (its event loop emptied): every call still waiting
   * on a promise is errored as never settled, and the run goes on. Returns how many there were.
   */
  neverSettled(): number {
    return this.#engine?.neverSettled() ?? 0;
  }

  /**
   * The process is exiting: records the cases `blame` names as errored with `reason` (see
   * `AbandonedRun.recorded`), stops the run, and returns it as it stands, synchronously.
   * Undefined when no engine is running.
   */
  abandon(reason: string, blame: Blame): AbandonedRun | undefined {
    return this.#engine?.abandon(reason, blame);
  }

  /**
   * The runs as they stand (their summaries so far, no cases), for the frame of the run's
   * recovery journal; undefined when no engine is running.
   */
  snapshot(): EngineResult | undefined {
    return this.#engine?.snapshot();
  }
}
