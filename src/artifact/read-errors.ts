/**
 * The errors of reading a results artifact: a file that cannot be read, text that is not JSON,
 * a value the results schema rejects (each problem placed at its line and column), and one
 * holding properties this evalgate does not know, for a command that would lose them.
 */
import {
  artifactProblems,
  LISTED_PROBLEMS,
  listProblems,
  problemText,
  type ArtifactProblem,
  type FoundProblems,
} from './schema.ts';
import { writtenByText, isNewerVersion } from './unknown-fields.ts';
import { explainJsonError, type Scrub } from '../shared/json-syntax.ts';
import { lineAndColumn, locateJsonPointer } from '../shared/json-pointer.ts';
import { printable } from '../shared/text-table.ts';
import { toolVersion } from '../shared/version.ts';

/** Why a file cannot be read as a results artifact. */
export class ArtifactReadError extends Error {
  constructor(
    readonly kind: 'unreadable' | 'not-json' | 'invalid',
    message: string,
    /**
     * For a file refused only for fields this evalgate does not know ({@link unknownRefusal}):
     * the evalgate version it says wrote it, and those fields as the message lists them.
     */
    readonly unknownFields?: { writtenBy: string; fields: string },
  ) {
    super(message);
    this.name = 'ArtifactReadError';
  }
}

/**
 * The error for the schema problems `found` in the file named `name`, the listed ones placed at
 * their line and column in `text` (the file's text, or a part of it whose line L is the file's
 * line `toFileLine(L)`), as the pointer alone does not say where to look in a large file.
 */
export function invalid(
  name: string,
  found: FoundProblems,
  text: string,
  toFileLine: (line: number) => number = (line) => line,
): ArtifactReadError {
  const listed = listProblems(placed(text, found, toFileLine));
  return new ArtifactReadError(
    'invalid',
    `${name} is not a results artifact of this evalgate: ${listed}`,
  );
}

/**
 * The error for a file named `name` whose only problems, `found`, are properties this evalgate
 * does not know (`writtenBy`: the evalgate version the file says wrote it), for a command that
 * writes an artifact from what it reads (`evals merge`, `--resume`): it would write them
 * without those properties, losing what a newer evalgate recorded, so it refuses and says which
 * version to use. Placed as {@link invalid} places its problems.
 */
export function unknownRefusal(
  name: string,
  found: FoundProblems,
  writtenBy: string,
  text: string,
  toFileLine: (line: number) => number = (line) => line,
): ArtifactReadError {
  // Each by the pointer of the field itself (its object's, in the file, and its key): it is
  // not wrong, only unknown here.
  const fields = listProblems({
    separator: ', ',
    problems: found.problems.map((problem, i) => {
      const key = problem.at.pointer.slice(problem.at.pointer.lastIndexOf('/'));
      const field = {
        ...problem,
        pointer: `${problem.pointer === '/' ? '' : problem.pointer}${key}`,
      };
      return i < LISTED_PROBLEMS ? placedProblem(text, field, toFileLine, false) : field.pointer;
    }),
    all: found.all,
  });
  const newer = isNewerVersion(writtenBy, toolVersion);
  const fix = newer ? `; use evalgate ${printable(writtenBy)} or newer for it` : '';
  return new ArtifactReadError(
    'invalid',
    `${name} ${writtenByText(writtenBy, toolVersion)}, and has fields this evalgate does not know, which the artifact it writes from the file would lose: ${fields}${fix}`,
    { writtenBy, fields },
  );
}

/**
 * The schema problems of `value`, parsed whole from `text`, as `validateArtifact` words them, the
 * ones a message lists with their line and column after the pointer: for readers that validate
 * a file themselves and list the first few.
 */
export function placedProblems(text: string, value: unknown): FoundProblems<string> {
  return placed(text, artifactProblems(value, 'ignore'));
}

/**
 * `found` as lines, the first {@link LISTED_PROBLEMS} placed in `text` (each is a pass over the
 * text: only those a message lists).
 */
function placed(
  text: string,
  found: FoundProblems,
  toFileLine?: (line: number) => number,
): FoundProblems<string> {
  const problems = found.problems.map((problem, i) =>
    i < LISTED_PROBLEMS ? placedProblem(text, problem, toFileLine) : problemText(problem),
  );
  return { problems, all: found.all };
}

/** `/runs/0/verdict (line 40, column 18): must be ...`; the pointer alone when it is not found. */
function placedProblem(
  text: string,
  problem: ArtifactProblem,
  toFileLine: (line: number) => number = (line) => line,
  withMessage = true,
): string {
  const said = withMessage ? `: ${problem.message}` : '';
  const found = locateJsonPointer(text, problem.at.pointer);
  if (found === null) return `${problem.pointer}${said}`;
  const { line, col } = lineAndColumn(text, problem.at.key ? found.key : found.value);
  return `${problem.pointer} (line ${toFileLine(line)}, column ${col})${said}`;
}

/**
 * The error for a file named `name` whose text is not JSON, on one line: where it first goes
 * wrong (line and column, counted from `firstLine` when `text` is one line of the file) and what
 * was expected there, the same on every Node version (`explainJsonError`); a text that ends
 * where it goes wrong is said to end early, as a killed writer or a broken download leaves it.
 */
export function notJson(
  name: string,
  error: unknown,
  text: string,
  firstLine = 1,
  scrub?: Scrub,
): ArtifactReadError {
  if (text.trim() === '') return new ArtifactReadError('not-json', `${name} is empty, not JSON`);
  // Scrubbed here, where the quoted token is still whole: the finished message, cut to 20
  // characters, may hold the first few of a secret that no scrubbing recognises any more.
  const found = explainJsonError(text, error, scrub);
  const before = text.slice(0, found.offset);
  const line = firstLine + (before.match(/\n/g)?.length ?? 0);
  const col = found.offset - (before.lastIndexOf('\n') + 1) + 1;
  const early =
    found.endsEarly === true
      ? ' (the file ends early: written only in part, or cut off in a copy or download?)'
      : '';
  const reason = found.message.replaceAll('\n', '\\n').replaceAll('\r', '\\r');
  return new ArtifactReadError(
    'not-json',
    `${name} is not JSON: at line ${line}, column ${col}: ${reason}${early}`,
  );
}

/** The error for a file named `name` that could not be read (`error` from the read). */
export function unreadable(name: string, error: unknown): ArtifactReadError {
  const code = (error as NodeJS.ErrnoException).code;
  return new ArtifactReadError(
    'unreadable',
    code === 'ENOENT'
      ? `${name}: no such results file`
      : code === 'EISDIR'
        ? `${name}: is a folder, not a results file`
        : `${name}: cannot read it (${code ?? String(error)})`,
  );
}

/** What `read` read from an artifact file, or why the file cannot be read. */
export function readArtifact<T>(
  read: () => T,
): { ok: true; value: T } | { ok: false; message: string; kind: ArtifactReadError['kind'] } {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof ArtifactReadError)
      return { ok: false, message: error.message, kind: error.kind };
    throw error;
  }
}
