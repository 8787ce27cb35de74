import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/*
 * V8 doubles its young generation whenever many objects survive a scavenge, up to 16 MB a
 * semi-space on Node 20 and 24, and never gives it back. (On V8 11 "many" is cumulative: the
 * bytes surviving since the last growth passing its size, so even a trickle grows it in time.)
 * What survives differs by phase:
 *
 * - While the testsets are read, each row's identity survives (kept to find duplicates), and
 *   where cases are held (not read again as they run, see prepare.ts) every case: a big young
 *   generation only copies them more times before promoting them, and then stays big (at
 *   10,000 cases it is ~11 MB of the run's ~68 MB peak).
 * - While cases run, what survives is what calls keep in flight. Calls that wait (a model, a
 *   timer) keep their promises and state across many scavenges: there the default growth is
 *   right. Kept small, a latency-bound suite (100 calls in flight for 20 ms each) scavenged often
 *   enough to cost ~2.5% of its wall time. Synchronous calls keep nothing: growing only costs
 *   memory (1.5 MB of a 10,000-case run's peak).
 *
 * So the CLI and the Action keep the young generation at its starting size (1 MB a semi-space)
 * from start-up on, and restore the default growth when the run first waits on a user call (the
 * engine's `onFirstAwait`), or once the testsets read have passed {@link SMALL_YOUNG_ROWS} rows:
 * then a small young generation costs more time than it saves memory. Each scavenge has a fixed
 * cost (~0.2 ms): a synchronous 100,000-case run kept small throughout scavenged ~1,100 times,
 * ~265 ms of pauses, and grown past 20,000 rows ~126 times, ~100 ms (`node --trace-gc-nvp`,
 * pauses summed over the run), for ~21 MB more peak RSS (98 -> 119 MB). Kept small, a
 * 10,000-case run peaks at ~68 instead of ~80 MB. Only for processes evalgate owns; the library
 * leaves an embedding process's heap alone.
 *
 * The growth factor is read each time V8 considers growing, so setting it on a running process
 * takes effect (the semi-space size flags do not). V8 versions newer than the tested ones are
 * left alone: an unknown flag would print an error line.
 */

function tested(): boolean {
  const major = Number(process.versions.v8.split('.')[0]);
  return major >= 11 && major <= 13;
}

/** Rows read with the young generation kept small; past this many it may grow. */
export const SMALL_YOUNG_ROWS = 20_000;

/** Kept small by {@link keepYoungGenerationSmall} and not let grow since. */
let keptSmall = false;
let rows = 0;
/** The process is evalgate's own (the CLI, the Action): {@link keepYoungGenerationSmall} ran. */
let owned = false;

/** From start-up until cases run: the young generation stays at its starting size. */
export function keepYoungGenerationSmall(): void {
  if (!tested()) return;
  setFlagsFromString('--semi-space-growth-factor=1');
  keptSmall = true;
  owned = true;
  rows = 0;
}

/** When calls stay in flight, or the testset is big: V8's default growth (doubling) again. */
export function letYoungGenerationGrow(): void {
  if (tested()) setFlagsFromString('--semi-space-growth-factor=2');
  keptSmall = false;
}

/**
 * A testset row was read. Past {@link SMALL_YOUNG_ROWS} rows the default growth is back. Does
 * nothing unless the process's owner kept the young generation small (the library leaves an
 * embedding process's heap alone).
 */
export function rowRead(): void {
  if (keptSmall && ++rows >= SMALL_YOUNG_ROWS) letYoungGenerationGrow();
}

/**
 * A full collection, once the testsets were read and before the cases run. What reading left
 * in the old generation (the identities kept to find duplicates, rows and read buffers that
 * outlived two scavenges) is garbage by then, but a small heap is not collected in full for a
 * long time: a 10,000-case run did no full collection at all, so everything the run promoted
 * came on top of it. Collected here (~5 ms at that size), the run reuses that space: its peak
 * was ~2 MB lower (65.4 vs 67.6 MB, median of 7). Node only lets code ask for a collection
 * through `--expose-gc`, which a running process may set for the contexts it creates next: the
 * function comes from one such context, made once. Only for processes evalgate owns, like the
 * young-generation policy above.
 */
export function collectPreparedGarbage(): void {
  if (!owned || !tested()) return;
  collect ??= exposedGc();
  collect?.();
}

let collect: (() => void) | null | undefined;

function exposedGc(): (() => void) | null {
  setFlagsFromString('--expose-gc');
  try {
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
