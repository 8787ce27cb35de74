/**
 * The report's counts and sentences, with no DOM in them: the page builds on them, and tests
 * read them in Node.
 */

import { count } from './format.ts';

export { count, plural } from './format.ts';

/**
 * `All 3 runs passed their gates.`, `2 of 3 runs failed their gates.`, `1 of 3 runs failed its
 * gate.`; a single run is `The run passed its gate.` / `The run failed its gate.`
 */
export function gateSentence(failedRuns: number, runs: number): string {
  if (runs === 1) return `The run ${failedRuns === 0 ? 'passed' : 'failed'} its gate.`;
  if (failedRuns === 0) return `All ${count(runs)} runs passed their gates.`;
  return `${count(failedRuns)} of ${count(runs)} ${failedRuns === 1 ? 'runs failed its gate.' : 'runs failed their gates.'}`;
}
