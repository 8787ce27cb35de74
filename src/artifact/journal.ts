/**
 * The recovery journal of a run: what `evals run --resume` needs to finish a run whose process
 * was given no chance to write its partial artifact (SIGKILL, the kernel's out-of-memory killer,
 * `process.abort()`, V8 out of heap). It sits next to the artifact (`.NAME.journal` beside `-o`
 * NAME), with a folder of its own beside it (`.NAME.journal.PID.d`, {@link casesDirOf}), and
 * holds, one per line:
 *
 * - a header: `{"evalgateJournal":3,"pid":…,"host":…,"startedAt":…,"output":…}`, written as the
 *   journal is created, so a second run writing the same `-o` sees a live process;
 * - `F {"at":ms,"artifact":FRAME}`: the partial artifact's frame (every run's `cases` empty,
 *   as the exit guard would write it), once, as soon as the run can describe itself.
 *
 * The finished cases are not copied into it: the run's case spool (spool.ts) keeps its files in
 * the journal's folder instead of the system's temporary folder (`run-N.jsonl`: run N's case
 * lines, the artifact's own bytes, scrubbed, in the order they finished), so each line is
 * encoded and written once, and a killed run leaves nothing in the temporary folder. The journal
 * asks the spool to write what it holds at most {@link FLUSH_MS} after a case finished, so a
 * slow case reaches the disk soon after it finishes even when nothing follows it.
 *
 * Version 2 journals held the case lines themselves (after `R RUN` lines), version 1 journals
 * `RUN JSON` lines; the reader takes both.
 *
 * Lines are written with plain synchronous writes and no fsync: what a write put in the page
 * cache survives the process being killed (only a power cut or a kernel crash loses it, which
 * the journal does not try to survive). A kill in the middle of a write leaves a torn last line,
 * which the reader drops.
 */
