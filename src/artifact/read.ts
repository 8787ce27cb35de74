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
import { ArtifactReadError, invalid, notJson, unknownRefusal, unreadable } from './read-errors.ts';
import {
  artifactProblems,
  caseProblems,
  isExactlyValid,
  type FoundProblems,
  type UnknownProperties,
} from './schema.ts';
import { collectUnknownFields, noUnknownFields, type UnknownFields } from './unknown-fields.ts';
import type { Scrub } from '../shared/json-syntax.ts';
import { dropDamagedComparison, type DroppedComparison } from './damaged-comparison.ts';
import { dropOldComparison } from './old-comparison.ts';
import { kindOf } from '../shared/regular-file.ts';

export {
  ArtifactReadError,
  notJson,
  placedProblems,
  readArtifact,
  unreadable,
} from './read-errors.ts';

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
  /**
   * The properties this evalgate does not know that were ignored, in the frame and in the cases
   * read so far (opened with `unknown: 'ignore'`); none with `refuse`, which refuses them.
   */
  unknown: UnknownFields;
  /**
   * With `dropDamagedComparison`: the problems of a `comparison` block that was left out of
   * `frame` because it alone made the file invalid, and the baseline it still names (or why not).
   */
  droppedComparison?: DroppedComparison;
}

/** How {@link openArtifactFile} reads a file. */
export interface ReadOptions {
  /** Removes secrets from what a message quotes of text that is not JSON, before it is cut. */
  scrub?: Scrub | undefined;
  /**
   * What becomes of properties this evalgate's schema does not list (a newer evalgate's):
   * `ignore` (the default), for a command that only reads the file, which says so
   * (`ArtifactFile.unknown`); `refuse`, for one that writes an artifact from it and would lose
   * them.
   */
  unknown?: UnknownProperties;
  /**
   * Leaves out a `comparison` block that alone makes the file invalid (saying why in
   * `ArtifactFile.droppedComparison`), for a command that computes the comparison again
   * (`--resume`) and so does not need it.
   */
  dropDamagedComparison?: boolean;
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
 * unreadable file, text that is not JSON, or a frame the results schema rejects (`options`).
 */
export function openArtifactFile(
  path: string,
  name: string,
  options: ReadOptions = {},
): ArtifactFile {
  const reading: Reading = {
    name,
    scrub: options.scrub,
    mode: options.unknown ?? 'ignore',
    unknown: noUnknownFields(),
    writtenBy: '',
    dropComparison: options.dropDamagedComparison === true,
  };
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
      check(frame, reading, scanned.frameText, (line) => fileLine(line, blocks));
      return streamed(path, reading, frame as ResultsArtifact, scanned.lines);
    }
  }
  return inMemory(path, reading);
}

/** What a read of one file goes by, and what it found so far. */
interface Reading {
  name: string;
  scrub: Scrub | undefined;
  mode: UnknownProperties;
  unknown: UnknownFields;
  /** The evalgate version the frame says wrote the file, once it is checked. */
  writtenBy: string;
  /** Whether a damaged `comparison` is left out (see `ReadOptions`), and its problems if it was. */
  dropComparison: boolean;
  droppedComparison?: DroppedComparison;
}

/**
 * The artifact at `path` (shown as `name`) with every case read a case at a time and reduced by
 * the reducer `reducer(index, run)` gives for its run (`comparableCases(run)`, or one that keeps
 * count within a run): what a caller that reads every case but needs only part of each holds. Throws
 * {@link ArtifactReadError} as {@link openArtifactFile}, with `options` as there; with it, the
 * properties this evalgate does not know that were ignored.
 */
