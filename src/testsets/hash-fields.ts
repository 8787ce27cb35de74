/**
 * `hash:` fields missing from rows. A field some rows lack is reported at each of them; a field
 * no row has is a typo in `hash:` (`questoin`), said once with the fields the rows do have,
 * rather than once per row of the file.
 */
import type { TestsetRow } from '../types/index.ts';
import { MAX_ISSUES, type IssueList } from './issues.ts';

const MAX_LISTED_FIELDS = 10;

export class MissingHashFields {
  /** Rows identified by their hash fields (not by a dedup id). */
  #rows = 0;
  /** The first such row: where a field no row has is reported, and the fields it has. */
  #first: { line: number; col: number; fields: string[] } | undefined;
  /** Per field missing somewhere: how many rows lack it, and where the first of them are. */
  readonly #missing = new Map<string, { count: number; at: [line: number, col: number][] }>();

  /** Counts a row identified by its hash fields; call {@link lacks} for each it lacks. */
  hashed(row: TestsetRow): void {
    this.#rows++;
    this.#first ??= { line: row.line, col: row.col ?? 0, fields: Object.keys(row.data) };
  }

  /** `row` has no value for the hash field `name`. */
  lacks(row: TestsetRow, name: string): void {
    let missing = this.#missing.get(name);
    if (missing === undefined) this.#missing.set(name, (missing = { count: 0, at: [] }));
    missing.count++;
    // A full issue list only counts the rest: keeping more places would cost memory for nothing.
    if (missing.at.length < MAX_ISSUES) missing.at.push([row.line, row.col ?? 0]);
  }

  /** Adds the problems found to `issues`: after the last row, when it is known which rows lack what. */
  report(issues: IssueList): void {
    for (const [name, { count, at }] of this.#missing) {
      const field = JSON.stringify(name);
      if (count === this.#rows && this.#first !== undefined) {
        const { line, col, fields } = this.#first;
        const shown = fields.slice(0, MAX_LISTED_FIELDS).map((f) => JSON.stringify(f));
        const more = fields.length > MAX_LISTED_FIELDS ? ', …' : '';
        issues.add(
          'testset.hash-field-missing',
          line,
          col,
          `hash field ${field} is in no row of the testset: hash: names fields every row has (the first row has ${shown.join(', ') || 'no field'}${more})`,
        );
        continue;
      }
      const message = `hash field ${field} is missing from this row (hash: needs every listed field in every row)`;
      for (const [line, col] of at) issues.add('testset.hash-field-missing', line, col, message);
      // Past MAX_ISSUES places the list is full: these only count toward "N more problems".
      const last = at.at(-1) ?? [0, 0];
      for (let i = at.length; i < count; i++) {
        issues.add('testset.hash-field-missing', last[0], last[1], message);
      }
    }
  }
}
