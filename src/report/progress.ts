/**
 * Live progress while `evals run` works: counts, pass/fail so far and an ETA. On a terminal one
 * line is redrawn in place; elsewhere (CI logs) a plain line is written every few seconds, folded
 * into a `::group::` under GitHub Actions. Output goes through the injected `write`, time through
 * the injected `now`, so this module touches no stream and tests need no real clock.
 */
import type { Reporter } from './reporter.ts';
import { formatCount } from './labels.ts';

/** What the progress reporter writes to and reads time from. */
export interface ProgressOptions {
  /** Receives text exactly as it should appear (including `\r`, escapes and newlines). */
  write: (text: string) => void;
  /** Redraw one line in place (terminal) or write periodic plain lines (log). */
  isTTY: boolean;
  /** Monotonic milliseconds, e.g. `performance.now`. */
  now: () => number;
  /** Period of the plain lines when not a TTY. Defaults to 5000. */
  intervalMs?: number;
  /** Wrap the periodic lines in `::group::evals progress` / `::endgroup::`. */
  githubActions?: boolean;
}

/** The progress reporter, which also knows how to clean up after itself. */
export type ProgressReporter = Reporter & {
  /**
   * Clears the live line (TTY) or writes the final `done` line (log), and stops the timer; at
   * the run's end, or when it stops with an error. Idempotent.
   */
  stop(): void;
};

/** Minimum time between two redraws of the live line: fast enough to look live, cheap at 10k cases. */
export const TTY_REDRAW_MS = 100;
const DEFAULT_INTERVAL_MS = 5000;
const CLEAR_LINE = '\r\x1b[2K';

/**
 * Creates the reporter. Per case it only bumps counters and reads the clock; text is rendered at
 * most every `TTY_REDRAW_MS` (TTY) or `intervalMs` (log).
 *
 * In log mode a periodic line is due once `intervalMs` has passed since the last one (or since
 * the start); it is written by the next finished case or by an unref'd timer, whichever comes
 * first — the timer covers slow cases, the event check covers an event loop too busy for timers.
 * A run shorter than the interval prints only the final line.
 */
export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  const { write, isTTY, now } = options;
  const intervalMs = Math.max(1, options.intervalMs ?? DEFAULT_INTERVAL_MS);

  let started = false;
  let stopped = false;
  let broken = false;
  let total = 0;
  let done = 0;
  let passed = 0;
  let failed = 0;
  let errored = 0;
  let startedAt = 0;
  let lastLineAt = 0;
  let drawn = false;
  let groupOpen = false;
  let timer: ReturnType<typeof setInterval> | undefined;

  // A reporter must never break a run: a closed pipe turns it silent instead of throwing.
  const emit = (text: string): void => {
    if (broken) return;
    try {
      write(text);
    } catch {
      broken = true;
    }
  };

  const statusLine = (at: number): string => {
    const counts = `${formatCount(done)}/${formatCount(total)}`;
    return `  ${counts}  ✓ ${formatCount(passed)} passed  ✗ ${formatCount(failed)} failed  ! ${formatCount(errored)} errored  ETA ${eta(at)}`;
  };

  const eta = (at: number): string => {
    if (done >= total) return '0s';
    if (done === 0) return '—';
    const remaining = ((at - startedAt) / done) * (total - done);
    return formatDuration(remaining, false);
  };

  const draw = (at: number): void => {
    lastLineAt = at;
    drawn = true;
    emit(CLEAR_LINE + statusLine(at));
  };

  const periodic = (at: number): void => {
    lastLineAt = at;
    if (options.githubActions && !groupOpen) {
      groupOpen = true;
      emit('::group::evals progress\n');
    }
    emit(`${statusLine(at)}\n`);
  };

  const stopTimer = (): void => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };

  const onTimer = (): void => {
    if (!started || stopped || done >= total) return;
    const at = now();
    // Timers fire a little early or late against `now`; a line due within 10% is due.
    if (at - lastLineAt >= intervalMs * 0.9) periodic(at);
  };

  return {
    onRunStart(info) {
      started = true;
      total = info.total;
      done = passed = failed = errored = 0;
      startedAt = lastLineAt = now();
      if (isTTY) {
        draw(startedAt);
      } else if (!stopped && total > 0) {
        stopTimer();
        timer = setInterval(onTimer, intervalMs);
        // Progress must never keep the process alive after the run ends.
        (timer as { unref?: () => void }).unref?.();
      }
    },

    onCaseDone({ result, replayed }) {
      // Cases an earlier run finished (a resumption) are not part of this run's progress.
      if (replayed) return;
      done++;
      if (result.error !== null) errored++;
      else if (result.passed) passed++;
      else failed++;
      if (stopped) return;
      const at = now();
      if (isTTY) {
        if (at - lastLineAt >= TTY_REDRAW_MS || done === total) draw(at);
      } else if (done >= total) {
        stopTimer();
      } else if (at - lastLineAt >= intervalMs) {
        periodic(at);
      }
    },

    onRunEnd() {
      this.stop();
    },

    close() {
      this.stop();
    },

    stop() {
      if (stopped) return;
      stopped = true;
      stopTimer();
      if (!started) return;
      if (isTTY) {
        if (drawn) emit(CLEAR_LINE);
        return;
      }
      if (groupOpen) emit('::endgroup::\n');
      emit(
        `done ${formatCount(done)}/${formatCount(total)} in ${formatDuration(now() - startedAt, true)}\n`,
      );
    },
  };
}

/**
 * `1.2s` (precise, under 10 s), `12s`, `4m05s`, `1h02m`. ETAs round up so the last seconds read
 * `1s`, not `0s`.
 */
export function formatDuration(ms: number, precise: boolean): string {
  if (precise && ms < 10_000) return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
  const totalSeconds = precise ? Math.round(ms / 1000) : Math.ceil(ms / 1000);
  if (totalSeconds < 60) return `${totalSeconds}s`;
  const minutes = Math.floor(totalSeconds / 60);
  if (minutes < 60) return `${minutes}m${String(totalSeconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
