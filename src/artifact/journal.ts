/**
 * The recovery journal of a run: what `evals run --resume` needs to finish a run whose process
 * was given no chance to write its partial artifact (SIGKILL, the kernel's out-of-memory killer,
 * `process.abort()`, V8 out of heap). It sits next to the artifact (`.NAME.journal` beside `-o`
 * NAME) and holds, one per line:
 *
 * - a header: `{"evalgateJournal":2,"pid":…,"host":…,"startedAt":…,"output":…}`, written as the
 *   journal is created, so a second run writing the same `-o` sees a live process;
 * - `F {"at":ms,"artifact":FRAME}`: the partial artifact's frame (every run's `cases` empty,
 *   as the exit guard would write it), once, before the first case line;
 * - `R RUN`: the case lines that follow, up to the next `R` line, are run RUN's;
 * - each finished case's artifact line (indented JSON and a comma): the very bytes the case
 *   spool writes (spool.ts), scrubbed the same way. Version 1 journals had `RUN JSON` lines
 *   instead; the reader takes both.
 *
 * Case lines reach the journal as the spool's batches: the spool encodes each line once and
 * hands the journal the same bytes it writes to its own file, so journaling costs one more
 * write per 64 KB, not a second encoding of every case. A batch goes out when it is full, or at
 * most {@link FLUSH_MS} after a case finished (the journal then asks the spool for what it
 * holds), so a slow case reaches the file soon after it finishes even when nothing follows it.
 *
 * Lines are written with plain synchronous writes and no fsync: what a write put in the page
 * cache survives the process being killed (only a power cut or a kernel crash loses it, which
 * the journal does not try to survive). A kill in the middle of a write leaves a torn last line,
 * which the reader drops.
 */
import { closeSync, futimesSync, openSync, rmSync } from 'node:fs';
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
 * left by one that is gone (journal-read.ts `STALE_MS`) when the pid cannot tell: a pid reused,
 * or a journal written from another host (a container killed with the folder mounted).
 */
export const HEARTBEAT_MS = 10_000;

/** The journal's first line. */
export interface JournalHeader {
  /** The format: 2 (case lines after `R` lines); 1 (`RUN JSON` lines) is still read. */
  evalgateJournal: 1 | 2;
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

/** What a case spool hands its journal (see the module's comment). */
export interface JournalSink {
  /** `lines`: case lines of run `run`, as the spool writes them; used before the call returns. */
  add(run: number, lines: Uint8Array): void;
  /** A case was recorded: its line reaches the journal within {@link FLUSH_MS}. */
  caseAdded(): void;
  /** `drain` hands over (through `add`) every line the spool still holds. */
  drainFrom(drain: () => void): void;
}

/**
 * Writes a run's journal. `frame` gives the partial artifact's frame as it stands (undefined
 * while it cannot be built yet: the case lines then wait). Never throws once created: a write
 * that fails is said once through `warn` and the journal stops (the run goes on).
 */
export class JournalWriter implements JournalSink {
  readonly path: string;
  readonly #frame: () => ResultsArtifact | undefined;
  readonly #warn: (message: string) => void;
  #fd: number | null;
  #framed = false;
  /** Lines waiting for the frame, copied (a spool's batch is reused once `add` returns). */
  #waiting: Buffer[] = [];
  #drain: (() => void) | null = null;
  #timer: NodeJS.Timeout | null = null;
  #heartbeat: NodeJS.Timeout | null = null;
  readonly #onExit = (): void => this.flush();

  /** Creates the journal at `path` (which must not exist: `wx`); throws when it cannot. */
  constructor(
    path: string,
    header: Omit<JournalHeader, 'evalgateJournal' | 'pid' | 'host'>,
    frame: () => ResultsArtifact | undefined,
    warn: (message: string) => void,
  ) {
    this.path = path;
    this.#frame = frame;
    this.#warn = warn;
    this.#fd = openSync(path, 'wx');
    const full: JournalHeader = {
      evalgateJournal: 2,
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

  caseAdded(): void {
    if (this.#fd === null || this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.flush();
    }, FLUSH_MS);
    // A journal never keeps the process alive.
    this.#timer.unref();
  }

  add(run: number, lines: Uint8Array): void {
    if (this.#fd === null || lines.length === 0) return;
    const tag = Buffer.from(`R ${run}\n`);
    if (this.#frameNow()) {
      this.#write(tag);
      this.#write(lines);
    } else {
      this.#waiting.push(tag, Buffer.from(lines));
    }
  }

  /** Writes every line the spool holds (after the frame, once it can be built). */
  flush(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#fd === null) return;
    this.#drain?.();
    if (this.#waiting.length > 0) this.#frameNow();
  }

  /**
   * Writes the frame, and the lines that waited for it, unless it is written already; false
   * while it cannot be built yet (cases recorded before the run can describe itself, as a
   * resumption's kept cases: they wait, and the frame is asked for again later).
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
    // Before any line given later: a kill never leaves later cases journaled and earlier ones not.
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const part of waiting) this.#write(part);
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

  /** Writes what waits and closes the file, keeping it (the run ended without its results). */
  close(): void {
    this.flush();
    this.#stop();
  }

  /** Removes the journal: the run's results (whole or partial) are written. Idempotent. */
  discard(): void {
    this.#waiting = [];
    this.#stop();
    rmSync(this.path, { force: true });
  }

  /** Marks the journal as written by a live process (see {@link HEARTBEAT_MS}). */
  #touch(): void {
    if (this.#fd === null) return;
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
