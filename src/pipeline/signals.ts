/**
 * SIGINT, SIGTERM and SIGHUP while a run works, one wiring for `evals run` and `runTestSuite`:
 * the first signal stops the run gracefully (no new case starts, what finished is kept and
 * written as the partial artifact), a second one quits at once with exit code 130, the run's exit
 * guard (exit-guard.ts) still writing what finished. Runs of one process (`runTestSuite` calls under
 * `Promise.all`) share the signals: one Ctrl-C stops them all with one message, and one more
 * quits.
 */
import { announceExit, guarding, writingResults } from './exit-guard.ts';

/** The exit code of a run a signal cut short (docs/cli.md). */
export const EXIT_INTERRUPTED = 130;

/**
 * The signals that stop a run. SIGHUP is a closed terminal or a dropped ssh session: Node's
 * default would end the process at once, losing every finished case, so it stops the run as
 * Ctrl-C does.
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface SignalWatchOptions {
  stderr: { write(text: string): unknown };
  /**
   * False for a command with nothing to keep: the first signal ends the process (`interrupted`,
   * exit 130) instead of stopping a run.
   */
  graceful: boolean;
  /** What the first signal says while cases are left (the line after `stopping: `). */
  stopping: string;
  /** What it says once every case has finished and only the results are being written. */
  writing: string;
  /**
   * The modules whose import is under way, if any: a signal then comes before any case has
   * started, and the run stops only once they have loaded, which one whose top-level await never
   * settles never does. The message says what it waits on, and that quitting loses nothing.
   */
  loading?(): readonly string[];
  /** Called just before the watch ends the process itself, so no exit watch blames user code. */
  exiting?(): void;
}

/** A run's hold on the process's signals, from {@link watchSignals}. */
export interface SignalWatch {
  /** Aborted at the first signal (at once when one came before the watch began). */
  readonly signal: AbortSignal;
  /** A signal caught before the watch began (the launcher holds them), handled as if now. */
  deliver(): void;
  /** Lets go of the signals: once no watch is left, Node's own handling is back. */
  stop(): void;
}

interface Watch {
  options: SignalWatchOptions;
  controller: AbortController;
}

/** Every watch now, in the order they began. */
const watches = new Set<Watch>();
/** Signals caught since the first watch of the current ones began. */
let caught = 0;

function onSignal(): void {
  caught += 1;
  const all = [...watches];
  const first = all[0];
  if (first === undefined) return;
  if (caught === 1 && all.every((watch) => watch.options.graceful)) {
    // After the last case there is nothing to stop: the results are whole and being written.
    const loading = first.options.loading?.() ?? [];
    const stopping =
      loading.length > 0
        ? `no case has started yet; waiting for ${loading.join(', ')} to finish loading (press Ctrl-C again to quit now: nothing has run, so nothing is lost)`
        : writingResults()
          ? first.options.writing
          : first.options.stopping;
    first.options.stderr.write(`\nstopping: ${stopping}\n`);
    for (const watch of all) watch.controller.abort();
    return;
  }
  if (all.some((watch) => !watch.options.graceful)) {
    first.options.stderr.write('\ninterrupted\n');
  } else if (guarding()) {
    announceExit('quit at the second signal');
  } else {
    // No run has begun (modules still loading): its guard, which says what it wrote, is not on.
    first.options.stderr.write('\ninterrupted before any case started; nothing was written\n');
  }
  for (const watch of all) watch.options.exiting?.();
  process.exit(EXIT_INTERRUPTED);
}

/**
 * Handles the {@link STOP_SIGNALS} for a run until `stop()`: see the module's comment. A watch that
 * begins while others are stopping starts stopped: the process was asked to stop.
 */
export function watchSignals(options: SignalWatchOptions): SignalWatch {
  const watch: Watch = { options, controller: new AbortController() };
  if (watches.size === 0) {
    caught = 0;
    for (const name of STOP_SIGNALS) process.on(name, onSignal);
  } else if (caught > 0) watch.controller.abort();
  watches.add(watch);
  return {
    signal: watch.controller.signal,
    deliver: onSignal,
    stop: () => {
      if (!watches.delete(watch) || watches.size > 0) return;
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
    },
  };
}
