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
  /** Lines not yet written, and how many bytes of it are used. */
  batch: Buffer | null;
  used: number;
  /** Bytes already in the file. */
  written: number;
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
    batch: null,
    used: 0,
    written: 0,
  };
}

/**
 * The run's spooled lines, in testset order (a case that never finished is skipped), read from
 * its file once it is closed. Lines are served from a window of the file, refilled where the next line
 * starts when it falls outside; cases that finished in order make that one sequential read.
 */
export function* spooledLines(spool: RunSpool): Generator<string> {
  if (spool.path === null) return;
  const fd = openSync(spool.path, 'r');
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
        to = start + readAt(fd, window, start);
        if (to < end) throw new Error('the case spool is shorter than recorded');
      }
      yield window.toString('utf8', start - from, end - from);
    }
  } finally {
    closeSync(fd);
  }
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
