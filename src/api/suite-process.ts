/**
 * What `runTestSuite` watches on the process while it runs, the same as `evals run` does
 * (pipeline/exit-guard.ts, pipeline/signals.ts), since a script that calls it is a CI gate just
 * the same: a call of user code that can never settle is errored and the run goes on; user code
 * that ends the process (`process.exit`, an uncaught error) leaves the partial artifact written,
 * the case named and exit code 1; SIGINT / SIGTERM stop the run as an aborted `signal` does, and
 * a second one quits at once, even after the call has returned while calls of user code it
 * abandoned still run. Everything else it adds to the process is removed when the call returns
 * (and that too once those calls settle), so a script may call `runTestSuite` again, or go on
 * with other work.
 */
import { writeSync } from 'node:fs';
import { serializeArtifactChunks } from '../artifact/artifact.ts';
import type { MemoryCaseLog } from '../artifact/case-log.ts';
import { announceExit, guardProcess, guarding } from '../pipeline/exit-guard.ts';
import { EXIT_INTERRUPTED, STOP_SIGNALS, watchSignals } from '../pipeline/signals.ts';
import type { Reporter } from '../report/reporter.ts';
import { RunControl } from '../run/control.ts';
import { writeAtomicallySync } from '../shared/write-file-atomic.ts';
import type { ResultsArtifact, RunResult } from '../types/index.ts';
import { printAroundProgress } from './sdk-terminal.ts';

export interface SuiteProcessOptions {
  /** The caller's `signal`, if any: it stops the run as the first OS signal does. */
  signal?: AbortSignal;
  /** Where the artifact goes (resolved), and the path as the caller gave it; none without `output`. */
  output?: { path: string; shown: string };
  log: MemoryCaseLog;
  /** The artifact of runs as they stand (their cases are in `log`). */
  artifactOf(runs: RunResult[], interrupted: boolean): ResultsArtifact;
  /** The exit code of whole results, when the call sets one (`setExitCode`). */
  verdictCode(artifact: ResultsArtifact): number | undefined;
  /** The run's calls of user code, each made through `calls.track`. */
  calls: UserCalls;
}

/** The watch of one `runTestSuite` call, from {@link watchSuiteProcess}. */
export interface SuiteProcess {
  /** For the engine: aborted by the caller's signal or the first SIGINT / SIGTERM. */
  signal: AbortSignal;
  control: RunControl;
  /** Call with the run's whole artifact once the engine has ended (before it is written). */
  ended(artifact: ResultsArtifact): void;
  /** Goes after the artifact's reporter: from then on the artifact is on disk. */
  written: Reporter;
  /** True when SIGINT or SIGTERM stopped the run. */
  bySignal(): boolean;
  /** Removes every listener the watch added. */
  stop(): void;
}

const stderr = { write: (text: string) => printAroundProgress(process.stderr, text) };

/** Calls of `runTestSuite` watching the process now. */
let running = 0;
/** Runs a signal stopped whose abandoned calls of user code are still running. */
let abandoning = 0;

/**
 * The calls of one run's user code (`fn`, evaluators) that have not settled, abandoned ones
 * included: a run a signal stops returns without waiting for them, and one that ignores its
 * `signal` keeps the process alive after the run has returned.
 */
export class UserCalls {
  #running = 0;
  #idle: (() => void) | undefined;

