/**
 * The results artifact (`schemas/results.schema.json`): assembled from the engine's runs and
 * serialized for `-o results.json`. Pure: the caller supplies the clock readings and git info.
 */
import { addUsage } from '../judge/usage.ts';
import type {
  ConfigDataParts,
  ConfigHashParts,
  ResultsArtifact,
  RunResult,
  Usage,
  Verdict,
} from '../types/index.ts';

/** Everything `buildArtifact` needs; the caller gathers it at the edge (git, config hash, clock). */
export interface ArtifactInput {
  toolVersion: string;
  /** Path of the config as the user gave it. */
  config: string;
  configHash: string;
  /** What `configHash` is the hash of, when it covers files; recorded as `configHashParts`. */
  parts?: ConfigHashParts | undefined;
  /** The config's data hash broken down; recorded as `configDataParts`. */
  dataParts?: ConfigDataParts | undefined;
  git: ResultsArtifact['git'];
  startedAt: Date;
  durationMs: number;
  interrupted: boolean;
  runs: RunResult[];
  /** The config's top-level `removedSuites`, recorded when it sets it. */
  removedSuites?: readonly string[] | undefined;
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
    ...(input.parts !== undefined ? { configHashParts: input.parts } : {}),
    ...(input.dataParts !== undefined ? { configDataParts: input.dataParts } : {}),
    git: input.git,
    startedAt: input.startedAt.toISOString(),
    durationMs: input.durationMs,
    interrupted: input.interrupted,
    verdict: overallVerdict(input.runs, input.interrupted),
    runs: input.runs,
    ...(input.removedSuites !== undefined ? { removedSuites: [...input.removedSuites] } : {}),
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
 * values are written as strings rather than failing the whole artifact (see `serializeArtifact`),
 * and values JSON would drop or empty keep a readable form (see `recordable`).
 */
export function stringifyCase(result: RunResult['cases'][number]): string {
  const { output, trials } = result;
  // A function or Symbol output would leave the case without its `output` key (an artifact no
  // reader accepts): it is recorded as a string saying what it was. O(1) on the usual path.
  if (
    !isPlainData(output) ||
    (trials !== undefined && !trials.every((t) => isPlainData(t.output)))
  ) {
    return JSON.stringify(
      {
        ...result,
        output: topLevel(output),
        ...(trials !== undefined
          ? { trials: trials.map((t) => ({ ...t, output: topLevel(t.output) })) }
          : {}),
      },
      safeReplacer(),
    );
  }
  return stringify(result, 0);
}

/**
 * Whether `value` is written by JSON.stringify without loss at its top level: a primitive JSON
 * has, an array, a plain object, or an object with `toJSON` (a Date). A class instance may be
 * a Map, a Set or an Error, which JSON writes as `{}`.
 */
function isPlainData(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return true;
    case 'object': {
      if (value === null || Array.isArray(value)) return true;
      const proto: unknown = Object.getPrototypeOf(value);
      return (
        proto === Object.prototype ||
        proto === null ||
        typeof (value as { toJSON?: unknown }).toJSON === 'function'
      );
    }
    default:
      return false; // function, symbol, bigint
  }
}

/** An output at the top of a case: a function or Symbol as a string saying what it was. */
function topLevel(value: unknown): unknown {
  if (typeof value === 'function') {
    return value.name === '' ? '[function]' : `[function ${value.name}]`;
  }
  if (typeof value === 'symbol') return `[${value.toString()}]`;
  return value;
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

/**
 * JSON of `value`, natively when that loses nothing. The native pass throws on a BigInt or a
 * cycle, and writes a Map, a Set, an Error or an instance without own fields as `{}`: only a
 * text holding `{}` (an empty object somewhere, perhaps one of those) is written again with the
 * replacer. The check is a scan of the text, so plain data pays no walk of its own.
 */
function stringify(value: unknown, space = 2): string {
  try {
    const text = JSON.stringify(value, null, space);
    if (!text.includes('{}')) return text;
  } catch {
    // written below
  }
  return JSON.stringify(value, safeReplacer(), space);
}

function safeReplacer(): (this: unknown, key: string, value: unknown) => unknown {
  // The ancestors of the value being written, each as given and as written (a Map is written as
  // another object, whose members are then written with it as `this`): a value seen among them
  // is a cycle, while the same object reached twice through different branches is written
  // twice, as JSON.stringify does.
  const ancestors: { given: object; written: unknown }[] = [];
  return function (this: unknown, _key: string, value: unknown): unknown {
    if (typeof value === 'bigint') return value.toString();
    if (value === null || typeof value !== 'object') return value;
    while (ancestors.length > 0 && ancestors[ancestors.length - 1]?.written !== this) {
      ancestors.pop();
    }
    if (ancestors.some((a) => a.given === value)) return '[Circular]';
    const written = recordable(value);
    ancestors.push({ given: value, written });
    return written;
  };
}

/**
 * What the artifact records for an object JSON would write as `{}` (docs/artifact.md): a Map
 * as an object of its entries (an array of `[key, value]` pairs when a key is not a string), a
 * Set as an array of its values, an Error as `{ name, message }` with its own fields (and
 * `cause`), and an instance of another class with no own fields as its text (its `toString()`,
 * such as `/a+/g`, or `[object Response]` naming its class). Anything else is left as it is.
 */
function recordable(value: object): unknown {
  if (value instanceof Map) {
    const entries = [...(value as Map<unknown, unknown>).entries()];
    return entries.every(([key]) => typeof key === 'string')
      ? Object.fromEntries(entries)
      : entries;
  }
  if (value instanceof Set) return [...(value as Set<unknown>)];
  if (value instanceof Error) {
    const { name, message } = value;
    return {
      ...(value as object),
      name,
      message,
      ...(value.cause !== undefined ? { cause: value.cause } : {}),
    };
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null || Array.isArray(value)) return value;
  if (Object.keys(value).length > 0) return value;
  let text = '[object Object]';
  try {
    text = (value as { toString(): string }).toString();
  } catch {
    // a toString that throws: named by its class below
  }
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return text === '[object Object]' && typeof name === 'string' && name !== ''
    ? `[object ${name}]`
    : text;
}
