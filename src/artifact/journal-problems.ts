/**
 * Where a damaged line of a recovery journal goes wrong, by column: the journal's reader names
 * the file and line (`path:12`), and a case line can be thousands of characters long. And a
 * journal a newer evalgate wrote, whose fields this one does not know, which is not damaged but
 * cannot be recovered here without losing them.
 */
import { explainJsonError } from '../shared/json-syntax.ts';
import { locateJsonPointer } from '../shared/json-pointer.ts';
import { printable } from '../shared/text-table.ts';
import { toolVersion } from '../shared/version.ts';
import {
  artifactProblems,
  caseProblems,
  isExactlyValid,
  LISTED_PROBLEMS,
  listProblems,
  problemText,
} from './schema.ts';
import {
  collectUnknownFields,
  isNewerVersion,
  writtenByText,
  type UnknownFields,
} from './unknown-fields.ts';

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
 * A case that is one but for properties this evalgate does not know is one: they are added to
 * `unknown`, for the reader to refuse the journal with {@link JournalUnknownFields} once it
 * knows them all (a damaged line is refused at once, as before).
 */
export function caseLineProblems(
  json: string,
  start: number,
  value: unknown,
  unknown: UnknownFields,
): string | null {
  if (isExactlyValid('case', value)) return null;
  if (caseProblems(value, 'ignore').problems.length === 0) {
    collectUnknownFields('case', value, unknown, '/runs/*/cases/*');
    return null;
  }
  const found = caseProblems(value);
  const problems = found.problems.map((problem, i) => {
    const where = i < LISTED_PROBLEMS ? locateJsonPointer(json, problem.at.pointer) : null;
    if (where === null) return problemText(problem);
    const col = start + (problem.at.key ? where.key : where.value) + 1;
    return `${problem.pointer} (column ${col}): ${problem.message}`;
  });
  return listProblems({ problems, all: found.all });
}

/**
 * The problems of `artifact`, the partial artifact a journal at `path` stands for (every run's
 * cases left out), as a message; null when it is valid. Its properties this evalgate does not
 * know are added to `unknown` instead, as {@link caseLineProblems} adds a case's.
 */
export function recoveredProblems(artifact: unknown, unknown: UnknownFields): string | null {
  if (isExactlyValid('results', artifact)) return null;
  if (artifactProblems(artifact, 'ignore').problems.length === 0) {
    collectUnknownFields('results', artifact, unknown);
    return null;
  }
  const found = artifactProblems(artifact);
  return listProblems({ problems: found.problems.map(problemText), all: found.all });
}

/** How many unknown fields the refusal names. */
const LISTED_FIELDS = 3;

/**
 * A journal (at `path`) whose frame or cases hold fields this evalgate does not know, as one
 * its frame says evalgate `writtenBy` wrote: a newer one's, of the same schemaVersion. The
 * partial artifact recovered from it here would lose them, so it is refused, saying by whom
 * it was written and which fields (each once, `*` for any index or evaluator id).
 */
export class JournalUnknownFields extends Error {
  constructor(
    readonly path: string,
    readonly writtenBy: string,
    readonly unknown: UnknownFields,
  ) {
    const count = unknown.fields.size;
    const listed = [...unknown.fields].sort().slice(0, LISTED_FIELDS).join(', ');
    const more = count > LISTED_FIELDS ? ', \u2026' : '';
    const fields = `${unknown.all ? count : `${count} or more`} field${count === 1 && unknown.all ? '' : 's'}`;
    super(
      `the recovery journal ${path} ${writtenByText(writtenBy, toolVersion)}: it holds ${fields} this evalgate does not know (${printable(listed)}${more})`,
    );
    this.name = 'JournalUnknownFields';
  }

  /** Whether the version that wrote it is newer than this one (else a hand edit, or another tool). */
  get newer(): boolean {
    return isNewerVersion(this.writtenBy, toolVersion);
  }
}
