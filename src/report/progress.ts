/**
 * Live progress while `evals run` works: counts, pass/fail so far and an ETA. On a terminal one
 * line is redrawn in place; elsewhere (CI logs) a plain line is written every few seconds, folded
 * into a `::group::` under GitHub Actions (one group shared by concurrent runs, see
 * `createProgressGroup`). Output goes through the injected `write`, time through the injected
 * `now`, so this module touches no stream and tests need no real clock.
 */
import type { Reporter } from './reporter.ts';
import { formatCount } from './labels.ts';
import { printable, truncateToWidth } from '../shared/text-table.ts';

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
  /**
   * Names the run on every line (`runTestSuite` passes its suite id), so that several runs
   * reporting at once can be told apart. Absent: the lines are as `evals run` prints them.
   */
  label?: string;
  /**
   * On a terminal, the live line several reporters share (see `createProgressBoard`); absent:
   * this reporter redraws its own line through `write`.
   */
  board?: ProgressBoard;
  /**
   * The terminal's width, when known: a line this reporter redraws itself is cut to it, as the
   * board cuts its own, so that it never wraps (a wrapped line cannot be redrawn).
   */
  width?: number;
  /**
   * Under GitHub Actions in a log, the group several reporters share (see `createProgressGroup`);
   * absent: this reporter opens and closes its own group through `write`.
   */
  group?: ProgressGroup;
}

/**
 * One live line on a terminal shared by the progress of several runs at once (concurrent
 * `runTestSuite` calls): each run is a lane; one lane shows its whole status line, several show
 * a brief status each, named, on one line cut to the terminal's width. Other output to the
 * terminal goes through `print`, which clears the line first and redraws it after.
 */
export interface ProgressBoard {
  /** Shows a lane's status (`null` removes the lane). */
  show(lane: object, status: LaneStatus | null): void;
  /** Runs `write` (other output to the terminal) with the live line cleared, then redraws it. */
  print(write: () => void): void;
}

/** A lane's status: the whole line, and the brief form shown when several lanes share the line. */
export interface LaneStatus {
  full: string;
  brief: string;
}

/**
 * Creates a board drawing through `write`; `width` is read at each redraw (the terminal may be
 * resized), and the line is cut to it so that it never wraps (a wrapped line cannot be redrawn).
 */
export function createProgressBoard(
  write: (text: string) => void,
  width: () => number | undefined,
): ProgressBoard {
  const lanes = new Map<object, LaneStatus>();
  let drawn = false;
  const emit = silentOnFailure(write);
  const line = (): string => {
    const statuses = [...lanes.values()];
    const text =
      statuses.length === 1
        ? (statuses[0]?.full ?? '')
        : `  ${statuses.map((status) => status.brief).join('  ·  ')}`;
    return fitted(text, width());
  };
  const redraw = (): void => {
    if (lanes.size === 0) {
      if (drawn) emit(CLEAR_LINE);
      drawn = false;
      return;
    }
    drawn = true;
    emit(CLEAR_LINE + line());
  };
  return {
    show(lane, status) {
      if (status === null) lanes.delete(lane);
      else lanes.set(lane, status);
      redraw();
    },
    print(writeOut) {
      if (drawn) emit(CLEAR_LINE);
      drawn = false;
      writeOut();
      if (lanes.size > 0) redraw();
    },
  };
}

/**
 * One GitHub Actions log group shared by the periodic lines of several runs at once (concurrent
 * `runTestSuite` calls): GitHub does not nest groups, so runs opening their own would close each
 * other's. Each line names its run (its label); the group opens at the first periodic line of
 * any run and closes when the last run in flight stops, or earlier when other output is written
 * (`print`): a run's `done` line, a summary or a note is never folded into the group, and the
 * next periodic line opens it again. Every `::group::` is closed before the next one opens.
 */
export interface ProgressGroup {
  /**
   * A run starts: `title` is its group's title (`evals progress: LABEL`), used as long as no
   * other run has been in flight beside it, so that one run alone prints as it would without a
   * shared group; runs that overlap share `evals progress`.
   */
  join(lane: object, title: string): void;
  /** Writes `line` (one periodic line, with its newline) inside the group, opening it first. */
  line(lane: object, line: string): void;
  /** Runs `write` (other output to the log) with the group closed. */
  print(write: () => void): void;
  /** A run stops; the group closes when none is left in flight. */
  leave(lane: object): void;
}

