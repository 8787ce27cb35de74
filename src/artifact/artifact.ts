/**
 * The results artifact (`schemas/results.schema.json`): assembled from the engine's runs and
 * serialized for `-o results.json`. Pure: the caller supplies the clock readings and git info.
 */
import { addUsage } from '../judge/usage.ts';
import type { ResultsArtifact, RunResult, Usage, Verdict } from '../types/index.ts';

/** Everything `buildArtifact` needs; the caller gathers it at the edge (git, config hash, clock). */
export interface ArtifactInput {
  toolVersion: string;
  /** Path of the config as the user gave it. */
  config: string;
  configHash: string;
  git: ResultsArtifact['git'];
  startedAt: Date;
  durationMs: number;
  interrupted: boolean;
  runs: RunResult[];
}

/**
 * Assembles the artifact. The verdict is `pass` only when every run passed and the run was not
 * interrupted: a partial run never passes, even if what finished looked fine. `usage` sums the
 * runs' model calls and is absent when no run made any.
 */
export function buildArtifact(input: ArtifactInput): ResultsArtifact {
  const usage = totalUsage(input.runs);
  return {
    schemaVersion: 1,
    tool: { name: 'evalgate', version: input.toolVersion },
    config: input.config,
    configHash: input.configHash,
    git: input.git,
    startedAt: input.startedAt.toISOString(),
    durationMs: input.durationMs,
    interrupted: input.interrupted,
    verdict: overallVerdict(input.runs, input.interrupted),
    runs: input.runs,
    ...(usage !== undefined ? { usage } : {}),
  };
}

/** The sum of the runs' `summary.usage`; `undefined` when none has any. */
export function totalUsage(runs: readonly RunResult[]): Usage | undefined {
  let total: Usage | undefined;
  for (const run of runs) {
    const usage = run.summary.usage;
    if (usage !== undefined) total = total === undefined ? { ...usage } : addUsage(total, usage);
  }
  return total;
}

/** `pass` when every run passed and nothing was cut short. No runs at all counts as a pass. */
export function overallVerdict(runs: readonly RunResult[], interrupted: boolean): Verdict {
  return !interrupted && runs.every((run) => run.verdict === 'pass') ? 'pass' : 'fail';
}

/**
 * The artifact's text: pretty JSON (2-space indent, trailing newline) with each case compact on
 * one line. A case per line keeps diffs and grep per case, and halves a large artifact: 10,000
 * cases × 3 evaluations take ~8 MB instead of ~17 MB, and half the time to write.
 *
 * `output` and `data` come from user code and may hold values JSON cannot represent. Rather than
 * lose a long run at the last step, a value that fails the fast pass is retried with a replacer
 * that writes BigInts as strings and cycles as `"[Circular]"`.
 */
export function serializeArtifact(artifact: ResultsArtifact): string {
  return [...serializeArtifactChunks(artifact)].join('');
}

/**
 * The same text as `serializeArtifact`, one case at a time, so writing a large artifact never
 * holds the whole multi-megabyte string (nor JSON.stringify's intermediate copies) at once.
 */
export function* serializeArtifactChunks(artifact: ResultsArtifact): Generator<string> {
  for (const part of artifactLayout(artifact, (run) => run.cases.length > 0)) {
    if (typeof part === 'string') yield part;
    else {
      const { cases } = artifact.runs[part.run]!;
      for (const [c, testCase] of cases.entries()) {
        yield caseLine(stringifyCase(testCase), c === cases.length - 1);
      }
    }
  }
}

/** Where a run's case lines go in {@link artifactLayout}: `caseLine` for each, in order. */
export interface CaseLinesSlot {
  run: number;
}

/**
 * The artifact's text with each run's case lines left out: the frame (everything but the cases,
 * pretty-printed) as strings, and one slot per run that has cases, where the caller writes that
 * run's `caseLine`s. `hasCases(run, index)` says whether the run has any (an empty one is `[]`).
 * The streaming writer (`artifact-writer.ts`) fills the slots from its spool files, so both
 * writers share one format by construction; `artifact.runs[i].cases` is not read here.
 */
