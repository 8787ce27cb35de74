/**
 * The types of `runTestSuite`'s arguments and result (run-test-suite.ts), which the package
 * exports: what a suite written for the Autoblocks testing SDK passes and gets back.
 */
import type {
  CaseResult,
  FnArgs,
  GateSpec,
  PassCondition,
  RunResult,
  TestEvaluator,
  TestEvaluatorObject,
  TrialResult,
  Verdict,
} from '../types/index.ts';
import type { SuiteJudgeSettings } from './sdk-context.ts';

/** Arguments of `runTestSuite`, shaped like the Autoblocks testing SDK's so suites port by import. */
export interface RunTestSuiteArgs<TCase, TOutput> {
  /** Stable id of the suite across runs: letters, digits, `_`, `.` and `-`, as in evals.yaml. */
  id: string;
  /**
   * The cases, each an object. Two with the same identity and the same content are one case: the
   * copies are collapsed into the first with a warning on stderr (unless `quiet`), as `evals run`
   * does with repeated testset rows. To run a case several times, set `trials`. The same
   * identity with other content throws.
   */
  testCases: readonly TCase[];
  /**
   * Fields that identify a case, or a function returning its identity (synchronously: a
   * Promise is refused).
   */
  testCaseHash: readonly (keyof TCase & string)[] | ((testCase: TCase) => string);
  /**
   * The function under test. A case it returns `undefined` for is run by no evaluator, as in the
   * SDK (the run ends with a warning counting them); `null` is scored like any other output.
   */
  fn: (args: FnArgs<TCase>) => TOutput | Promise<TOutput>;
  /**
   * Each may return `undefined` / `null` for a case to skip it (no evaluation, not a failure).
   * Of a class instance only `id`, `maxConcurrency` and `evaluateTestCase` are read; a plain
   * object may also set `threshold` (see `TestEvaluatorObject`).
   */
  evaluators?: readonly (TestEvaluator<TCase, TOutput> | TestEvaluatorObject<TCase, TOutput>)[];
  /**
   * Cases in flight through `fn` and their evaluators: a whole number of at least 1, or
   * `Infinity` (default 10, the SDK's usual setting).
   */
  maxTestCaseConcurrency?: number;
  /**
   * Each combination is one run; the current point reaches `fn` as `params`. Every list needs a
   * value at least: an empty one would make no run at all, so it throws.
   */
  gridSearchParams?: Record<string, readonly unknown[]>;
  /**
   * Per call of `fn` and of each evaluator, in milliseconds above 0. Default: none, unlike
   * evals.yaml's 30 s: a call may run as long as it likes, and one whose promise can never settle
   * is errored as `never settled` once nothing else is left to run.
   */
  timeoutMs?: number;
  /**
   * Runs of each case (default 1). With more, each case's scores are its trial means, it passes
   * when more than half of its trials pass, and it is marked `flaky` when some pass and some fail.
   */
  trials?: number;
  /** Per-case pass rule: `all` (the default), `any` or a function. */
  pass?: PassCondition<TCase, TOutput>;
  /** Suite verdict rule (default: every case passes), checked before the run (check-gate.ts). */
  gate?: GateSpec;
  /** Let a suite with no test cases pass (default false: `testCases: []` is a failed run). */
  allowEmpty?: boolean;
  /**
   * Also write the JSON results artifact here. A path that cannot be written (a folder, one
   * under a file) throws before the run, as `evals run -o` refuses it.
   */
  output?: string;
  /**
   * Print nothing (default: progress on stderr, summary on stdout, like `evals run`), but for the
   * lines about the process (see suite-process.ts): calls that never settled, a signal, the
   * process ended under the run.
   */
  quiet?: boolean;
  /**
   * Set `process.exitCode = 1` when the verdict is fail, `130` when SIGINT / SIGTERM stopped
   * the run (default true, as a test runner does). A pass leaves it as it was.
   */
  setExitCode?: boolean;
  /**
   * Stop early: no new case starts, calls in flight have their `signal` aborted and are not
   * waited for, and the result keeps the cases that finished, marked interrupted. SIGINT and SIGTERM
   * stop the run the same way whether or not this is given; a second one quits at once.
   */
  signal?: AbortSignal;
  /**
   * Model access of the SDK's judge classes (`BaseLLMJudge`, `BaseAccuracy`, …); default: a
   * client from `OPENAI_BASE_URL` / `OPENAI_API_KEY`, no cache.
   */
  judge?: SuiteJudgeSettings;
  /**
   * Folder of `BaseAutomaticBattle`'s baselines (`battles/<suite>/<id>.json` inside it),
   * relative to the working directory. Default: the working directory.
   */
  baselinesDir?: string;
  /**
   * What `evals run --update-baselines` does for `BaseAutomaticBattle`: record the baselines a
   * file lacks and replace those an output beat. Default: true, but false when `CI` is set (to
   * anything but empty, `0` or `false`): a baselines file a run in CI records or rewrites stays
   * on the runner, so a missing file is then an error for each case instead of recorded, run after run.
   * `false` outside CI still records a file that does not exist yet, as `evals run` does.
   */
  updateBaselines?: boolean;
  /**
   * Secret values to scrub, besides those of the environment's secret-named variables: each is
   * replaced by `[redacted]` wherever a case's error, output, metadata or grid point would show
   * it, on the terminal and in the artifact. Each is a string of at least 8 characters (shorter
   * values are not scrubbed, so they are refused).
   */
  secrets?: readonly string[];
}

/**
 * A trial of a `runTestSuite` case: `output` is what `fn` returned, as it returned it, and is
 * scored like any other output (but `undefined`, which reads `null` and no evaluator ran on; a Map, a BigInt or a cycle stay as they
 * are here, and the artifact records them as docs/artifact.md "Values JSON cannot hold" says).
 * It is `null` when the call errored: `fn` threw, timed out or never settled.
 */
export interface SuiteTrialResult<TOutput> extends Omit<TrialResult, 'output'> {
  output: TOutput | null;
}

/**
 * A case of a `runTestSuite` run, typed by the suite: `data` is the test case as given (the same
 * object; `{}` only in the rare case whose data cannot be written as JSON, which is then errored)
 * and `output` what `fn` returned, or `null` as for a trial.
 */
export interface SuiteCaseResult<TCase, TOutput> extends Omit<
  CaseResult,
  'data' | 'output' | 'trials'
> {
  data: TCase;
  output: TOutput | null;
  trials?: SuiteTrialResult<TOutput>[];
}

/** A run (one grid point) of a `runTestSuite` suite, its cases typed by the suite. */
export interface SuiteRunResult<TCase, TOutput> extends Omit<RunResult, 'cases'> {
  cases: SuiteCaseResult<TCase, TOutput>[];
}

/**
 * What `runTestSuite` resolves to, generic over the suite's test case and output types so that
 * `result.runs[0].cases[0].output` is the user's output type (or `null`) without a cast.
 */
export interface RunTestSuiteResult<TCase = unknown, TOutput = unknown> {
  verdict: Verdict;
  interrupted: boolean;
  /** One per grid point. */
  runs: SuiteRunResult<TCase, TOutput>[];
}
