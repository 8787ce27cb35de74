/**
 * What the end-of-run summary table lists from a run whose cases are not held in memory (a
 * spooled `evals run`, `evals merge`): the first few cases that did not pass, counted past that.
 * Fed the cases as they finish: `open` with each run's size, then `record` per case.
 */
import type { CaseResult } from '../types/index.ts';
import { ErrorTally } from './case-text.ts';
import { MAX_LISTED_CASES, type CaseListing } from './summary-table.ts';

/** A run's cases as far as the summary table needs them. */
interface RunListing {
  /** The first `MAX_LISTED_CASES` not-passed cases in testset order, by index. */
  notPassed: Map<number, CaseResult>;
  notPassedCount: number;
  /** The same for cases that passed but are flaky. */
  flakyPassed: Map<number, CaseResult>;
  flakyPassedCount: number;
  errors: ErrorTally;
}

/**
 * What the end-of-run summary table reads from a run's cases when they are not kept: it lists
 * the first `MAX_LISTED_CASES` cases that did not pass (and that passed but are flaky) and
 * counts the rest. So only those few are held, a bounded amount per run; the others are
 * counted, and stand in the table's input as one shared placeholder each (a pointer, not a
 * case), so the table's counts come out as they would from the full list.
 */
export class ListedCases {
  #runs: RunListing[] = [];

  open(runs: readonly { cases: number }[]): void {
    this.#runs = runs.map(() => ({
      notPassed: new Map(),
      notPassedCount: 0,
      flakyPassed: new Map(),
      flakyPassedCount: 0,
      errors: new ErrorTally(),
    }));
  }

  record(run: number, index: number, result: CaseResult): void {
    const listing = this.#runs[run];
    if (listing === undefined) return;
    listing.errors.addCase(result);
    if (!result.passed) {
      listing.notPassedCount++;
      keepFirst(listing.notPassed, index, result);
    } else if (result.flaky === true) {
      listing.flakyPassedCount++;
      keepFirst(listing.flakyPassed, index, result);
    }
  }

  /** What the summary table lists for run `index`: the first cases of each kind, in testset order. */
  listing(index: number): CaseListing | undefined {
    const listing = this.#runs[index];
    if (listing === undefined) return undefined;
    return {
      notPassed: inOrder(listing.notPassed),
      notPassedCount: listing.notPassedCount,
      flakyPassed: inOrder(listing.flakyPassed),
      flakyPassedCount: listing.flakyPassedCount,
      errors: listing.errors.counted(),
    };
  }
}

/** Keeps the `MAX_LISTED_CASES` lowest indexes: cases finish out of order, the table lists the first. */
function keepFirst(kept: Map<number, CaseResult>, index: number, result: CaseResult): void {
  if (kept.size < MAX_LISTED_CASES) {
    kept.set(index, result);
    return;
  }
  let highest = -1;
  for (const key of kept.keys()) highest = Math.max(highest, key);
  if (index < highest) {
    kept.delete(highest);
    kept.set(index, result);
  }
}

function inOrder(kept: Map<number, CaseResult>): CaseResult[] {
  return [...kept.entries()].sort(([a], [b]) => a - b).map(([, result]) => result);
}
