/**
 * Where a damaged line of a recovery journal goes wrong, by column: the journal's reader names
 * the file and line (`path:12`), and a case line can be thousands of characters long.
 */
import { explainJsonError } from '../shared/json-syntax.ts';
import { locateJsonPointer } from '../shared/json-pointer.ts';
import { caseProblems, LISTED_PROBLEMS, listProblems, problemText } from './schema.ts';

/**
 * The 1-based column of a journal line at which `json`, the line's JSON text from offset `start`
 * on, goes wrong (`JSON.parse` rejected it with `error`). A line holds no newline, so the offset
 * in `json` is the column.
 */
export function syntaxColumn(json: string, start: number, error: unknown): number {
  return start + explainJsonError(json, error).offset + 1;
}

/**
 * What is wrong with `value` as a case, parsed from `json` (the line's text from offset `start`):
 * the first problems with their columns, as `listProblems` lists them; null when it is a case.
 */
export function caseLineProblems(json: string, start: number, value: unknown): string | null {
  const found = caseProblems(value);
  if (found.problems.length === 0) return null;
  const problems = found.problems.map((problem, i) => {
    const where = i < LISTED_PROBLEMS ? locateJsonPointer(json, problem.at.pointer) : null;
    if (where === null) return problemText(problem);
    const col = start + (problem.at.key ? where.key : where.value) + 1;
    return `${problem.pointer} (column ${col}): ${problem.message}`;
  });
  return listProblems({ problems, all: found.all });
}