export function readReducedArtifact(
  path: string,
  name: string,
  reducer: (index: number, run: RunResult) => (result: CaseResult) => CaseResult,
  options: ReadOptions = {},
): { artifact: ResultsArtifact; unknown: UnknownFields } {
  const file = openArtifactFile(path, name, options);
  const runs = file.frame.runs.map((run, i) => {
    const reduce = reducer(i, run);
    return { ...run, cases: Array.from(file.cases(i), (result) => reduce(result)) };
  });
  return { artifact: { ...file.frame, runs }, unknown: file.unknown };
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
  reading: Reading,
  frame: ResultsArtifact,
  found: Map<number, CaseLines>,
): ArtifactFile {
  const { name } = reading;
  return {
    frame,
    unknown: reading.unknown,
    ...(reading.droppedComparison !== undefined && {
      droppedComparison: reading.droppedComparison,
    }),
    caseCounts: frame.runs.map((_, r) => found.get(r)?.count ?? 0),
    *cases(run) {
      const where = found.get(run);
      if (where === undefined) return;
      const fd = openSync(path, 'r');
      try {
        let i = 0;
        for (const { bytes, from, to } of lines(fd, where.start, where.end)) {
          yield parseCase(bytes.toString('utf8', from, to), reading, run, i, where.line + i);
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
  reading: Reading,
  run: number,
  index: number,
  lineNo: number,
): CaseResult {
  let value: unknown;
  try {
    value = caseOfLine(line);
  } catch (error) {
    throw notJson(reading.name, error, line, lineNo, reading.scrub);
  }
  const prefix = `/runs/${run}/cases/${index}`;
  validate('case', value, reading, line, (at) => at + lineNo - 1, prefix);
  return value as CaseResult;
}

/** The whole-file path, for a file not laid out a case per line: parsed and validated at once. */
function inMemory(path: string, reading: Reading): ArtifactFile {
  const { name } = reading;
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
    throw notJson(name, error, text, 1, reading.scrub);
  }
  check(value, reading, text);
  const artifact = value as ResultsArtifact;
  return {
    frame: { ...artifact, runs: artifact.runs.map((run) => ({ ...run, cases: [] })) },
    caseCounts: artifact.runs.map((run) => run.cases.length),
    *cases(run) {
      yield* artifact.runs[run]?.cases ?? [];
    },
    unknown: reading.unknown,
    ...(reading.droppedComparison !== undefined && {
      droppedComparison: reading.droppedComparison,
    }),
  };
}

/** Throws when `value`, parsed from `text`, is not a results artifact (see {@link validate}). */
function check(
  value: unknown,
  reading: Reading,
  text: string,
  toFileLine?: (line: number) => number,
): void {
  // Recorded by an earlier evalgate in another shape: only a record, left out with a note.
  if (dropOldComparison(value, reading.mode)) reading.unknown.oldComparison = true;
  if (reading.dropComparison)
    reading.droppedComparison ??= dropDamagedComparison(value, reading.mode);
  validate('results', value, reading, text, toFileLine, '');
  reading.writtenBy = (value as ResultsArtifact).tool.version;
}

/**
 * Throws when `value`, a `part` of the file parsed from `text` (whose line L is the file's line
 * `toFileLine(L)`) at `prefix`, is not valid as `reading.mode` reads it: {@link invalid} names its
 * problems, or, when the only ones are properties this evalgate does not know,
 * {@link unknownRefusal} says why they are refused. Else, with `ignore`, notes those properties.
 */
function validate(
  part: 'results' | 'case',
  value: unknown,
  reading: Reading,
  text: string,
  toFileLine: ((line: number) => number) | undefined,
  prefix: string,
): void {
  // A file this evalgate wrote costs one pass that stops at the first problem, in either mode.
  if (reading.mode === 'ignore' && isExactlyValid(part, value)) return;
  const problemsOf = (mode: UnknownProperties): FoundProblems =>
    part === 'results' ? artifactProblems(value, mode) : caseProblems(value, mode);
  const found = problemsOf(reading.mode);
  if (found.problems.length === 0) {
    if (reading.mode === 'ignore') {
      const at = prefix === '' ? '' : prefix.replace(/\/\d+/g, '/*');
      collectUnknownFields(part, value, reading.unknown, at);
    }
    return;
  }
  const problems = found.problems.map((p) => ({
    ...p,
    pointer: prefix === '' ? p.pointer : p.pointer === '/' ? prefix : prefix + p.pointer,
  }));
  const rebased = { problems, all: found.all };
  if (reading.mode === 'refuse' && problemsOf('ignore').problems.length === 0) {
    const writtenBy =
      part === 'results' ? (value as ResultsArtifact).tool.version : reading.writtenBy;
    throw unknownRefusal(reading.name, rebased, writtenBy, text, toFileLine);
  }
  throw invalid(reading.name, rebased, text, toFileLine);
}
