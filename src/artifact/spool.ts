/**
 * The streaming artifact writer: finished cases go to disk as they finish, so a run never holds
 * its cases in memory just to write them at the end (200,000 cases are ~170 MB of JSON).
 *
 * The artifact puts each run's summary and gate before its cases, and those are only known once
 * the run is over, so the cases cannot go straight into the artifact. Each run spools its case
 * lines (compact JSON, the very text of the artifact line) to a file of its own in the system's
 * temporary folder, in the order they finish, remembering where each line is (12 bytes a case).
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
 * Spooling uses synchronous writes of 64 KB batches: the engine hands a case over synchronously,
 * a write into the page cache takes microseconds, and a synchronous write cannot queue up
 * unbounded buffers behind a slow disk the way an unawaited stream write would.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAtomically } from '../shared/write-file-atomic.ts';
import type { CaseLog } from './case-log.ts';
import type { CaseResult, ResultsArtifact } from '../types/index.ts';
import {
  artifactLayout,
  CASE_LINE_EXTRA_BYTES,
  caseLine,
  caseOfLine,
  stringifyCase,
  writeCaseLine,
} from './artifact.ts';

/** Spool bytes gathered per run before a write. */
const SPOOL_BATCH = 1 << 16;
/** Read-back window over a spool. */
const WINDOW = 1 << 20;
/**
 * The artifact's output batch. It is filled to the brim while the artifact is written, at the
 * end of the run where the process peaks, so each MB of it is a MB of peak RSS; 256 KB writes
 * cost no more time than 1 MB ones (the page cache takes either at memory speed).
 */
const OUTPUT_BATCH = 1 << 18;
const NEWLINE_BYTES = Buffer.from('\n');

/** One run's spool: where each finished case's line is in its file. */
interface RunSpool {
  /** The run's position (its file's name). */
  run: number;
  /** Byte offset of case i's line in the file; -1 while (or when) it has not finished. */
  offsets: Float64Array;
  /** Byte length of case i's line. */
  lengths: Uint32Array;
  size: number;
  recorded: number;
  /**
   * With {@link CaseSpool.recordKeyed}: each case's sort key, by arrival; `offsets` and `lengths`
   * are then in arrival order until sealing puts them in key order.
   */
  keys: Float64Array | null;
  fd: number | null;
  path: string | null;
  /** Lines not yet written, and how many bytes of it are used. */
  batch: Buffer | null;
  used: number;
  /** Bytes already in the file. */
  written: number;
}

/**
 * A case log that spools finished cases to disk; `writeArtifact` writes the artifact from them
 * and `cases` reads them back. Not reusable: one run, then the reports, then `discard` (which
 * removes the spool files; idempotent).
 */
export class CaseSpool implements CaseLog {
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

