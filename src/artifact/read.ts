/**
 * Reading a results artifact without holding its cases: `evals merge` and `evals run --resume`
 * go through every case of inputs that may hold hundreds of thousands (a 200,000-case artifact
 * is ~150 MB of JSON, several times that once parsed).
 *
 * The artifact evalgate writes (`artifactLayout`) puts each case on a line of its own inside its
 * run's `cases` array, and JSON text has no raw newlines inside strings, so a scan of the lines
 * finds the frame (everything but the cases, a few kilobytes) and where each case line is
 * without parsing any case. The frame is parsed and validated at once; the cases are parsed and
 * validated one at a time as a caller reads them.
 *
 * A file laid out otherwise (reformatted by another tool, written compact on one line) is still
 * read, by parsing it whole as before; only the memory saving is lost.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import type { CaseResult, ResultsArtifact, RunResult } from '../types/index.ts';
import { caseOfLine } from './artifact.ts';
import { lines } from './fd-io.ts';
import {
  artifactProblems,
  caseProblems,
  LISTED_PROBLEMS,
  listProblems,
  problemText,
  type ArtifactProblem,
  type FoundProblems,
} from './schema.ts';
import { explainJsonError, type Scrub } from '../shared/json-syntax.ts';
import { lineAndColumn, locateJsonPointer } from '../shared/json-pointer.ts';
import { kindOf } from '../shared/regular-file.ts';

/** A results artifact: its frame in memory, its cases read on demand. */
export interface ArtifactFile {
  /** The artifact with every run's `cases` empty. */
  frame: ResultsArtifact;
  /** How many cases each run holds. */
  caseCounts: number[];
  /**
   * Run `run`'s cases in file order, each checked against the results schema as it is read
   * (an invalid one throws {@link ArtifactReadError}).
   */
  cases(run: number): Generator<CaseResult>;
}

/** Why a file cannot be read as a results artifact. */
export class ArtifactReadError extends Error {
  constructor(
    readonly kind: 'unreadable' | 'not-json' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'ArtifactReadError';
  }
}

/** The lines the scan keys on, exactly as `artifactLayout` writes them. */
const RUNS_OPEN = '  "runs": [';
const RUNS_CLOSE = '  ]';
const RUN_OPEN = '    {';
const CASES_OPEN = '      "cases": [';
const CASES_CLOSE = '      ]';
const CASE_START = Buffer.from('        {');

/** Where one run's case lines are: consecutive lines, so a start, an end and a count. */
interface CaseLines {
  /** Byte offset of the first case line and the end of the last (its newline excluded). */
  start: number;
  end: number;
  count: number;
  /** 1-based line number of the first case line, for messages. */
  line: number;
}

/**
 * Opens `path` (shown as `name` in messages). Throws {@link ArtifactReadError} for a missing or
 * unreadable file, text that is not JSON, or a frame the results schema rejects. `scrub` removes
 * secrets from what a message quotes of text that is not JSON, before it is cut short.
 */
export function openArtifactFile(path: string, name: string, scrub?: Scrub): ArtifactFile {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO would otherwise block `open` until a writer comes, on the main
    // thread, where not even SIGTERM is handled; it is refused below instead.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw unreadable(name, error);
  }
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    // Each run's cases are read again from the path later, which a pipe cannot give twice.
    throw stats.isDirectory()
      ? unreadable(name, Object.assign(new Error('EISDIR'), { code: 'EISDIR' }))
      : new ArtifactReadError(
          'unreadable',
          `${name}: is ${kindOf(stats)}, not a results file; save the results to a file and name that`,
        );
  }
  let scanned: Scanned | null;
  try {
    scanned = scan(fd);
  } catch (error) {
    throw unreadable(name, error);
  } finally {
    closeSync(fd);
  }
  if (scanned !== null) {
    let frame: unknown;
    try {
      frame = JSON.parse(scanned.frameText);
    } catch {
      frame = undefined; // not our layout after all (or not JSON): the whole-file path says which
    }
    const runs = (frame as { runs?: unknown } | undefined)?.runs;
    if (Array.isArray(runs) && [...scanned.lines.keys()].every((r) => r < runs.length)) {
      const blocks = [...scanned.lines.values()].sort((a, b) => a.line - b.line);
      check(frame, name, scanned.frameText, (line) => fileLine(line, blocks));
      return streamed(path, name, frame as ResultsArtifact, scanned.lines, scrub);
    }
  }
  return inMemory(path, name, scrub);
}

/**
 * The artifact at `path` (shown as `name`) with every case read a case at a time and reduced by
 * the reducer `reducer(index, run)` gives for its run (`comparableCases(run)`, or one that keeps
 * count within a run): what a caller that reads every case but needs only part of each holds. Throws
 * {@link ArtifactReadError} as {@link openArtifactFile}, with `scrub` as there.
 */
export function readReducedArtifact(
  path: string,
  name: string,
  reducer: (index: number, run: RunResult) => (result: CaseResult) => CaseResult,
  scrub?: Scrub,
): ResultsArtifact {
  const file = openArtifactFile(path, name, scrub);
  const runs = file.frame.runs.map((run, i) => {
    const reduce = reducer(i, run);
    return { ...run, cases: Array.from(file.cases(i), (result) => reduce(result)) };
  });
  return { ...file.frame, runs };
}

/** The frame's text (the file without its case lines) and where each run's case lines are. */
interface Scanned {
  frameText: string;
  lines: Map<number, CaseLines>;
}

/**
 * The file's line number of line `line` of the frame's text: the frame leaves out the case
 * lines, `blocks` (in file order).
 */
