/**
 * The report's counts and sentences, with no DOM in them: the page builds on them, and tests
 * read them in Node.
 */

import { count } from './format.ts';

export { count, plural } from './format.ts';

/**
 * `All 3 runs passed their gates.`, `2 of 3 runs failed their gates.`, `1 of 3 runs failed its
 * gate.`; a single run is `The run passed its gate.` / `The run failed its gate.` With `gone`
 * suites of the baseline missing from the config, it says so, and that the verdict is FAIL.
 */
export function gateSentence(failedRuns: number, runs: number, gone = 0): string {
  const runsSaid = runsSentence(failedRuns, runs);
  if (gone === 0) return runsSaid;
  const suites =
    gone === 1 ? 'A suite of the baseline is' : `${count(gone)} suites of the baseline are`;
  return `${suites} gone from the config, so the verdict is FAIL. ${runsSaid}`;
}

function runsSentence(failedRuns: number, runs: number): string {
  if (runs === 1) return `The run ${failedRuns === 0 ? 'passed' : 'failed'} its gate.`;
  if (failedRuns === 0) return `All ${count(runs)} runs passed their gates.`;
  return `${count(failedRuns)} of ${count(runs)} ${failedRuns === 1 ? 'runs failed its gate.' : 'runs failed their gates.'}`;
}

/** Characters of a case id the page shows where the id stands in for a label. */
const SHOWN_ID_CHARS = 12;

/**
 * A case id as the page's lists show it: its first 12 characters and `…` when it is longer (a
 * 64-character content hash), else whole (a row's dedup id such as `r3`), never `r3…`.
 */
export function shortId(id: string): string {
  return id.length > SHOWN_ID_CHARS ? `${id.slice(0, SHOWN_ID_CHARS)}\u2026` : id;
}
