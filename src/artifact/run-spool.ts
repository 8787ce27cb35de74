/**
 * One run's spool: where each of the run's finished case lines is in its spool file, and reading
 * them back in testset order, line by line or copied in bulk into the artifact.
 */
import { closeSync, openSync } from 'node:fs';
import type { BatchWriter } from './batch-writer.ts';
import { readAt } from './fd-io.ts';

/** Read-back window over a spool. */
const WINDOW = 1 << 20;
const NEWLINE_BYTES = Buffer.from('\n');

/** One run's spool: where each finished case's line is in its file. */
export interface RunSpool {
  /** The run's position (its file's name). */
  run: number;
  /** Byte offset of case i's line in the file; -1 while (or when) it has not finished. */
  offsets: Float64Array;
  /** Byte length of case i's line. */
  lengths: Uint32Array;
  size: number;
  recorded: number;
  /**
   * With `CaseSpool.recordKeyed`: each case's sort key, by arrival; `offsets` and `lengths`
   * are then in arrival order until sealing puts them in key order.
   */
  keys: Float64Array | null;
  fd: number | null;
  path: string | null;
  /**
   * The file opened for reading and kept open (`CaseSpool.holdFiles`), so that it is still read
   * once its folder is removed; null until then. Closed by `CaseSpool.discard`.
   */
  held: number | null;
  /** Lines not yet written, and how many bytes of it are used. */
  batch: Buffer | null;
  used: number;
  /** Bytes spooled: in the file, then (once the file failed) in `memory`. */
  written: number;
  /**
   * Lines after the first `fileBytes` bytes, once writing the file failed (a full or vanished
   * temporary folder): kept in memory, in order, so no finished case is lost; null until then.
   */
  memory: Buffer[] | null;
  /** Bytes in the file, once `memory` took over. */
  fileBytes: number;
}

/** The name of run `run`'s file in its spool's folder (a recovery journal reads it by this name). */
export function spoolFileName(run: number): string {
  return `run-${run}.jsonl`;
}

/** The empty spool of run `run`, which plans `cases` cases. */
export function newRunSpool(run: number, cases: number): RunSpool {
  return {
    run,
    offsets: new Float64Array(cases).fill(-1),
    lengths: new Uint32Array(cases),
    size: cases,
    recorded: 0,
    keys: null,
    fd: null,
    path: null,
    held: null,
    batch: null,
    used: 0,
    written: 0,
    memory: null,
    fileBytes: 0,
  };
}

/**
 * The run's spooled lines, in testset order (a case that never finished is skipped), read from
 * its file once it is closed. Lines are served from a window of the file, refilled where the next line
 * starts when it falls outside; cases that finished in order make that one sequential read.
 */
export function* spooledLines(spool: RunSpool): Generator<string> {
  const fd = openSpool(spool);
  if (fd === undefined) return;
  try {
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
        to = start + readSpoolAt(spool, fd, window, start);
        if (to < end) throw new Error('the case spool is shorter than recorded');
      }
      yield window.toString('utf8', start - from, end - from);
    }
  } finally {
    closeSpool(spool, fd);
  }
}

/**
 * The run's file opened for reading; null when its lines are all in memory, undefined when it
 * has none.
 */
function openSpool(spool: RunSpool): number | null | undefined {
  if (spool.memory !== null && spool.fileBytes === 0) return null;
  if (spool.path === null) return undefined;
  return spool.held ?? openSync(spool.path, 'r');
}

/** Closes what {@link openSpool} opened (the file it holds stays open). */
function closeSpool(spool: RunSpool, fd: number | null): void {
  if (fd !== null && fd !== spool.held) closeSync(fd);
}

/** {@link readAt} over the run's file and then the lines kept in memory. */
function readSpoolAt(spool: RunSpool, fd: number | null, buffer: Buffer, position: number): number {
  const onDisk = spool.memory === null ? Infinity : spool.fileBytes;
  let filled = 0;
  if (position < onDisk && fd !== null) {
    const want = Math.min(buffer.length, onDisk - position);
    filled = readAt(fd, buffer.subarray(0, want), position);
    if (filled < want) return filled;
  }
  for (const part of memoryRange(spool, position + filled, position + buffer.length)) {
    filled += part.copy(buffer, filled);
  }
  return filled;
}

/** The bytes from `from` to `to` (spool positions) that are kept in memory, in order. */
function memoryRange(spool: RunSpool, from: number, to: number): Buffer[] {
  const parts: Buffer[] = [];
  let at = spool.fileBytes;
  for (const chunk of spool.memory ?? []) {
    const end = at + chunk.length;
    if (end > from && at < to) {
      parts.push(chunk.subarray(Math.max(from, at) - at, Math.min(to, end) - at));
    }
    at = end;
    if (at >= to) break;
  }
  return parts;
}

/**
 * A run's spooled lines in testset order. Cases that finished in order sit next to each other
 * in the file, so each stretch of consecutive cases is copied as one byte range (the common
 * case: a synchronous function finishes everything in order); the last line loses its comma.
 */
export function copyLines(spool: RunSpool, out: BatchWriter): void {
  const { offsets, lengths } = spool;
  let last = spool.size - 1;
  while (last >= 0 && offsets[last]! < 0) last--;
  if (last < 0) return;
  // Read synchronously (from the page cache, mostly), written through the async output.
  const fd = openSpool(spool);
  if (fd === undefined) return;
  const onDisk = spool.memory === null ? Infinity : spool.fileBytes;
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
      const fromFile = Math.min(through, onDisk);
      if (fd !== null && fromFile > start) out.copyFrom(fd, start, fromFile - start);
      for (const part of memoryRange(spool, Math.max(start, fromFile), through)) out.bytes(part);
      if (next > last) out.bytes(NEWLINE_BYTES);
      first = next;
    }
  } finally {
    closeSpool(spool, fd);
  }
}

/** Reorders a keyed run's offsets and lengths by ascending key (stable); unused slots stay last. */
export function sortByKey(spool: RunSpool): void {
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