  /** `call()`, counted until it returns or, for a promise, until the promise settles. */
  track<T>(call: () => T): T {
    this.#running++;
    let result: T;
    try {
      result = call();
    } catch (error) {
      this.#settled();
      throw error;
    }
    // Only a native promise is followed: calling a thenable's own `then` again could run it twice.
    if (result instanceof Promise) result.then(this.#settled, this.#settled);
    else this.#settled();
    return result;
  }

  /** Calls `idle` once no call is running (at once when none is). */
  whenIdle(idle: () => void): void {
    if (this.#running === 0) idle();
    else this.#idle = idle;
  }

  #settled = (): void => {
    this.#running--;
    if (this.#running > 0 || this.#idle === undefined) return;
    const idle = this.#idle;
    this.#idle = undefined;
    idle();
  };
}

/**
 * After a signal stopped a run, the next SIGINT / SIGTERM / SIGHUP quits at once with exit code 130, as it
 * does during the run, for as long as calls the run abandoned are still running (a `fn` that
 * ignores its `signal` keeps the process alive after the run has returned). The run's own watch
 * is gone by then: without this, Node's default would end the process by the signal, with no
 * exit code and no word. The listener goes once those calls have settled, so a run that was not
 * left with any leaves nothing on the process.
 */
function quitWhileAbandoned(calls: UserCalls): void {
  if (abandoning++ === 0) {
    for (const name of STOP_SIGNALS) process.on(name, quitNow);
  }
  calls.whenIdle(() => {
    if (--abandoning > 0) return;
    for (const name of STOP_SIGNALS) process.off(name, quitNow);
  });
}

function quitNow(signal: NodeJS.Signals): void {
  // This listener, and the one watchSignals adds while a run watches the process: any other is
  // the script's own, which decides what its signals do.
  if (process.listenerCount(signal) > 1 + (running > 0 ? 1 : 0)) return;
  if (guarding()) {
    // A next run is under way: its exit guard writes its partial artifact and says so, blaming
    // no case (this exit is evalgate's, not user code's).
    announceExit('quit at the second signal');
  } else {
    stderr.write('\nquit at the second signal\n');
  }
  process.exit(EXIT_INTERRUPTED);
}

/** Starts watching the process for one `runTestSuite` call; see the module's comment. */
export function watchSuiteProcess(options: SuiteProcessOptions): SuiteProcess {
  const { output, log } = options;
  running++;
  let stopped = false;
  const control = new RunControl();
  // The run's whole artifact while it is not on disk yet, and kept once it is.
  let unwritten: ResultsArtifact | undefined;
  let finished: ResultsArtifact | undefined;
  const writeNow = (artifact: ResultsArtifact): string => {
    const path = output!.path;
    const runs = artifact.runs.map((run, i) => ({ ...run, cases: log.cases(i) }));
    writeAtomicallySync(path, (fd) => {
      for (const chunk of serializeArtifactChunks({ ...artifact, runs })) writeSync(fd, chunk);
    });
    return output!.shown;
  };
  const unguard = guardProcess({
    control,
    stderr,
    casesFinished: () => finished !== undefined && !finished.interrupted,
    finishedExitCode: () =>
      finished === undefined || finished.interrupted ? undefined : options.verdictCode(finished),
    writePartial: ({ result }) =>
      output === undefined ? undefined : writeNow(options.artifactOf(result.runs, true)),
    writeEnded: () =>
      output === undefined || unwritten === undefined ? undefined : writeNow(unwritten),
  });
  const signals = watchSignals({
    stderr,
    graceful: true,
    stopping:
      'no new cases start; runTestSuite returns the cases that finished, marked interrupted, and writes them to its output if it has one (press Ctrl-C again to quit now)',
    writing:
      'every case has finished; runTestSuite writes its results (press Ctrl-C again to quit now; they are written first)',
  });
  // The engine stops at whichever comes first: the caller's signal or the process's.
  const both = new AbortController();
  const stopBoth = (): void => both.abort();
  for (const signal of [options.signal, signals.signal]) {
    if (signal?.aborted) both.abort();
    else signal?.addEventListener('abort', stopBoth, { once: true });
  }
  return {
    signal: both.signal,
    control,
    ended: (artifact) => {
      unwritten = finished = artifact;
    },
    written: {
      onRunEnd: () => {
        unwritten = undefined;
      },
    },
    bySignal: () => signals.signal.aborted,
    stop: () => {
      if (stopped) return;
      stopped = true;
      running--;
      unguard();
      signals.stop();
      if (signals.signal.aborted) quitWhileAbandoned(options.calls);
      options.signal?.removeEventListener('abort', stopBoth);
      signals.signal.removeEventListener('abort', stopBoth);
    },
  };
}
