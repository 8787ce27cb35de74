/**
 * The report's counts and sentences, with no DOM in them: the page builds on them, and tests
 * read them in Node.
 */

/** `1,234` */
export function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `1 run`, `2,000 runs`. */
export function plural(n: number, noun: string): string {
  return `${count(n)} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * `All 3 runs passed their gates.`, `2 of 3 runs failed their gates.`, `1 of 3 runs failed its
 * gate.`; a single run is `The run passed its gate.` / `The run failed its gate.`
 */
export function gateSentence(failedRuns: number, runs: number): string {
  if (runs === 1) return `The run ${failedRuns === 0 ? 'passed' : 'failed'} its gate.`;
  if (failedRuns === 0) return `All ${count(runs)} runs passed their gates.`;
  return `${count(failedRuns)} of ${count(runs)} ${failedRuns === 1 ? 'runs failed its gate.' : 'runs failed their gates.'}`;
}
