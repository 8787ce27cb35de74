import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's young generation at its starting size (1 MB a semi-space) for the rest of the
 * process. V8 doubles it whenever many objects survive a scavenge, up to 16 MB a semi-space on
 * Node 20 and 24, and never gives it back. A run's survivors are its prepared cases (read once,
 * kept to the end) and the few cases in flight, which gain nothing from a big nursery: the doubled
 * young generation was a quarter of the peak RSS of a 10,000-case run. Measured with
 * `npm run bench` and A/B runs of the 100,000-case suite: peak RSS 83 -> 75 MB at 10,000 cases
 * and 142 -> 120 MB at 100,000, wall time unchanged within noise.
 *
 * For the CLI (bin/evals.js) and the Action only, which own their process; the library leaves the embedding
 * process's heap alone. The growth factor is read each time V8 considers growing the young
 * generation, so setting it after start-up takes effect (unlike the semi-space size flags).
 * Newer V8 versions than the tested ones are left alone: an unknown flag prints an error line.
 */
export function keepYoungGenerationSmall(): void {
  const major = Number(process.versions.v8.split('.')[0]);
  if (major >= 11 && major <= 13) setFlagsFromString('--semi-space-growth-factor=1');
}
