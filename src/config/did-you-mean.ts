/**
 * "Did you mean …?" for misspelt keys and evaluator names: the nearest candidate by edit
 * distance, offered only when it is close enough to be a plausible typo.
 */
import { editDistance } from '../shared/edit-distance.ts';

/** Longest name a suggestion is looked for; the longest key or evaluator name is far shorter. */
export const MAX_TYPO_LENGTH = 200;

/**
 * The candidate nearest to `name` when it is a plausible typo (case differences are free, at
 * most about a third of the letters differ), else `undefined`. Ties go to the earlier candidate.
 */
export function closestMatch(name: string, candidates: Iterable<string>): string | undefined {
  // A name this long is no typo of a key or an evaluator; comparing a 1 MB value with each
  // candidate would take seconds.
  if (name.length > MAX_TYPO_LENGTH) return undefined;
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, candidate.length) / 3));
    // The distance is at least the difference in length: no need to compute it.
    if (Math.abs(wanted.length - candidate.length) > limit) continue;
    // A swapped pair of letters (`tiemout`) is one typo.
    const { distance } = editDistance(wanted, candidate.toLowerCase(), { transpositions: true });
    // `distance < wanted.length`: a one-letter key is not a typo of another one-letter key.
    if (distance <= limit && distance < wanted.length && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
