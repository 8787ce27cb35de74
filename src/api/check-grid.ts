/**
 * `runTestSuite`'s `gridSearchParams`, checked as evals.yaml's `grid:` is: an object of non-empty
 * lists whose values each read differently, since a run is named by how its values read.
 */
import { describeValue } from '../shared/errors.ts';
import { gridValueText } from '../shared/grid-value-text.ts';
import { isRecord } from '../shared/is-record.ts';
import type { GateProblem } from './check-gate.ts';

/**
 * Each problem of `grid` (absent: none), as `gridSearchParams.NAME must be …, got …`; `scrub`
 * removes the run's secrets from the value quoted, before it is cut.
 */
export function gridProblems(grid: unknown, scrub: (text: string) => string): GateProblem[] {
  if (grid === undefined) return [];
  if (!isRecord(grid)) {
    return [
      {
        path: 'gridSearchParams',
        message: `gridSearchParams must be an object of parameter name → list of values, got ${describeValue(grid, scrub)}`,
      },
    ];
  }
  const problems: GateProblem[] = [];
  // A list with no values expands the grid to no run at all: a verdict over nothing.
  for (const [name, values] of Object.entries(grid)) {
    if (!Array.isArray(values) || values.length === 0) {
      const path = `gridSearchParams.${name}`;
      problems.push({
        path,
        message: `${path} must be a non-empty array of values, got ${describeValue(values, scrub)}`,
      });
      continue;
    }
    // As in evals.yaml: two values that read the same would give two runs one name.
    const seen = new Set<string>();
    for (const value of values as unknown[]) {
      const text = gridValueText(value);
      if (seen.has(text)) {
        const path = `gridSearchParams.${name}`;
        problems.push({
          path,
          message: `${path} must be values that each read differently (${text} twice), got ${describeValue(values, scrub)}: a run is named by how its values read (${name}=${text}), so two runs would share a name${sameTextHint(value)}`,
        });
        break;
      }
      seen.add(text);
    }
  }
  return problems;
}

/** What to do about grid values that read the same, for those that read as their kind only. */
function sameTextHint(value: unknown): string {
  if (typeof value === 'function') {
    return ': give each function its own name (a function declaration, or `const name = …`), or grid over names and look the function up in fn';
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      return ': an object of a class reads as its JSON; grid over names or plain values and build the object in fn';
    }
  }
  return '';
}
