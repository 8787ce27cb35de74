/**
 * A case's JSON written member by member: the text `JSON.stringify(result)` gives, in about half
 * its time (the pieces are joined when the line is encoded into the output buffer, which takes
 * some of that back: 100,000 lines like the benchmark's, written into the buffer, ~200 instead of
 * ~245 ms). Every case of a run goes through here once (its artifact line), and at 100,000 cases
 * of a trivial function `JSON.stringify` of the cases was a fifth of the run's wall time (~250 of
 * ~1,400 ms, 75 MB of text). What it spends the time on is the envelope, not the user's values:
 * the same member names over and over, each evaluator's name and threshold written again in
 * every case, and durations, whose shortest decimal form V8 computes afresh every time (~130 ns
 * a number, four numbers a case). Here the envelope is written from cached pieces and the
 * user's values (data, output, metadata, usage) still go through `JSON.stringify`.
 *
 * Exact by construction only for what the results schema allows, which is every case a run,
 * `evals merge` or `--resume` writes: the case, source, trial and evaluation objects are closed
 * (`additionalProperties: false`), so their members are written in the schema's order, the order
 * in which every producer builds them. Anything else (a value with its own `toJSON`, which
 * `JSON.stringify` would call with the member's name; a member that JSON would leave out; a
 * wrong type) throws {@link NOT_PLAIN} and the caller falls back to `JSON.stringify`, as it does
 * for a bigint or a cycle, which throw from inside.
 */
import type {
  CaseResult,
  EvaluationResult,
  TestCaseSource,
  Threshold,
  TrialResult,
} from '../types.ts';

/** Thrown when a case is not as the schema has it; the caller then uses `JSON.stringify`. */
export const NOT_PLAIN = new Error('not a plain case: write it with JSON.stringify');

/** {@link NOT_PLAIN} as a throwing expression. */
function notPlain(): never {
  throw NOT_PLAIN;
}

/** The compact JSON of `result`, equal to `JSON.stringify(result)`; throws when it cannot tell. */
export function caseJson(result: CaseResult): string {
  let text = `{"id":${str(result.id)},"contentId":${str(result.contentId)},"source":${source(result.source)},"data":${value(result.data)},"output":${value(result.output)},"error":${nullableStr(result.error)},"durationMs":${duration(result.durationMs)},"passed":${bool(result.passed)},"evaluations":${list(result.evaluations, evaluation)}`;
  if (result.trials !== undefined) text += `,"trials":${list(result.trials, trial)}`;
  if (result.trialPassRate !== undefined) text += `,"trialPassRate":${num(result.trialPassRate)}`;
  if (result.flaky !== undefined) text += `,"flaky":${bool(result.flaky)}`;
  if (result.index !== undefined) text += `,"index":${num(result.index)}`;
  return `${text}}`;
}

/** `[…]` of `items`, each written by `write`. */
function list<T>(items: readonly T[], write: (item: T) => string): string {
  if (!isList(items)) notPlain();
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item == null) notPlain();
    text += i === 0 ? write(item) : `,${write(item)}`;
  }
  return `${text}]`;
}

function trial(t: TrialResult): string {
  return `{"output":${value(t.output)},"error":${nullableStr(t.error)},"durationMs":${duration(t.durationMs)},"passed":${bool(t.passed)},"evaluations":${list(t.evaluations, evaluation)}}`;
}

function evaluation(e: EvaluationResult): string {
  const head = evaluatorHead(e.evaluator, e.threshold);
  const text = `${head.score}${nullableNum(e.score)}${head.threshold}${nullableBool(e.passed)},"metadata":${e.metadata === null ? 'null' : value(e.metadata)},"error":${nullableStr(e.error)},"durationMs":${duration(e.durationMs)}`;
  return e.usage === undefined ? `${text}}` : `${text},"usage":${value(e.usage)}}`;
}

/**
 * The text around an evaluation's score, per evaluator: `{"evaluator":…,"score":` and
 * `,"threshold":…,"passed":`. A configured evaluator's threshold is one frozen object shared by
 * all its results (see prepare.ts), so its JSON is kept while results carry that object. Any
 * other threshold (one an evaluator returned, one read from an artifact) is written each time:
 * code that returns one object and changes it between cases must see each case's own values.
 */
interface EvaluatorHead {
  score: string;
  thresholdOf: Threshold | null;
  threshold: string;
}

const heads = new Map<string, EvaluatorHead>();
/** Evaluator ids come from configs; a bound keeps a long-lived process from collecting them all. */
const MAX_HEADS = 256;

function evaluatorHead(evaluator: string, threshold: Threshold | null): EvaluatorHead {
  let head = heads.get(evaluator);
  if (head === undefined) {
    if (heads.size >= MAX_HEADS) heads.clear();
    head = {
      score: `{"evaluator":${str(evaluator)},"score":`,
      thresholdOf: threshold,
      threshold: thresholdText(threshold),
    };
    heads.set(evaluator, head);
  } else if (head.thresholdOf !== threshold || !Object.isFrozen(threshold)) {
    head.threshold = thresholdText(threshold);
    head.thresholdOf = threshold;
  }
  return head;
}

function thresholdText(threshold: Threshold | null): string {
  return `,"threshold":${threshold === null ? 'null' : value(threshold)},"passed":`;
}

/** The source objects of one testset share their file: its JSON is kept from the last case. */
let lastFile: string | undefined;
let lastFileJson = '';

function source(s: TestCaseSource | null): string {
  if (s === null) return 'null';
  if (typeof s !== 'object' || typeof s.file !== 'string') notPlain();
  if (s.file !== lastFile) {
    lastFileJson = JSON.stringify(s.file);
    lastFile = s.file;
  }
  return `{"file":${lastFileJson},"line":${num(s.line)}}`;
}

/** `Array.isArray` without its narrowing (a readonly array narrowed by it becomes `any[]`). */
function isList(list: unknown): boolean {
  return Array.isArray(list);
}

/** A user's value. JSON leaves out a member whose value it cannot write, so that is not plain. */
function value(v: unknown): string {
  if (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { toJSON?: unknown }).toJSON === 'function'
  ) {
    notPlain();
  }
  return JSON.stringify(v) ?? notPlain();
}

function str(s: string): string {
  return typeof s === 'string' ? JSON.stringify(s) : notPlain();
}

function nullableStr(s: string | null): string {
  return s === null ? 'null' : str(s);
}

function bool(b: boolean): string {
  return b === true ? 'true' : b === false ? 'false' : notPlain();
}

function nullableBool(b: boolean | null): string {
  return b === null ? 'null' : bool(b);
}

/** As JSON writes a number: non-finite ones are `null`. */
function num(n: number): string {
  if (typeof n !== 'number') notPlain();
  return Number.isFinite(n) ? String(n) : 'null';
}

function nullableNum(n: number | null): string {
  return n === null ? 'null' : num(n);
}

/**
 * Durations are rounded to the microsecond (`elapsedMs`), and a fast function's are a few
 * thousandths of a millisecond, the same few values over and over: their text is kept, by the
 * number of microseconds, below {@link DURATION_TEXTS} (about 16 ms).
 */
const DURATION_TEXTS = 16_384;
const durationTexts: (string | undefined)[] = [];

function duration(ms: number): string {
  if (typeof ms !== 'number') notPlain();
  const micros = Math.round(ms * 1000);
  if (micros >= 0 && micros < DURATION_TEXTS && micros / 1000 === ms) {
    return (durationTexts[micros] ??= String(ms));
  }
  return num(ms);
}
