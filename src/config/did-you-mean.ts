/**
 * "Did you mean …?" for misspelt keys and evaluator names: the nearest candidate by edit
 * distance, offered only when it is close enough to be a plausible typo.
 */
import { editDistance } from '../shared/edit-distance.ts';

/**
 * The candidate nearest to `name` when it is a plausible typo (case differences are free, at
 * most about a third of the letters differ), else `undefined`. Ties go to the earlier candidate.
 */
export function closestMatch(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    // A swapped pair of letters (`tiemout`) is one typo.
    const { distance } = editDistance(wanted, candidate.toLowerCase(), { transpositions: true });
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, candidate.length) / 3));
    // `distance < wanted.length`: a one-letter key is not a typo of another one-letter key.
    if (distance <= limit && distance < wanted.length && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
