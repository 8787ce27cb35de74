import { setFlagsFromString } from 'node:v8';

/*
 * V8 doubles its young generation whenever many objects survive a scavenge, up to 16 MB a
 * semi-space on Node 20 and 24, and never gives it back. What survives differs by phase:
 *
 * - While the testsets are read, every row survives: the prepared cases are kept to the end of
 *   the run, so a big young generation only copies them more times before promoting them, and
 *   then stays big (at 10,000 cases it was a quarter of the run's peak RSS).
 * - While cases run, objects live as long as a call: there the default growth is right. Kept
 *   small through the run, a latency-bound suite (100 calls in flight, each holding its promises
 *   and timer for 20 ms) scavenged often enough to cost ~2.5% of its wall time.
 *
 * So the CLI and the Action keep the young generation at its starting size (1 MB a semi-space)
 * from start-up through prepare, and restore the default growth when cases start. Measured with
 * `npm run bench` and alternating runs: peak RSS 81 -> 72 MB at 10,000 cases and 143 -> 126 MB
 * at 100,000, wall time unchanged within noise. Only for processes evalgate owns; the library
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

/** From start-up until cases run: the young generation stays at its starting size. */
export function keepYoungGenerationSmall(): void {
  if (tested()) setFlagsFromString('--semi-space-growth-factor=1');
}

/** When cases start: V8's default growth (doubling) again. */
export function letYoungGenerationGrow(): void {
  if (tested()) setFlagsFromString('--semi-space-growth-factor=2');
}