  open(runs: readonly { cases: number }[]): void {
    this.#runs = runs.map((run, index) => ({
      run: index,
      offsets: new Float64Array(run.cases).fill(-1),
      lengths: new Uint32Array(run.cases),
      size: run.cases,
      recorded: 0,
      keys: null,
      fd: null,
      path: null,
      batch: null,
      used: 0,
      written: 0,
    }));
  }

  record(run: number, index: number, result: CaseResult): void {
    if (this.#closed) throw new Error('the case spool is already closed');
    const spool = this.#runs[run];
    if (spool === undefined || !(index >= 0 && index < spool.size)) {
      throw new RangeError(`no case ${index} in run ${run} of the spool`);
    }
    // Spooled as the artifact's line (indent, JSON, `,` and newline), so lines that are in
    // testset order in the file can be copied into the artifact in bulk.
    this.#append(spool, index, stringifyCase(result));
    spool.recorded++;
    // A complete run's file is closed now, so open files track the runs still going.
    if (spool.recorded === spool.size) this.#flush(spool, true);
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
    this.#append(spool, spool.recorded, stringifyCase(result));
    spool.recorded++;
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
        const fd = this.#fileOf(spool);
        spool.offsets[index] = spool.written;
        spool.lengths[index] = bytes;
        spool.written += writeAll(fd, Buffer.from(caseLine(json, false)));
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
      spool.written += writeAll(this.#fileOf(spool), spool.batch.subarray(0, spool.used));
      spool.used = 0;
    }
    if (close) {
      spool.batch = null;
      if (spool.fd !== null) closeSync(spool.fd);
      spool.fd = null;
    }
  }

  #fileOf(spool: RunSpool): number {
    if (spool.fd !== null) return spool.fd;
    if (this.#dir === null) {
      this.#dir = mkdtempSync(join(tmpdir(), 'evalgate-spool-'));
      process.once('exit', this.#onExit);
    }
    // Opened once (a run's file is closed only when nothing more can be recorded in it), for
    // appending: every write lands at the end, where `written` says it does.
    spool.path ??= join(this.#dir, `run-${spool.run}.jsonl`);
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

  /** True when run `run` has spooled cases (then {@link cases} reads them). */
  spooled(run: number): boolean {
    const spool = this.#runs[run];
    return spool !== undefined && spool.recorded > 0;
  }

  /**
   * Run `run`'s spooled cases parsed back, in testset order, one at a time (synchronously: for
   * reports written once the run is over). Records no more cases after it.
   */
  *cases(run: number): Generator<CaseResult> {
    this.#seal();
    const spool = this.#runs[run];
    if (this.#discarded) throw new Error('the case spool is already removed');
    if (spool === undefined || spool.recorded === 0 || spool.path === null) return;
    const fd = openSync(spool.path, 'r');
    try {
      // Lines are served from a window of the file, refilled where the next line starts when it
      // falls outside; cases that finished in order make that one sequential read.
      let window = Buffer.allocUnsafe(WINDOW);
      let from = 0;
      let to = 0;
      for (let index = 0; index < spool.size; index++) {
        const start = spool.offsets[index]!;
        if (start < 0) continue; // never finished (an interrupt)
        const end = start + spool.lengths[index]!;
        if (start < from || end > to) {
          if (end - start > window.length) window = Buffer.allocUnsafe(end - start);
          from = start;
          to = start + readAt(fd, window, start);
          if (to < end) throw new Error('the case spool is shorter than recorded');
        }
        yield caseOfLine(window.toString('utf8', start - from, end - from));
      }
    } finally {
      closeSync(fd);
    }
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

  /** Removes the spool files (after the reports, or instead of them). */
  discard(): void {
    this.#closed = true;
    this.#discarded = true;
    for (const spool of this.#runs) {
      if (spool.fd !== null) closeSync(spool.fd);
      spool.fd = null;
      spool.batch = null;
    }
    if (this.#dir !== null) {
      rmSync(this.#dir, { recursive: true, force: true });
      process.off('exit', this.#onExit);
    }
    this.#dir = null;
  }

  #writeArtifact(out: BatchWriter, artifact: ResultsArtifact): void {
    const spooled = (index: number): RunSpool | undefined => {
      const spool = this.#runs[index];
      return spool !== undefined && spool.recorded > 0 ? spool : undefined;
    };
    const layout = artifactLayout(
      artifact,
      (run, index) => spooled(index) !== undefined || run.cases.length > 0,
    );
    for (const part of layout) {
      if (typeof part === 'string') {
        out.text(part);
        continue;
      }
      const spool = spooled(part.run);
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
 * A run's spooled lines in testset order. Cases that finished in order sit next to each other
 * in the file, so each stretch of consecutive cases is copied as one byte range (the common
 * case: a synchronous function finishes everything in order); the last line loses its comma.
 */
function copyLines(spool: RunSpool, out: BatchWriter): void {
  const { offsets, lengths } = spool;
  let last = spool.size - 1;
  while (last >= 0 && offsets[last]! < 0) last--;
  if (last < 0 || spool.path === null) return;
  // Read synchronously (from the page cache, mostly), written through the async output.
  const fd = openSync(spool.path, 'r');
  try {
    for (let first = 0; first <= last;) {
      const start = offsets[first]!;
      if (start < 0) {
        first++; // dropped by an interrupt
        continue;
      }
      let end = start + lengths[first]!;
      let next = first + 1;
      while (next <= last && offsets[next] === end) end += lengths[next++]!;
      // The artifact's last case line has no comma: drop the spooled ",\n" and end the line.
      const through = next > last ? end - 2 : end;
      out.copyFrom(fd, start, through - start);
      if (next > last) out.bytes(NEWLINE_BYTES);
      first = next;
    }
  } finally {
    closeSync(fd);
  }
}

/** Reorders a keyed run's offsets and lengths by ascending key (stable); unused slots stay last. */
function sortByKey(spool: RunSpool): void {
  const keys = spool.keys!;
  const order = Uint32Array.from({ length: spool.recorded }, (_, i) => i);
  order.sort((a, b) => keys[a]! - keys[b]! || a - b);
  const offsets = new Float64Array(spool.size).fill(-1);
  const lengths = new Uint32Array(spool.size);
  for (const [to, from] of order.entries()) {
    offsets[to] = spool.offsets[from]!;
    lengths[to] = spool.lengths[from]!;
  }
  spool.offsets = offsets;
  spool.lengths = lengths;
  spool.keys = null;
}

/** Fills `buffer` from `position` of file `fd` as far as the file goes; returns the bytes read. */
function readAt(fd: number, buffer: Buffer, position: number): number {
  let filled = 0;
  while (filled < buffer.length) {
    const read = readSync(fd, buffer, filled, buffer.length - filled, position + filled);
    if (read === 0) break;
    filled += read;
  }
  return filled;
}

function writeAll(fd: number, bytes: Buffer): number {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  return done;
}

/**
 * Output gathered into batched writes: text encoded into the batch, bytes copied into it.
 * Written synchronously through the handle's descriptor: this runs once, at the end of a run,
 * with nothing else to do meanwhile, and each awaited write of a batch was a trip through
 * libuv's thread pool. Copying a 75 MB spool (100,000 cases) took ~45 ms that way, ~20 ms so.
 */
class BatchWriter {
  readonly #fd: number;
  readonly #batch = Buffer.allocUnsafe(OUTPUT_BATCH);
  #used = 0;

  constructor(file: FileHandle) {
    this.#fd = file.fd;
  }

  text(text: string): void {
    if (text.length * 3 > this.#batch.length - this.#used) {
      this.flush();
      if (text.length * 3 > this.#batch.length) {
        writeAll(this.#fd, Buffer.from(text));
        return;
      }
    }
    this.#used += this.#batch.write(text, this.#used);
  }

  bytes(bytes: Buffer): void {
    if (bytes.length > this.#batch.length - this.#used) {
      this.flush();
      if (bytes.length > this.#batch.length) {
        writeAll(this.#fd, bytes);
        return;
      }
    }
    bytes.copy(this.#batch, this.#used);
    this.#used += bytes.length;
  }

  /**
   * `length` bytes of file `fd` from `position`, read straight into the batch: a spool's lines
   * reach the artifact with one copy (75 MB at 100,000 cases), not through a second buffer.
   */
  copyFrom(fd: number, position: number, length: number): void {
    for (let done = 0; done < length;) {
      if (this.#used === this.#batch.length) this.flush();
      const want = Math.min(this.#batch.length - this.#used, length - done);
      const read = readSync(fd, this.#batch, this.#used, want, position + done);
      if (read === 0) throw new Error('the case spool is shorter than recorded');
      this.#used += read;
      done += read;
    }
  }

  flush(): void {
    if (this.#used === 0) return;
    writeAll(this.#fd, this.#batch.subarray(0, this.#used));
    this.#used = 0;
  }
}
