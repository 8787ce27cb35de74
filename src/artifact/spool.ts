/**
 * The streaming artifact writer: finished cases go to disk as they finish, so a run never holds
 * its cases in memory just to write them at the end (200,000 cases are ~170 MB of JSON).
 *
 * The artifact puts each run's summary and gate before its cases, and those are only known once
 * the run is over, so the cases cannot go straight into the artifact. Each run spools its case
 * lines (compact JSON, the very text of the artifact line) to a file of its own in a temporary
 * folder (`spoolRoot`), in the order they finish, remembering where each line is (12 bytes a case).
 * `writeArtifact` then writes the artifact through a temporary file and a rename: the frame from
 * `artifactLayout`, and in each run's slot the spooled lines read back in testset order. Other
 * reports that go through every case (JUnit) read them back one by one with `cases`; `discard`
 * removes the spool once the reports are written.
 *
 * Why an offset table and not an in-memory reorder buffer: cases finish nearly in order (workers
 * pull them in order), but one slow case among fast ones would make a reorder buffer hold every
 * case finished after it. With offsets, memory stays fixed whatever the finishing order, and
 * reading back stays sequential in the usual case: a 1 MB window is read and lines are served
 * from it while they fall inside it.
 *
 * A run that keeps a recovery journal (journal.ts) spools into the journal's folder instead of
 * the temporary folder: its files are then what `--resume` recovers after a kill -9, and they
 * are the journal's to remove (with it, once the results are written), not the spool's.
 *
 * Spooling uses synchronous writes of 64 KB batches: the engine hands a case over synchronously,
 * a write into the page cache takes microseconds, and a synchronous write cannot queue up
 * unbounded buffers behind a slow disk the way an unawaited stream write would.
 */
import { closeSync, ftruncateSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAtomically, writeAtomicallySync } from '../shared/write-file-atomic.ts';
import type { CaseLog } from './case-log.ts';
import type { JournalSink } from './journal.ts';
import type { CaseResult, ResultsArtifact } from '../types/index.ts';
import {
  artifactLayout,
  CASE_LINE_EXTRA_BYTES,
  caseLine,
  caseOfLine,
  stringifyCase,
  writeCaseLine,
} from './artifact.ts';
import { BatchWriter } from './batch-writer.ts';
import { writeAll } from './fd-io.ts';
import {
  copyLines,
  newRunSpool,
  sortByKey,
  spooledLines,
  spoolFileName,
  type RunSpool,
} from './run-spool.ts';

/**
 * The folder a run's spool folder is made in: RUNNER_TEMP on a GitHub runner, which the runner
 * empties at the start and end of every job, even a self-hosted one; elsewhere the system's
 * temporary folder. A self-hosted runner never empties the latter, and a spool its run could not
 * remove (SIGKILL after a cancel's grace period, the out-of-memory killer) would stay there.
 */
export function spoolRoot(env: Readonly<Record<string, string | undefined>>): string {
  const runnerTemp = env['RUNNER_TEMP'];
  return runnerTemp !== undefined && runnerTemp !== '' ? runnerTemp : tmpdir();
}

/** Spool bytes gathered per run before a write. */
const SPOOL_BATCH = 1 << 16;

/**
 * A case log that spools finished cases to disk; `writeArtifact` writes the artifact from them
 * and `cases` reads them back. Not reusable: one run, then the reports, then `discard` (which
 * removes the spool files; idempotent).
 */
export class CaseSpool implements CaseLog {
  readonly #warn: ((message: string) => void) | undefined;
  /**
   * The run's recovery journal (journal.ts): the spool's files are in its folder, and it asks
   * for a batch not yet full to be written when a case has waited in it long enough.
   */
  readonly #journal: JournalSink | undefined;
  /** Where the spool's folder is made when there is no journal (see {@link spoolRoot}). */
  readonly #root: string;
  /** Said once: the temporary folder refused the spool, so cases are kept in memory now. */
  #spilled = false;
  #runs: RunSpool[] = [];
  #dir: string | null = null;
  /** No more cases can be recorded: the reports are being written, or the spool is gone. */
  #closed = false;
  #discarded = false;
  /**
   * Removes the spool if the process exits before `discard` (a second Ctrl-C exits at once; an
   * error between the run and the reports skips it): spools of a large run are hundreds of
   * megabytes, not to be left in the temporary folder.
   */
  readonly #onExit = (): void => this.discard();

  /**
   * `warn`: told, once, when the temporary folder refuses the spool (full, removed, read-only);
   * the cases from then on are kept in memory, so the run still writes its whole results.
   * `journal`: the run's recovery journal, in whose folder the spool keeps its files.
   * `root`: where the spool makes its folder without one ({@link spoolRoot}); the system's
   * temporary folder by default.
   */
  constructor(
    options: {
      warn?: (message: string) => void;
      journal?: JournalSink;
      root?: string;
    } = {},
  ) {
    this.#warn = options.warn;
    this.#journal = options.journal;
    this.#root = options.root ?? tmpdir();
    this.#journal?.drainFrom(() => this.#drain());
    this.#journal?.holdFrom(() => this.holdFiles());
  }

