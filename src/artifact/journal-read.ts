/**
 * Reading a recovery journal (see journal.ts) back: its header, whether the process that wrote
 * it is gone, and the partial artifact it stands for, rebuilt as the exit guard would have
 * written it: the frame recorded as the run went, each run holding the cases the journal has,
 * its summary and gate counted again from them (as `evals merge` counts), `interrupted: true`.
 *
 * Its case files (or, in versions 1 and 2, the journal itself) are as large as the artifact
 * they stand for, which may be more than one string can hold (~512 MB): they are read a line at
 * a time, and the cases go to a case spool (spool.ts), not to memory, whence the recovered
 * partial artifact is written.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  openSync,
  readdirSync,
  readSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import type { CaseResult, ResultsArtifact, RunResult } from '../types/index.ts';
import { isRecord } from '../shared/is-record.ts';
import { recordedRunGate } from '../run/gate.ts';
import { withRecordedPass } from './recorded-pass.ts';
import { planAccumulator } from '../run/summary.ts';
import { overallVerdict, totalUsage } from './artifact.ts';
import { lines, readOpened } from './fd-io.ts';
import { casesDirOf, STALE_MS, type JournalHeader } from './journal.ts';
import { spoolFileName } from './run-spool.ts';
import {
  caseLineProblems,
  JournalUnknownFields,
  recoveredProblems,
  syntaxColumn,
} from './journal-problems.ts';
import { noUnknownFields } from './unknown-fields.ts';
import { CaseSpool } from './spool.ts';

/** A journal read back. */
export interface ReadJournal {
  header: JournalHeader;
  /** When it was last written: the process was killed at or after it. */
  lastWrite: Date;
  /**
   * The partial artifact it stands for, every run's `cases` empty: they are in `spool`, which
   * writes the artifact whole (`spool.writeArtifactSync(path, artifact)`) and must be
   * discarded after. Both undefined when no case finished before the kill.
   */
  artifact: ResultsArtifact | undefined;
  spool: CaseSpool | undefined;
  /** Cases recovered, and cases the run planned. */
  recovered: number;
  planned: number;
  /** Whether the last line was cut short by the kill (and dropped). */
  torn: boolean;
}

/** The journal `path`'s header; undefined when there is none (or it is not a journal). */
export function readJournalHeader(path: string): JournalHeader | undefined {
  return readOpened(path, (fd) => {
    // The header is the first line: a path or two and some numbers.
    const start = Buffer.alloc(1 << 16);
    const read = readSync(fd, start, 0, start.length, 0);
    const end = start.subarray(0, read).indexOf(NEWLINE);
    return end < 0 ? undefined : header(start.toString('utf8', 0, end));
  });
}

function header(line: string): JournalHeader | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (
      isRecord(value) &&
      (value.evalgateJournal === 1 || value.evalgateJournal === 2 || value.evalgateJournal === 3) &&
      typeof value.pid === 'number'
    ) {
      return value as unknown as JournalHeader;
    }
  } catch {
    // not a journal
  }
  return undefined;
}

export { STALE_MS } from './journal.ts';

/**
 * Whether the process that wrote the journal at `path` (whose header is `journal`) still runs:
 * not when the journal has gone untouched for {@link STALE_MS}; else on another host it cannot
 * be told, so it counts as running (two machines writing one shared folder are refused, not
 * raced), and on this one its pid is asked.
 */
export function writerAlive(journal: Pick<JournalHeader, 'host' | 'pid'>, path: string): boolean {
  let touched: number;
  try {
    touched = statSync(path).mtimeMs;
  } catch {
    return false;
  }
  if (Date.now() - touched > STALE_MS) return false;
  if (journal.host !== hostname()) return true;
  return pidExists(journal);
}

/**
 * Whether the journal's writer may still run though its journal went stale: a process of its
 * pid exists on this host (stopped, as by Ctrl-Z, or blocked; or another process given its pid
 * since, which cannot be told apart). Its case files are then left in place, since it writes
 * its results from them when it goes on. False for a journal written on another host.
 */
