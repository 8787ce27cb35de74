/**
 * Reading a recovery journal (see journal.ts) back: its header, whether the process that wrote
 * it is gone, and the partial artifact it stands for, rebuilt as the exit guard would have
 * written it: the frame recorded as the run went, each run holding the cases the journal has,
 * its summary and gate counted again from them (as `evals merge` counts), `interrupted: true`.
 */
import { readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import type { CaseResult, ResultsArtifact, RunResult } from '../types/index.ts';
import { isRecord } from '../shared/is-record.ts';
import { evaluateRunGate } from '../run/gate.ts';
import { planAccumulator } from '../run/summary.ts';
import { overallVerdict, totalUsage } from './artifact.ts';
import type { JournalHeader } from './journal.ts';
import { validateArtifact } from './schema.ts';

/** A journal read back. */
export interface ReadJournal {
  header: JournalHeader;
  /** When it was last written: the process was killed at or after it. */
  lastWrite: Date;
  /** The partial artifact it stands for; undefined when no case finished before the kill. */
  artifact: ResultsArtifact | undefined;
  /** Cases recovered, and cases the run planned. */
  recovered: number;
  planned: number;
  /** Whether the last line was cut short by the kill (and dropped). */
  torn: boolean;
}

/** The journal `path`'s header; undefined when there is none (or it is not a journal). */
export function readJournalHeader(path: string): JournalHeader | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const end = text.indexOf('\n');
  return end < 0 ? undefined : header(text.slice(0, end));
}

function header(line: string): JournalHeader | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (isRecord(value) && value.evalgateJournal === 1 && typeof value.pid === 'number') {
      return value as unknown as JournalHeader;
    }
  } catch {
    // not a journal
  }
  return undefined;
}

/**
 * How long a journal may go untouched while its writer lives: the writer touches it every
 * `HEARTBEAT_MS` (journal.ts), also while no case finishes, so one quiet for this long has no
 * writer, whatever its pid or host say (a pid reused since, a container that is gone).
 */
export const STALE_MS = 60_000;

/**
 * Whether the process that wrote the journal at `path` (whose header is `journal`) still runs:
 * not when the journal has gone untouched for {@link STALE_MS}; else on another host it cannot
 * be told, so it counts as running (two machines writing one shared folder are refused, not
 * raced), and on this one its pid is asked.
 */
export function writerAlive(journal: JournalHeader, path: string): boolean {
  let touched: number;
  try {
    touched = statSync(path).mtimeMs;
  } catch {
    return false;
  }
  if (Date.now() - touched > STALE_MS) return false;
  if (journal.host !== hostname()) return true;
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

/** Reads the journal at `path` whole; throws (with a message naming it) when it is not one. */
export function readJournal(path: string): ReadJournal {
  const text = readFileSync(path, 'utf8');
  const lastWrite = statSync(path).mtime;
  const lines = text.split('\n');
  // A kill during a write leaves the last line without its newline: it is dropped.
  const tail = lines.pop() ?? '';
  let torn = tail !== '';
  const head = header(lines[0] ?? '');
  if (head === undefined) throw new Error(`${path} is not an evalgate recovery journal`);
  let frame: { at: number; artifact: ResultsArtifact } | undefined;
  const cases: CaseResult[][] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const space = line.indexOf(' ');
    let value: unknown;
    try {
      value = JSON.parse(line.slice(space + 1));
    } catch {
      // Only the last line can be cut short; anything else is not a journal evalgate wrote.
      if (i === lines.length - 1) {
        torn = true;
        break;
      }
      throw new Error(`${path}:${i + 1}: this line of the recovery journal is not JSON`);
    }
    const tag = line.slice(0, space);
    if (tag === 'F') frame = value as { at: number; artifact: ResultsArtifact };
    else (cases[Number(tag)] ??= []).push(value as CaseResult);
  }
  if (frame === undefined) {
    return { header: head, lastWrite, artifact: undefined, recovered: 0, planned: 0, torn };
  }
  const runs = frame.artifact.runs.map((run, r) => recount(run, cases[r] ?? [], frame.artifact));
  const recovered = runs.reduce((sum, run) => sum + run.cases.length, 0);
  const planned = runs.reduce((sum, run) => sum + run.testset.cases, 0);
  const usage = totalUsage(runs);
  const { usage: _usage, ...rest } = frame.artifact;
  const artifact: ResultsArtifact = {
    ...rest,
    // The run went on after its frame was written, until its last write.
    durationMs: frame.artifact.durationMs + Math.max(0, lastWrite.getTime() - frame.at),
    interrupted: true,
    verdict: overallVerdict(runs, true),
    ...(usage !== undefined && { usage }),
    runs,
  };
  const problems = validateArtifact(artifact);
  if (problems.length > 0) {
    throw new Error(`${path} does not make a valid partial artifact: ${problems.join('; ')}`);
  }
  return { header: head, lastWrite, artifact, recovered, planned, torn };
}

/** `run` holding `cases` (in testset order where they record it), counted again. */
function recount(run: RunResult, cases: CaseResult[], artifact: ResultsArtifact): RunResult {
  const { plan } = run;
  if (plan === undefined) return { ...run, cases };
  if (cases.every((c) => c.index !== undefined)) cases.sort((a, b) => a.index! - b.index!);
  const accumulator = planAccumulator(plan);
  for (const result of cases) accumulator.add(result);
  const summary = accumulator.summary();
  const gate = evaluateRunGate(summary, plan.gate, run.testset.cases, artifact.shard !== undefined);
  return { ...run, summary, verdict: gate.verdict, gate: { conditions: gate.conditions }, cases };
}