  open(runs: readonly { cases: number }[]): void {
    this.#runs = runs.map((run, index) => newRunSpool(index, run.cases));
  }

  record(run: number, index: number, result: CaseResult, json?: string): void {
    if (this.#closed) throw new Error('the case spool is already closed');
    const spool = this.#runs[run];
    if (spool === undefined || !(index >= 0 && index < spool.size)) {
      throw new RangeError(`no case ${index} in run ${run} of the spool`);
    }
    this.#add(spool, index, result, json);
    this.#journal?.caseAdded();
  }

  /**
   * A case whose place is given by a sort key instead of an index (`evals merge`: a testset
   * position, which may skip numbers). Run `run` then takes at most its `cases` records, and
   * they are read back and written in ascending key order (ties in arrival order).
   */
  recordKeyed(run: number, key: number, result: CaseResult): void {
    if (this.#closed) throw new Error('the case spool is already closed');
    const spool = this.#runs[run];
    if (spool === undefined || spool.recorded >= spool.size) {
      throw new RangeError(`no room for another case in run ${run} of the spool`);
    }
    if (spool.keys === null) {
      if (spool.recorded > 0) throw new Error('a run is recorded by index or by key, not both');
      spool.keys = new Float64Array(spool.size);
    }
    spool.keys[spool.recorded] = key;
    this.#add(spool, spool.recorded, result);
  }

  /** Spools `result` as case `index` of the run; the run's file closes once the run is complete. */
  #add(spool: RunSpool, index: number, result: CaseResult, json?: string): void {
    // Spooled as the artifact's line (indent, JSON, `,` and newline), so lines that are in
    // testset order in the file can be copied into the artifact in bulk.
    this.#append(spool, index, json ?? stringifyCase(result));
    spool.recorded++;
    // A complete run's file is closed now, so open files track the runs still going.
    if (spool.recorded === spool.size) this.#flush(spool, true);
  }

  /** Spools a case's line (`caseLine(json, false)`) and records where it is. */
  #append(spool: RunSpool, index: number, json: string): void {
    const batch = (spool.batch ??= Buffer.allocUnsafe(SPOOL_BATCH));
    let free = batch.length - spool.used;
    // Three bytes per UTF-16 unit is the most UTF-8 can take; count exactly only near the end.
    const bytes =
      json.length * 3 + CASE_LINE_EXTRA_BYTES <= free
        ? -1
        : Buffer.byteLength(json) + CASE_LINE_EXTRA_BYTES;
    if (bytes > free) {
      this.#flush(spool, false);
      free = batch.length;
      if (bytes > free) {
        // Larger than a batch: written on its own.
        spool.written += this.#store(spool, Buffer.from(caseLine(json, false)));
        spool.offsets[index] = spool.written - bytes;
        spool.lengths[index] = bytes;
        return;
      }
    }
    spool.offsets[index] = spool.written + spool.used;
    const written = writeCaseLine(batch, spool.used, json);
    spool.lengths[index] = written;
    spool.used += written;
  }