export function pidExists(journal: Pick<JournalHeader, 'host' | 'pid'>): boolean {
  if (journal.host !== hostname()) return false;
  // A restarted container may hand this process the dead one's pid: that one is gone.
  if (journal.pid === process.pid) return false;
  try {
    process.kill(journal.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When the run that keeps the journal at `path` last wrote a case to it (ms): its results written
 * after that are newer than anything it journaled. Its case files' last write, that is; the
 * journal file's only when there are none (a version 1 or 2 journal holds its cases itself; a
 * version 3 one without case files recovers nothing). Not the file's time otherwise: the writer
 * touches it every `HEARTBEAT_MS` to show it lives, also after its results reach `-o` (while it
 * writes `--junit` or `--report`), so a run killed then would leave a journal that passes for
 * newer than its complete artifact.
 */
export function journalWrittenAt(path: string, journal: JournalHeader): number {
  let at = -Infinity;
  const dir = casesDirOf(path, journal.pid);
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    // A version 1 or 2 journal, or one whose run wrote no case: the journal alone.
  }
  for (const name of names) {
    try {
      at = Math.max(at, statSync(join(dir, name)).mtimeMs);
    } catch {
      // Gone since it was listed.
    }
  }
  return at === -Infinity ? statSync(path).mtimeMs : at;
}

const NEWLINE = 0x0a;
/** How a version 2 case line starts (`caseLine`'s indent and the case's brace). */
const CASE_START = '        {';

/** The journal's frame line. */
interface Frame {
  at: number;
  artifact: ResultsArtifact;
}

/**
 * Reads the journal at `path` (and, from version 3, the case files in its folder); throws (with
 * a message naming the file, and the line) when it is not one. The caller discards the returned
 * `spool`.
 */
export function readJournal(path: string): ReadJournal {
  const reading = new CaseReader();
  try {
    const journal = readLines(path, (line, at) => reading.journalLine(line, at, path));
    const head = reading.head;
    if (head === undefined) throw new Error(`${path} is not an evalgate recovery journal`);
    let torn = journal.torn;
    let lastWrite = journal.mtime;
    if (head.evalgateJournal === 3 && reading.frame !== undefined) {
      const dir = casesDirOf(path, head.pid);
      for (let r = 0; r < reading.frame.artifact.runs.length; r++) {
        const file = join(dir, spoolFileName(r));
        // None when the run had no case written before the kill.
        if (!existsSync(file)) continue;
        const read = readLines(file, (line, at) => reading.caseLine(r, line, at));
        torn ||= read.torn;
        if (read.mtime > lastWrite) lastWrite = read.mtime;
      }
    }
    const { frame, spool, recoveredCases } = reading;
    // A kill between the frame's write and its first cases' leaves a frame alone.
    if (frame === undefined || spool === undefined || recoveredCases === 0) {
      return {
        header: head,
        lastWrite,
        artifact: undefined,
        spool: undefined,
        recovered: 0,
        planned: 0,
        torn,
      };
    }
    const artifact = recovered(frame, spool, lastWrite);
    const problems = recoveredProblems(artifact, reading.unknown);
    if (problems !== null) {
      throw new Error(`${path} does not make a valid partial artifact: ${problems}`);
    }
    // Not damaged: a newer evalgate's, whose fields the partial written here would lose.
    if (reading.unknown.fields.size > 0) {
      throw new JournalUnknownFields(path, artifact.tool.version, reading.unknown);
    }
    const planned = artifact.runs.reduce((sum, r) => sum + r.testset.cases, 0);
    const done = {
      header: head,
      lastWrite,
      artifact,
      spool,
      recovered: recoveredCases,
      planned,
      torn,
    };
    reading.spool = undefined;
    return done;
  } finally {
    reading.spool?.discard();
  }
}

/**
 * Hands each line of file `path` to `line` (with `path:number` for messages), but a last line
 * the kill cut short; says whether there was one, and when the file was last written.
 */
function readLines(
  path: string,
  line: (text: string, at: string) => void,
): { torn: boolean; mtime: Date } {
  const fd = openSync(path, 'r');
  try {
    const stat = fstatSync(fd);
    // A kill during a write leaves the last line without its newline: it is dropped.
    const last = Buffer.alloc(1);
    const torn =
      stat.size > 0 && readSync(fd, last, 0, 1, stat.size - 1) === 1 && last[0] !== NEWLINE;
    let number = 0;
    for (const { bytes, from, to, offset } of lines(fd, 0, stat.size)) {
      number++;
      if (torn && offset + (to - from) >= stat.size - 1) break;
      line(bytes.toString('utf8', from, to), `${path}:${number}`);
    }
    return { torn, mtime: stat.mtime };
  } finally {
    closeSync(fd);
  }
}

/** A journal's lines, and its case files', as they are read: its header, frame and cases. */
class CaseReader {
  head: JournalHeader | undefined;
  frame: Frame | undefined;
  spool: CaseSpool | undefined;
  recoveredCases = 0;
  /** The fields this evalgate does not know met so far (a newer evalgate's). */
  readonly unknown = noUnknownFields();
  /** The run of the case lines that follow (version 2's `R RUN` lines). */
  #run = -1;
  #arrivals: number[] = [];

  /** A line of the journal file itself. */
  journalLine(line: string, at: string, path: string): void {
    if (this.head === undefined) {
      this.head = header(line);
      if (this.head === undefined) throw new Error(`${path} is not an evalgate recovery journal`);
      return;
    }
    if (line.startsWith('R ')) {
      this.#run = Number(line.slice(2));
      return;
    }
    if (line.startsWith(CASE_START)) {
      this.caseLine(this.#run, line, at);
      return;
    }
    // `F FRAME`, or a version 1 journal's `RUN JSON`.
    const space = line.indexOf(' ');
    const tag = line.slice(0, space);
    const json = line.slice(space + 1);
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw notJson(at, syntaxColumn(json, space + 1, error));
    }
    if (tag !== 'F') {
      this.#add(Number(tag), value, at, json, space + 1);
      return;
    }
    if (this.frame !== undefined) throw new Error(`${at}: the recovery journal has a second frame`);
    this.frame = value as Frame;
    this.spool = new CaseSpool();
    this.spool.open(this.frame.artifact.runs.map((r) => ({ cases: r.testset.cases })));
  }

  /** A case line (the artifact's own) of run `run`. */
  caseLine(run: number, line: string, at: string): void {
    // The case's JSON: after the indent, without the comma an artifact's case line may end with.
    const start = CASE_START.length - 1;
    const json = line.slice(start, line.endsWith(',') ? -1 : undefined);
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch (error) {
      throw notJson(at, syntaxColumn(json, start, error));
    }
    this.#add(run, value, at, json, start);
  }

  /** The case `value`, parsed from `json`, the text of line `at` from offset `start` on. */
  #add(r: number, value: unknown, at: string, json: string, start: number): void {
    const { spool, frame } = this;
    const problems = caseLineProblems(json, start, value, this.unknown);
    if (
      spool === undefined ||
      frame === undefined ||
      !(r >= 0 && r < frame.artifact.runs.length) ||
      problems !== null
    ) {
      throw new Error(
        `${at}: this line of the recovery journal is not a case of its run${problems !== null ? ` (${problems})` : ''}`,
      );
    }
    const result = value as CaseResult;
    // In testset order where the cases record it, else as they finished.
    const arrival = (this.#arrivals[r] = (this.#arrivals[r] ?? 0) + 1);
    try {
      spool.recordKeyed(r, result.index ?? arrival, result);
    } catch {
      throw new Error(`${at}: the recovery journal holds more cases than run ${r} has`);
    }
    this.recoveredCases++;
  }
}

/** The error for line `at` (`path:line`) of a journal, not JSON from column `col` on. */
function notJson(at: string, col: number): Error {
  return new Error(`${at}:${col}: this line of the recovery journal is not JSON`);
}

/** The partial artifact `frame` and the cases in `spool` stand for (its cases in `spool`). */
function recovered(frame: Frame, spool: CaseSpool, lastWrite: Date): ResultsArtifact {
  // A journal of an older evalgate may lack plan.pass: the config its frame records tells.
  const runs = frame.artifact.runs.map((run, r) =>
    recount(withRecordedPass(run, frame.artifact), spool.cases(r), frame.artifact),
  );
  const usage = totalUsage(runs);
  const { usage: _usage, ...rest } = frame.artifact;
  return {
    ...rest,
    // The run went on after its frame was written, until its last write.
    durationMs: frame.artifact.durationMs + Math.max(0, lastWrite.getTime() - frame.at),
    interrupted: true,
    verdict: overallVerdict(runs, true),
    ...(usage !== undefined && { usage }),
    runs,
  };
}

/** `run` counted again from `cases` (in testset order), which it does not hold: they stay spooled. */
function recount(
  run: RunResult,
  cases: Iterable<CaseResult>,
  artifact: ResultsArtifact,
): RunResult {
  const { plan } = run;
  if (plan === undefined) return { ...run, cases: [] };
  const accumulator = planAccumulator(plan);
  for (const result of cases) accumulator.add(result);
  const summary = accumulator.summary();
  const gate = recordedRunGate(summary, plan, run.testset.cases, artifact.shard !== undefined);
  return {
    ...run,
    summary,
    verdict: gate.verdict,
    gate: { conditions: gate.conditions },
    cases: [],
  };
}
