/**
 * "Did you mean …?" for misspelt keys and evaluator names: the nearest candidate by edit
 * distance, offered only when it is close enough to be a plausible typo.
 */

/** Optimal-string-alignment distance: Levenshtein plus swaps of adjacent letters (`tiemout`). */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [];
    for (let j = 0; j <= b.length; j++) {
      if (i === 0 || j === 0) {
        row.push(i + j);
        continue;
      }
      const above = rows[i - 1] ?? [];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      }
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? Math.max(a.length, b.length);
}

/**
 * The candidate nearest to `name` when it is a plausible typo (case differences are free, at
 * most about a third of the letters differ), else `undefined`. Ties go to the earlier candidate.
 */
export function closestMatch(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    const limit = Math.max(1, Math.floor(Math.max(wanted.length, candidate.length) / 3));
    // `distance < wanted.length`: a one-letter key is not a typo of another one-letter key.
    if (distance <= limit && distance < wanted.length && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
