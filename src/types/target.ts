/**
 * What produces a case's output: the function under test's argument and type, and the `Target`
 * interface the engine calls for each case (a function, recorded outputs, a model, an HTTP
 * endpoint, a command), with what a target gives back.
 */
import type { Usage } from './summary.ts';

/** Grid-search parameters of one run (one point of the grid). `{}` when the suite has no grid. */
export type Params = Record<string, unknown>;

/** The argument handed to the function under test. */
export interface FnArgs<TCase = Record<string, unknown>, TParams extends Params = Params> {
  testCase: TCase;
  params: TParams;
  /**
   * Aborted when the call times out or the run is interrupted. Created on first read (most
   * functions never look), so read it from the argument (`{ signal }` or `args.signal`): a copy
   * made with `{ ...args }` does not carry it.
   */
  signal: AbortSignal;
  /**
   * Which run of the case this is, from 1 (`trials: N`: 1 to N; always 1 without trials). Model
   * calls made for trial k > 1 are cached apart from trial 1's, so each trial is its own sample.
   */
  trial?: number;
}

/** The function under test: sync or async, any return type. */
export type TestFn<TCase = Record<string, unknown>, TOutput = unknown> = (
  args: FnArgs<TCase>,
) => TOutput | Promise<TOutput>;

/**
 * What produces a case's output: the function under test, the outputs recorded in the testset,
 * or (later) a model, an HTTP endpoint or a command. The engine calls `call` once per case and
 * trial; a target that throws or rejects makes the case errored, with the message.
 */
export interface Target<TCase = Record<string, unknown>, TOutput = unknown> {
  /** What it is, for plans and messages: `function ./app/answer.ts#answer`, `recorded outputs`. */
  readonly description: string;
  call(args: FnArgs<TCase>): TargetOutput<TOutput> | PromiseLike<TargetOutput<TOutput>>;
  /**
   * Awaited before each call when it returns a promise: the target cannot start a call at once
   * (a worker thread of `isolation: worker` is still starting). The wait is not the call's: it
   * counts neither against its time limit nor in its duration.
   */
  ready?(): PromiseLike<void> | undefined;
}

/**
 * What a target produced for one case: the output, and the model calls it took, if any. A
 * target that got an answer it cannot use (a model reply that is not the JSON asked for, a
 * command that exited non-zero) returns `error`: the case is errored with that message, and
 * what came back is kept as its output, and the calls it took counted, for whoever debugs it.
 */
export interface TargetOutput<TOutput = unknown> {
  output: TOutput;
  usage?: Usage;
  error?: string;
  /**
   * How long producing `output` took, in milliseconds, when the target knows better than the
   * engine's clock around its call: a `model` target serving an answer from the response cache
   * gives the time the cached call took. The case's `durationMs` (and `latency`) then use it.
   */
  durationMs?: number;
  /**
   * What the case's result should say about `output` that does not make it fail: an integer past
   * 2^53 in a JSON output, read as another number. Recorded as the case's `warnings`.
   */
  warnings?: string[];
  /**
   * What the target sent for this case, as text: a model target's messages as rendered, an http
   * target's request line and body, a command's arguments. Whole: the run scrubs the case of its
   * secrets before anything reads it, and only then is it cut (to 8,000 characters in the
   * artifact: `pipeline/sent-cap.ts`). Recorded as the case's `sent`.
   */
  sent?: string;
}