import { closeSync, fstatSync, futimesSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
// Node's own, not the global ones: user code may replace those (fake timers) mid-run.
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import type { ResultsArtifact } from '../types/index.ts';
import type { BaselineIdentity } from './merge-baseline.ts';
import { writeAll } from './fd-io.ts';

/** The longest a finished case waits in memory before it is written. */
export const FLUSH_MS = 200;
/**
 * How often the writer touches its journal, so a reader can tell a live writer from a journal
 * left by one that is gone ({@link STALE_MS}) when the pid cannot tell: a pid reused,
 * or a journal written from another host (a container killed with the folder mounted).
 */
export const HEARTBEAT_MS = 10_000;
/**
 * How long a journal may go untouched while its writer lives: the writer touches it every
 * {@link HEARTBEAT_MS}, also while no case finishes, so one quiet for this long has no writer,
 * whatever its pid or host say (a pid reused since, a container that is gone).
 */
export const STALE_MS = 60_000;

/** The journal's first line. */
/** The journal format this evalgate writes; it reads this one and the earlier ones. */
export const JOURNAL_FORMAT = 3;

export interface JournalHeader {
  /**
   * The format: 3 (case lines in the journal's folder); 2 (case lines after `R` lines) and 1
   * (`RUN JSON` lines) are still read.
   */
  evalgateJournal: 1 | 2 | 3;
  pid: number;
  host: string;
  /** When the run began (ISO). */
  startedAt: string;
  /** The artifact the run writes, absolute. */
  output: string;
  /** The baseline the run compares with (as `--baseline` named it), when it has one. */
  baseline?: string;
  /** Which run that baseline held: the recovered run is compared with it again, if it still does. */
  baselineRun?: BaselineIdentity;
  /** The partial artifact the run resumes (absolute), when it resumes one into another file. */
  resumedFrom?: string;
}

/**
 * The folder of the journal at `path` written by process `pid`, where that run's case spool keeps
 * its files. Named by the process, so a run that takes over a journal left stale by one still
 * alive (stopped for over a minute) never shares case files with it.
 */
export function casesDirOf(path: string, pid: number): string {
  return `${path}.${pid}.d`;
}

/**
 * Removes the journal at `path`, written by process `pid`, and its folder; the journal first, as
 * what marks a run.
 */
export function removeJournal(path: string, pid: number): void {
  rmSync(path, { force: true });
  rmSync(casesDirOf(path, pid), { recursive: true, force: true });
}

/** What a case spool and its journal share (see the module's comment). */
export interface JournalSink {
  /** Where the spool keeps its files: the journal's folder, which the journal removes. */
  readonly casesDir: string;
  /** A case was recorded: its line reaches the spool's file within {@link FLUSH_MS}. */
  caseAdded(): void;
  /** `drain` writes every line the spool still holds to its files. */
  drainFrom(drain: () => void): void;
  /**
   * `hold` keeps the spool's files open for reading (throwing when it cannot), so that the
   * journal may remove its folder while the reports still read them.
   */
  holdFrom(hold: () => void): void;
}

/**
 * Writes a run's journal. `frame` gives the partial artifact's frame as it stands (undefined
 * while it cannot be built yet: the case lines then wait). Never throws once created: a write
 * that fails is said once through `warn` and the journal stops (the run goes on).
 */
export class JournalWriter implements JournalSink {
  readonly path: string;
  readonly casesDir: string;
  readonly #frame: () => ResultsArtifact | undefined;
  readonly #warn: (message: string) => void;
  #fd: number | null;
  #framed = false;
  #drain: (() => void) | null = null;
  #hold: (() => void) | null = null;
  #timer: NodeJS.Timeout | null = null;
  #heartbeat: NodeJS.Timeout | null = null;
  /** The journal's file (device and inode), told apart from another run's at the same path. */
  readonly #file: string;
  readonly #onExit = (): void => this.flush();
  /** The artifact the run writes (the header's `output`), for messages. */
  readonly #output: string;
  /** Removed by this run ({@link release}, {@link discard}): not displaced. */
  #removed = false;

  /**
   * Creates the journal at `path` (which must not exist: `wx`) and its folder; throws when it
   * cannot.
   */
  constructor(
    path: string,
    header: Omit<JournalHeader, 'evalgateJournal' | 'pid' | 'host'>,
    frame: () => ResultsArtifact | undefined,
    warn: (message: string) => void,
  ) {
    this.path = path;
    this.casesDir = casesDirOf(path, process.pid);
    this.#frame = frame;
    this.#warn = warn;
    this.#output = header.output;
    this.#fd = openSync(path, 'wx');
    this.#file = fileId(fstatSync(this.#fd, { bigint: true }));
    try {
      // A folder left without its journal (a kill between removing the one and the other).
      rmSync(this.casesDir, { recursive: true, force: true });
      mkdirSync(this.casesDir);
    } catch (error) {
      closeSync(this.#fd);
      rmSync(path, { force: true });
      throw error;
    }
    const full: JournalHeader = {
      evalgateJournal: JOURNAL_FORMAT,
      pid: process.pid,
      host: hostname(),
      ...header,
    };
    this.#write(Buffer.from(`${JSON.stringify(full)}\n`));
    // An exit this process still runs code at (process.exit, an uncaught error) writes what waits.
    process.on('exit', this.#onExit);
    this.#heartbeat = setInterval(() => this.#touch(), HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  drainFrom(drain: () => void): void {
    this.#drain = drain;
  }

  holdFrom(hold: () => void): void {
    this.#hold = hold;
  }

  caseAdded(): void {
    if (this.#fd === null) return;
    // Framed first: case lines in the folder are only recovered with the frame.
    if (!this.#framed) this.#frameNow();
    if (this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.flush();
    }, FLUSH_MS);
    // A journal never keeps the process alive.
    this.#timer.unref();
  }

  /** Has the spool write every line it holds, and writes the frame once it can be built. */
  flush(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#fd === null) return;
    this.#frameNow();
    this.#drain?.();
  }

  /**
   * Writes the frame unless it is written already; false while it cannot be built yet (cases
   * recorded before the run can describe itself, as a resumption's kept cases: the frame is
   * asked for again later).
   */
  #frameNow(): boolean {
    if (this.#framed) return true;
    let frame: ResultsArtifact | undefined;
    try {
      frame = this.#frame();
    } catch (error) {
      // Called from a timer, where a throw would end the process: the journal stops instead.
      this.#warn(
        `the recovery journal ${this.path} could not describe the run (${error instanceof Error ? error.message : String(error)}); the run goes on, but a kill -9 would lose its finished cases`,
      );
      this.#stop();
      return false;
    }
    if (frame === undefined) {
      if (this.#timer === null && this.#fd !== null) {
        this.#timer = setTimeout(() => this.flush(), FLUSH_MS);
        this.#timer.unref();
      }
      return false;
    }
    this.#framed = true;
    this.#write(Buffer.from(`F ${JSON.stringify({ at: Date.now(), artifact: frame })}\n`));
    return true;
  }

  #write(bytes: Uint8Array): void {
    if (this.#fd === null) return;
    try {
      writeAll(this.#fd, bytes);
    } catch (error) {
      this.#warn(
        `the recovery journal ${this.path} could not be written (${error instanceof Error ? error.message : String(error)}); the run goes on, but a kill -9 from now on loses its finished cases`,
      );
      this.#stop();
    }
  }

  /**
   * Writes what waits and closes the file, keeping it and its folder (the run ended without its
   * results).
   */
  close(): void {
    this.flush();
    this.#stop();
  }

  /**
   * Removes the journal and its folder, with the spool's files: the run's results (whole or
   * partial) are written. Idempotent.
   */
  discard(): void {
    this.#stop();
    // Another run may have taken the path over (this process was stopped until its journal went
    // stale): that run's journal and folder hold its own finished cases, and are not this one's
    // to remove; this run's own folder is (named by its pid, no other run writes it). Once
    // released, the path is no longer this run's either: a run started since may have one there.
    if (!this.#removed && !this.displaced()) rmSync(this.path, { force: true });
    rmSync(this.casesDir, { recursive: true, force: true });
    this.#removed = true;
  }

  /**
   * Removes the journal once `-o` holds the run's whole results: a kill from then on leaves
   * nothing to recover, and a journal left beside a complete artifact could pass for newer than
   * it (see `journalWrittenAt`). The file goes first, then the folder, once the spool holds its
   * case files open: the reports after the artifact (JUnit, HTML) still read them, and a kill
   * while they are written (a FIFO nobody reads yet) leaves no folder beside `-o`. Where the
   * files cannot be held (or the folder removed while they are open), the folder stays until
   * {@link discard}, or a later run on `-o` sweeps it.
   */
  release(): void {
    if (this.#removed || this.displaced()) return;
    this.#stop();
    rmSync(this.path, { force: true });
    this.#removed = true;
    try {
      this.#hold?.();
      rmSync(this.casesDir, { recursive: true, force: true });
    } catch {
      // Left for discard (see above).
    }
  }

  /**
   * True when the journal's path no longer holds this run's journal while it has not removed it
   * itself: another run found it untouched for longer than a live writer leaves it (this process
   * stopped, as by Ctrl-Z, or its event loop blocked) and took it over, or removed it after it
   * finished. That run writes `-o` too: this one must not write its results over them.
   */
  displaced(): boolean {
    if (this.#removed) return false;
    try {
      return fileId(statSync(this.path, { bigint: true })) !== this.#file;
    } catch {
      return true;
    }
  }

  /** Marks the journal as written by a live process (see {@link HEARTBEAT_MS}). */
  #touch(): void {
    if (this.#fd === null) return;
    if (this.displaced()) {
      // Said as soon as this run goes on: where its results will go is decided when it ends.
      this.#warn(
        `this run's recovery journal ${this.path} was taken over by another run while this one was stopped or blocked for over ${STALE_MS / 1000} s; both now write ${this.#output}: this run will write its results beside it instead, under another name, and say which`,
      );
      if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
      this.#heartbeat = null;
      return;
    }
    try {
      const now = new Date();
      futimesSync(this.#fd, now, now);
    } catch {
      // A journal that cannot be touched is found stale later: kept aside, never lost.
    }
  }

  #stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
    process.off('exit', this.#onExit);
    if (this.#fd !== null) {
      try {
        closeSync(this.#fd);
      } catch {
        // Nothing more is written to it either way.
      }
    }
    this.#fd = null;
  }
}

/** Which file a stat describes, whatever its path. */
function fileId(stat: { dev: bigint; ino: bigint }): string {
  return `${stat.dev}:${stat.ino}`;
}