export function* artifactLayout(
  artifact: ResultsArtifact,
  hasCases: (run: RunResult, index: number) => boolean,
): Generator<string | CaseLinesSlot> {
  const [beforeRuns, afterRuns] = splitAround(artifact, 'runs', 0);
  yield beforeRuns;
  if (artifact.runs.length === 0) yield '[]';
  else {
    yield '[\n';
    for (const [r, run] of artifact.runs.entries()) {
      const [beforeCases, afterCases] = splitAround(run, 'cases', 4);
      yield `    ${beforeCases}`;
      if (!hasCases(run, r)) yield '[]';
      else {
        yield '[\n';
        yield { run: r };
        yield '      ]';
      }
      yield `${afterCases}${r < artifact.runs.length - 1 ? ',' : ''}\n`;
    }
    yield '  ]';
  }
  yield `${afterRuns}\n`;
}

/** Indentation of a case's line inside its run's `cases` array. */
const CASE_INDENT = '        ';

/** One case's line inside its run's `cases` array, from its compact JSON. */
export function caseLine(json: string, last: boolean): string {
  return `${CASE_INDENT}${json}${last ? '' : ','}\n`;
}

/** The bytes {@link caseLine} adds to a case's JSON that is not the last of its run. */
export const CASE_LINE_EXTRA_BYTES = CASE_INDENT.length + 2;

/**
 * Writes `caseLine(json, false)` into `buffer` at `at`, which must have room for it; returns the
 * bytes written. In pieces, because concatenating first copies the case's JSON once more, and a
 * large run spools hundreds of megabytes of it.
 */
export function writeCaseLine(buffer: Buffer, at: number, json: string): number {
  const from = at + CASE_INDENT.length;
  buffer.fill(0x20, at, from);
  const end = from + buffer.write(json, from);
  buffer[end] = 0x2c; // ,
  buffer[end + 1] = 0x0a; // \n
  return end + 2 - at;
}

/** The case a {@link caseLine} holds (its text without the line's indent, comma and newline). */
export function caseOfLine(line: string): RunResult['cases'][number] {
  let end = line.length;
  if (line.endsWith('\n')) end--;
  if (line[end - 1] === ',') end--;
  return JSON.parse(line.slice(CASE_INDENT.length, end)) as RunResult['cases'][number];
}

/**
 * A case as compact JSON, the text of its line in the artifact. BigInts and cycles in user
 * values are written as strings rather than failing the whole artifact (see `serializeArtifact`).
 */
export function stringifyCase(result: RunResult['cases'][number]): string {
  return stringify(result, 0);
}

/**
 * `value` pretty-printed at `depth` spaces with its array member `key` cut out: the text before
 * the array and the text after it, so the caller can write the array's items one by one.
 */
function splitAround<T extends object>(value: T, key: keyof T, depth: number): [string, string] {
  const marker = '\u0000evalgate-split\u0000';
  const text = indent(stringify({ ...value, [key]: marker }), depth);
  const quoted = JSON.stringify(marker);
  // The array is the last member, so its marker is the last occurrence (params may hold anything).
  const at = text.lastIndexOf(quoted);
  return [text.slice(0, at), text.slice(at + quoted.length)];
}

function indent(text: string, depth: number): string {
  return depth === 0 ? text : text.replaceAll('\n', `\n${' '.repeat(depth)}`);
}

function stringify(value: unknown, space = 2): string {
  try {
    return JSON.stringify(value, null, space);
  } catch {
    return JSON.stringify(value, safeReplacer(), space);
  }
}

function safeReplacer(): (this: unknown, key: string, value: unknown) => unknown {
  // The ancestors of the value being written: a value seen among them is a cycle, while the
  // same object reached twice through different branches is written twice, as JSON.stringify does.
  const ancestors: unknown[] = [];
  return function (this: unknown, _key: string, value: unknown): unknown {
    if (typeof value === 'bigint') return value.toString();
    if (value === null || typeof value !== 'object') return value;
    while (ancestors.length > 0 && ancestors[ancestors.length - 1] !== this) ancestors.pop();
    if (ancestors.includes(value)) return '[Circular]';
    ancestors.push(value);
    return value;
  };
}