  #flush(spool: RunSpool, close: boolean): void {
    if (spool.batch !== null && spool.used > 0) {
      spool.written += this.#store(spool, spool.batch.subarray(0, spool.used));
      spool.used = 0;
    }
    if (close) {
      spool.batch = null;
      if (spool.fd !== null) closeSync(spool.fd);
      spool.fd = null;
    }
  }

  /** Writes every line still in a batch to the spool's files (for the journal). */
  #drain(): void {
    if (this.#closed) return;
    for (const spool of this.#runs) this.#flush(spool, false);
  }

  /**
   * Appends `bytes` to the run's spool: to its file, or, once that failed, to memory (a copy:
   * the batch is reused). Returns how many bytes it took (all of them).
   */
  #store(spool: RunSpool, bytes: Buffer): number {
    if (spool.memory === null) {
      try {
        return spoolWrite(this.#fileOf(spool), spool, bytes);
      } catch (error) {
        this.#spill(spool, error);
      }
    }
    spool.memory?.push(Buffer.from(bytes));
    return bytes.length;
  }

  /** The run's file failed: what it holds stays, the rest goes to memory, and the user is told. */
  #spill(spool: RunSpool, error: unknown): void {
    spool.memory = [];
    spool.fileBytes = spool.written;
    if (this.#spilled) return;
    this.#spilled = true;
    const cause = error instanceof Error ? error.message : String(error);
    if (this.#journal !== undefined) {
      this.#warn?.(
        `the case spool beside the recovery journal (${this.#journal.casesDir}) could not be written (${cause}); the run goes on with its finished cases kept in memory, for the artifact at its end, but a kill -9 from now on would lose those (free space on that disk)`,
      );
      return;
    }
    const folder = this.#dir ?? this.#root;
    const hint =
      this.#root === tmpdir()
        ? 'free space in the temporary folder, or point TMPDIR elsewhere'
        : 'free space there';
    this.#warn?.(
      `the case spool in ${folder} could not be written (${cause}); the run goes on with its finished cases kept in memory, for the artifact at its end (${hint})`,
    );
  }

  #fileOf(spool: RunSpool): number {
    if (spool.fd !== null) return spool.fd;
    if (this.#dir === null) {
      if (this.#journal !== undefined) this.#dir = this.#journal.casesDir;
      else {
        this.#dir = mkdtempSync(join(this.#root, 'evalgate-spool-'));
        process.once('exit', this.#onExit);
      }
    }
    // Opened once (a run's file is closed only when nothing more can be recorded in it), for
    // appending: every write lands at the end, where `written` says it does.
    spool.path ??= join(this.#dir, spoolFileName(spool.run));
    spool.fd = openSync(spool.path, 'a');
    return spool.fd;
  }

  /**
   * Writes `artifact` to `path` (through a temporary file and a rename; the parent folder is
   * created). Run i of the artifact takes its cases from the spool's run i, in testset order;
   * `artifact.runs[i].cases` is not read for a spooled run. A run the spool has no cases for is
   * written with whatever `cases` it holds. Records no more cases after it; keeps the spool.
   */
  async writeArtifact(path: string, artifact: ResultsArtifact): Promise<void> {
    if (this.#discarded) throw new Error('the case spool is already removed');
    this.#seal();
    await writeAtomically(path, (file) => {
      this.#writeArtifact(new BatchWriter(file), artifact);
    });
  }

  /**
   * {@link writeArtifact}, synchronously: for the partial artifact of a run the process is
   * exiting under (an `exit` listener cannot wait for anything).
   */
  writeArtifactSync(path: string, artifact: ResultsArtifact): void {
    if (this.#discarded) throw new Error('the case spool is already removed');
    this.#seal();
    writeAtomicallySync(path, (fd) => {
      this.#writeArtifact(new BatchWriter({ fd }), artifact);
    });
  }

  /** True when run `run` has spooled cases (then {@link cases} reads them). */
  spooled(run: number): boolean {
    return this.#spooledRun(run) !== undefined;
  }

  /** Run `run`'s spool, when it has spooled cases. */
  #spooledRun(run: number): RunSpool | undefined {
    const spool = this.#runs[run];
    return spool !== undefined && spool.recorded > 0 ? spool : undefined;
  }

  /**
   * Run `run`'s spooled cases parsed back, in testset order, one at a time (synchronously: for
   * reports written once the run is over). Records no more cases after it.
   */
  *cases(run: number): Generator<CaseResult> {
    this.#seal();
    if (this.#discarded) throw new Error('the case spool is already removed');
    const spool = this.#spooledRun(run);
    if (spool === undefined) return;
    for (const line of spooledLines(spool)) yield caseOfLine(line);
  }

  /** Flushes and closes every run's file, and puts keyed runs in key order: nothing more is recorded. */
  #seal(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const spool of this.#runs) {
      this.#flush(spool, true);
      if (spool.keys !== null) sortByKey(spool);
    }
  }

  /**
   * Seals the spool and opens each run's file for reading, kept open until {@link discard}: the
   * files can then be removed (a journal's folder, once `-o` holds the results) while the
   * reports still read them, and a process killed meanwhile leaves nothing behind (POSIX frees
   * a removed file when its last descriptor closes). Throws when a file cannot be opened.
   */
  holdFiles(): void {
    this.#seal();
    for (const spool of this.#runs) {
      if (spool.path !== null) spool.held ??= openSync(spool.path, 'r');
    }
  }

  /**
   * Removes the spool files (after the reports, or instead of them); those in a journal's folder
   * are left to the journal, which keeps them when the run's results could not be written.
   */
  discard(): void {
    this.#closed = true;
    this.#discarded = true;
    for (const spool of this.#runs) {
      if (spool.fd !== null) closeSync(spool.fd);
      if (spool.held !== null) closeSync(spool.held);
      spool.fd = null;
      spool.held = null;
      spool.batch = null;
      spool.memory = null;
    }
    if (this.#dir !== null && this.#journal === undefined) {
      rmSync(this.#dir, { recursive: true, force: true });
      process.off('exit', this.#onExit);
    }
    this.#dir = null;
  }

  #writeArtifact(out: BatchWriter, artifact: ResultsArtifact): void {
    const layout = artifactLayout(
      artifact,
      (run, index) => this.#spooledRun(index) !== undefined || run.cases.length > 0,
    );
    for (const part of layout) {
      if (typeof part === 'string') {
        out.text(part);
        continue;
      }
      const spool = this.#spooledRun(part.run);
      if (spool !== undefined) copyLines(spool, out);
      else {
        const { cases } = artifact.runs[part.run]!;
        for (const [c, result] of cases.entries()) {
          out.text(caseLine(stringifyCase(result), c === cases.length - 1));
        }
      }
    }
    out.flush();
  }
}

/**
 * `bytes` appended to `spool`'s file. A write that fails part way (a full temporary folder) is
 * undone, so the file holds exactly the `written` bytes the offsets count on.
 */
function spoolWrite(fd: number, spool: RunSpool, bytes: Buffer): number {
  try {
    return writeAll(fd, bytes);
  } catch (error) {
    try {
      ftruncateSync(fd, spool.written);
    } catch {
      // Bytes past `written` are never read: the offsets stop there.
    }
    throw error;
  }
}