/** The title of a group shared by several runs. */
const SHARED_GROUP_TITLE = 'evals progress';

/** Creates a group writing its `::group::` and `::endgroup::` markers and lines through `write`. */
export function createProgressGroup(write: (text: string) => void): ProgressGroup {
  // The runs in flight: each one's own title, and whether it has been alone since it started.
  const runs = new Map<object, { title: string; alone: boolean }>();
  // The open group's title; `undefined` when none is open.
  let open: string | undefined;
  const emit = silentOnFailure(write);
  const close = (): void => {
    if (open !== undefined) emit('::endgroup::\n');
    open = undefined;
  };
  return {
    join(lane, title) {
      for (const run of runs.values()) run.alone = false;
      runs.set(lane, { title, alone: runs.size === 0 });
    },
    line(lane, line) {
      const run = runs.get(lane);
      const title = run?.alone === true ? run.title : SHARED_GROUP_TITLE;
      // A group titled for one run alone must not hold another's lines, nor its shared ones.
      if (open !== title) {
        close();
        open = title;
        emit(`::group::${title}\n`);
      }
      emit(line);
    },
    print(writeOut) {
      close();
      writeOut();
    },
    leave(lane) {
      runs.delete(lane);
      if (runs.size === 0) close();
    },
  };
}

/** The progress reporter, which also knows how to clean up after itself. */
export type ProgressReporter = Reporter & {
  /**
   * Clears the live line (TTY) or writes the final `done` line (log), and stops the timer; at
   * the run's end, or when it stops with an error. Idempotent.
   */
  stop(): void;
};

/** `line` cut to leave a terminal of `columns` one column spare (a full line may wrap). */
function fitted(line: string, columns: number | undefined): string {
  return columns !== undefined && columns > 1 ? truncateToWidth(line, columns - 1) : line;
}

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
  const { write, isTTY, now, board } = options;
  const name = options.label === undefined ? '' : printable(options.label);
  const label = name === '' ? '' : `${name}  `;
  const groupTitle = `evals progress${options.label === undefined ? '' : `: ${name}`}`;
  // A shared group (several runs in one log) replaces the run's own group.
  const group = !isTTY && options.githubActions === true ? options.group : undefined;
  const lane = {};
  const intervalMs = Math.max(1, options.intervalMs ?? DEFAULT_INTERVAL_MS);

  let started = false;
  let stopped = false;
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

  const emit = silentOnFailure(write);

  const statusLine = (at: number): string => {
    const counts = `${formatCount(done)}/${formatCount(total)}`;
    return `  ${label}${counts}  ✓ ${formatCount(passed)} passed  ✗ ${formatCount(failed)} failed  ! ${formatCount(errored)} errored  ETA ${eta(at)}`;
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
    if (board === undefined) emit(CLEAR_LINE + fitted(statusLine(at), options.width));
    else board.show(lane, { full: statusLine(at), brief: briefLine(at) });
  };

  /** `suite-a 3/10 ✓3 ✗0 !0 ETA 4s`: a run's status beside others on one shared line. */
  const briefLine = (at: number): string =>
    `${name === '' ? '' : `${name} `}${formatCount(done)}/${formatCount(total)} ✓${formatCount(passed)} ✗${formatCount(failed)} !${formatCount(errored)} ETA ${eta(at)}`;

  const periodic = (at: number): void => {
    lastLineAt = at;
    if (group !== undefined) {
      group.line(lane, `${statusLine(at)}\n`);
      return;
    }
    if (options.githubActions && !groupOpen) {
      groupOpen = true;
      emit(`::group::${groupTitle}\n`);
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
        group?.join(lane, groupTitle);
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
        if (board !== undefined) board.show(lane, null);
        else if (drawn) emit(CLEAR_LINE);
        return;
      }
      if (groupOpen) emit('::endgroup::\n');
      const last = `done ${label}${formatCount(done)}/${formatCount(total)} in ${formatDuration(now() - startedAt, true)}\n`;
      if (group === undefined) {
        emit(last);
        return;
      }
      // The done line is written at once, outside any group (the shared one is closed first).
      group.leave(lane);
      group.print(() => emit(last));
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

/**
 * `write`, turned silent from its first failure on: a reporter must never break a run, so a
 * closed pipe stops the progress instead of throwing.
 */
function silentOnFailure(write: (text: string) => void): (text: string) => void {
  let broken = false;
  return (text) => {
    if (broken) return;
    try {
      write(text);
    } catch {
      broken = true;
    }
  };
}