function fileLine(line: number, blocks: readonly CaseLines[]): number {
  let at = line;
  for (const block of blocks) {
    if (block.line > at) break;
    at += block.count;
  }
  return at;
}

/**
 * The frame's text and each run's case lines, or null when the file is not laid out as
 * `artifactLayout` writes it. Works on bytes: only frame lines are decoded.
 */
function scan(fd: number): Scanned | null {
  const frame: string[] = [];
  const found = new Map<number, CaseLines>();
  let state: 'top' | 'runs' | 'cases' | 'after' = 'top';
  let run = -1;
  let current: CaseLines | null = null;
  let lineNo = 0;
  let lastHadComma = false;
  for (const { bytes, from, to, offset } of lines(fd, 0, fstatSync(fd).size)) {
    lineNo++;
    if (
      state === 'cases' &&
      to - from > CASE_START.length &&
      bytes.compare(CASE_START, 0, CASE_START.length, from, from + CASE_START.length) === 0
    ) {
      // A case line: `{…}` or `{…},` after the indent. Not parsed here.
      const comma = bytes[to - 1] === 0x2c;
      if (bytes[comma ? to - 2 : to - 1] !== 0x7d) return null;
      if (current === null) current = { start: offset, end: 0, count: 0, line: lineNo };
      else if (!lastHadComma) return null;
      current.end = offset + (to - from);
      current.count++;
      lastHadComma = comma;
      continue;
    }
    const text = bytes.toString('utf8', from, to);
    frame.push(text, '\n');
    if (state === 'cases') {
      if (text !== CASES_CLOSE || current === null || lastHadComma) return null;
      found.set(run, current);
      current = null;
      state = 'runs';
    } else if (state === 'top') {
      if (text === RUNS_OPEN) state = 'runs';
    } else if (state === 'runs') {
      if (text === RUN_OPEN) run++;
      else if (text === CASES_OPEN) state = 'cases';
      else if (text === RUNS_CLOSE || text === `${RUNS_CLOSE},`) state = 'after';
    }
  }
  return state === 'after' ? { frameText: frame.join(''), lines: found } : null;
}

function streamed(
  path: string,
  name: string,
  frame: ResultsArtifact,
  found: Map<number, CaseLines>,
  scrub: Scrub | undefined,
): ArtifactFile {
  return {
    frame,
    caseCounts: frame.runs.map((_, r) => found.get(r)?.count ?? 0),
    *cases(run) {
      const where = found.get(run);
      if (where === undefined) return;
      const fd = openSync(path, 'r');
      try {
        let i = 0;
        for (const { bytes, from, to } of lines(fd, where.start, where.end)) {
          yield parseCase(bytes.toString('utf8', from, to), name, run, i, where.line + i, scrub);
          i++;
        }
        if (i !== where.count) throw new Error('the file changed while it was read');
      } catch (error) {
        if (error instanceof ArtifactReadError) throw error;
        throw unreadable(name, error);
      } finally {
        closeSync(fd);
      }
    },
  };
}

function parseCase(
  line: string,
  name: string,
  run: number,
  index: number,
  lineNo: number,
  scrub: Scrub | undefined,
): CaseResult {
  let value: unknown;
  try {
    value = caseOfLine(line);
  } catch (error) {
    throw notJson(name, error, line, lineNo, scrub);
  }
  const found = caseProblems(value);
  if (found.problems.length > 0) {
    const prefix = `/runs/${run}/cases/${index}`;
    const problems = found.problems.map((p) => ({
      ...p,
      pointer: p.pointer === '/' ? prefix : prefix + p.pointer,
    }));
    throw invalid(name, { problems, all: found.all }, line, (at) => at + lineNo - 1);
  }
  return value as CaseResult;
}

/** The whole-file path, for a file not laid out a case per line: parsed and validated at once. */
function inMemory(path: string, name: string, scrub: Scrub | undefined): ArtifactFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw unreadable(name, error);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw notJson(name, error, text, 1, scrub);
  }
  check(value, name, text);
  const artifact = value as ResultsArtifact;
  return {
    frame: { ...artifact, runs: artifact.runs.map((run) => ({ ...run, cases: [] })) },
    caseCounts: artifact.runs.map((run) => run.cases.length),
    *cases(run) {
      yield* artifact.runs[run]?.cases ?? [];
    },
  };
}

/** Throws when `value`, parsed from `text`, is not a results artifact (see {@link invalid}). */
function check(
  value: unknown,
  name: string,
  text: string,
  toFileLine?: (line: number) => number,
): void {
  const found = artifactProblems(value);
  if (found.problems.length > 0) throw invalid(name, found, text, toFileLine);
}

/**
 * The error for the schema problems `found` in the file named `name`, the listed ones placed at
 * their line and column in `text` (the file's text, or a part of it whose line L is the file's
 * line `toFileLine(L)`), as the pointer alone does not say where to look in a large file.
 */
function invalid(
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
 * The schema problems of `value`, parsed whole from `text`, as `validateArtifact` words them, the
 * ones a message lists with their line and column after the pointer: for readers that validate
 * a file themselves and list the first few.
 */
export function placedProblems(text: string, value: unknown): FoundProblems<string> {
  return placed(text, artifactProblems(value));
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
): string {
  const found = locateJsonPointer(text, problem.at.pointer);
  if (found === null) return problemText(problem);
  const { line, col } = lineAndColumn(text, problem.at.key ? found.key : found.value);
  return `${problem.pointer} (line ${toFileLine(line)}, column ${col}): ${problem.message}`;
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
