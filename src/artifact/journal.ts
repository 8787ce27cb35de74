/**
 * The recovery journal of a run: what `evals run --resume` needs to finish a run whose process
 * was given no chance to write its partial artifact (SIGKILL, the kernel's out-of-memory killer,
 * `process.abort()`, V8 out of heap). It sits next to the artifact (`.NAME.journal` beside `-o`
 * NAME) and holds, one per line:
 *
 * - a header: `{"evalgateJournal":1,"pid":…,"host":…,"startedAt":…,"output":…}`, written as the
 *   journal is created, so a second run writing the same `-o` sees a live process;
 * - `F {"at":ms,"artifact":FRAME}`: the partial artifact's frame (every run's `cases` empty,
 *   as the exit guard would write it), once, before the first case line;
 * - `RUN JSON`: each finished case's artifact line (the spool's text: scrubbed the same way),
 *   run index first.
 *
 * Lines are written with plain synchronous writes and no fsync: what a write put in the page
 * cache survives the process being killed (only a power cut or a kernel crash loses it, which
 * the journal does not try to survive). A kill in the middle of a write leaves a torn last line,
 * which the reader drops. Cases are gathered and written in batches (64 KB, as the spool) or
 * after at most {@link FLUSH_MS}, so a fast run writes a few times a second and a slow case
 * reaches the file soon after it finishes even when nothing finishes after it.
 */
import { closeSync, futimesSync, openSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
// Node's own, not the global ones: user code may replace those (fake timers) mid-run.
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import type { ResultsArtifact } from '../types/index.ts';
import { writeAll } from './fd-io.ts';

/** Journal bytes gathered before a write. */
const JOURNAL_BATCH = 1 << 16;
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
  evalgateJournal: 1;
  pid: number;
  host: string;
  /** When the run began (ISO). */
  startedAt: string;
  /** The artifact the run writes, absolute. */
  output: string;
  /** The baseline the run compares with, when it has one (named again by the recovery). */
  baseline?: string;
}

/**
 * Writes a run's journal. `frame` gives the partial artifact's frame as it stands (undefined
 * while it cannot be built yet: the case lines then wait). Never throws once created: a write
 * that fails is said once through `warn` and the journal stops (the run goes on).
 */
export class JournalWriter {
  readonly path: string;
  readonly #frame: () => ResultsArtifact | undefined;
  readonly #warn: (message: string) => void;
  #fd: number | null;
  #framed = false;
  #parts: string[] = [];
  #bytes = 0;
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
      evalgateJournal: 1,
      pid: process.pid,
      host: hostname(),
      ...header,
    };
    this.#write(`${JSON.stringify(full)}\n`);
    // An exit this process still runs code at (process.exit, an uncaught error) writes what waits.
    process.on('exit', this.#onExit);
    this.#heartbeat = setInterval(() => this.#touch(), HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /** A finished case's line (`json`: its artifact text) of run `run`. */
  add(run: number, json: string): void {
    if (this.#fd === null) return;
    const line = `${run} ${json}\n`;
    this.#parts.push(line);
    // UTF-16 units: close enough to bytes for batching.
    this.#bytes += line.length;
    if (this.#bytes >= JOURNAL_BATCH) this.flush();
    else if (this.#timer === null) {
      this.#timer = setTimeout(() => {
        this.#timer = null;
        this.flush();
      }, FLUSH_MS);
      // A journal never keeps the process alive.
      this.#timer.unref();
    }
  }

  /** Writes what waits (after the frame, once it can be built). */
  flush(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    if (this.#fd === null || this.#parts.length === 0) return;
    if (!this.#framed) {
      let frame: ResultsArtifact | undefined;
      try {
        frame = this.#frame();
      } catch (error) {
        // Called from a timer, where a throw would end the process: the journal stops instead.
        this.#warn(
          `the recovery journal ${this.path} could not describe the run (${error instanceof Error ? error.message : String(error)}); the run goes on, but a kill -9 would lose its finished cases`,
        );
        this.#stop();
        return;
      }
      if (frame === undefined) {
        // Cases recorded before the run can describe itself (a resumption's kept cases): later.
        this.#timer = setTimeout(() => this.flush(), FLUSH_MS);
        this.#timer.unref();
        return;
      }
      this.#parts.unshift(`F ${JSON.stringify({ at: Date.now(), artifact: frame })}\n`);
      this.#framed = true;
    }
    const text = this.#parts.join('');
    this.#parts = [];
    this.#bytes = 0;
    this.#write(text);
  }

  #write(text: string): void {
    if (this.#fd === null) return;
    try {
      writeAll(this.#fd, Buffer.from(text));
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
    this.#parts = [];
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
