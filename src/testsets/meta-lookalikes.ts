/**
 * Data columns named like metadata columns (`__dedupe_id__`, `__tag__`): read as data, they
 * silently cost the rows the identity or the tags they were meant to give, so each is warned
 * about once, naming the metadata column it is closest to.
 */
import { editDistance } from '../shared/edit-distance.ts';
import type { IssueList } from './issues.ts';
import { isReservedKey, META_COLUMNS } from './rows.ts';

/** The most edits between a column and the metadata column it is taken to mean. */
const MAX_EDITS = 3;

const META_NAMES = Object.keys(META_COLUMNS);

/** Remembers the columns already warned about, so a 200,000-row file warns once per column. */
export class MetaLookalikes {
  readonly #seen = new Set<string>();

  /**
   * Warns about each new key of `data` that is no metadata column but is named like one: `__x__`,
   * or `__` and a few edits from one (`__tags`).
   */
  check(data: Record<string, unknown>, line: number, col: number, warnings: IssueList): void {
    for (const key of Object.keys(data)) {
      if (!key.startsWith('__') || isReservedKey(key) || key === '__proto__') continue;
      if (this.#seen.has(key)) continue;
      this.#seen.add(key);
      const meant = closestMeta(key);
      // `__x__` reads as metadata whatever x is; `__typename` (GraphQL) only when it is a near miss.
      if (!/^__.+__$/s.test(key) && meant === undefined) continue;
      const hint = meant === undefined ? '' : ` (did you mean ${meant}?)`;
      warnings.add(
        'testset.meta-lookalike',
        line,
        col,
        `column ${JSON.stringify(key)} is read as data, not as a metadata column${hint}; the metadata columns are ${META_NAMES.join(', ')}`,
      );
    }
  }
}

/** The metadata column fewest edits from `key`, when it is close enough to be a typo of it. */
function closestMeta(key: string): string | undefined {
  let best: { name: string; edits: number } | undefined;
  for (const name of META_NAMES) {
    const edits = editDistance(key, name).distance;
    if (edits <= MAX_EDITS && (best === undefined || edits < best.edits)) best = { name, edits };
  }
  return best?.name;
}
