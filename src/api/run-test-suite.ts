import { resolve } from 'node:path';
import { formatIssue, UsageError, type Issue } from '../shared/errors.ts';
import { MemoryCaseLog } from '../artifact/case-log.ts';
import { useColor } from '../pipeline/context.ts';
import { execute, type Executed } from '../pipeline/execute.ts';
import { EXIT_INTERRUPTED } from '../pipeline/signals.ts';
import { createReporters } from '../report/registry.ts';
import { functionTarget } from '../targets/function.ts';
import { expandGrid } from '../plan/grid.ts';
import { buildArtifact } from '../artifact/artifact.ts';
import type { SuiteSpec } from '../run/types.ts';
import { prepareCases } from '../testsets/identity.ts';
import { NO_META } from '../testsets/rows.ts';
import type {
  CaseResult,
  FnArgs,
  GateSpec,
  PassCondition,
  PreparedCase,
  ResultsArtifact,
  RunResult,
  TestEvaluator,
  TestEvaluatorObject,
  TrialResult,
  Verdict,
} from '../types/index.ts';
import { createScrubber, secretsInEnv } from '../shared/secrets.ts';
import { toolVersion } from '../shared/version.ts';
import { SDK_CONFIG_PREFIX } from '../plan/resume.ts';
import { NO_CASES_CONDITION, noCasesCondition } from '../run/gate.ts';
import { argumentIssues, argumentsError, type UncheckedArguments } from './check-arguments.ts';
import { promisedHashIssue, syncHash } from './check-case-hash.ts';
import { evaluatorWithGridPoint, withGridPoint, type CallTracker } from './grid-context.ts';
import {
  preloadSdkClasses,
  sdkCallTracker,
  suiteSdkContext,
  type SuiteJudgeSettings,
  type SuiteSdkContext,
} from './sdk-context.ts';
import {
  printAroundProgress,
  sharedProgressBoard,
  sharedProgressGroup,
  summaryWidth,
} from './sdk-terminal.ts';
import { UserCalls, watchSuiteProcess } from './suite-process.ts';

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
   * Secret values to scrub, besides those of the environment's secret-named variables: each is
   * replaced by `[redacted]` wherever a case's error, output, metadata or grid point would show
   * it, on the terminal and in the artifact. Each is a string of at least 8 characters (shorter
   * values are not scrubbed, so they are refused).
   */
  secrets?: readonly string[];
}

/**
 * A trial of a `runTestSuite` case: `output` is what `fn` returned, as it returned it, and is
 * scored like any other output (`undefined` reads `null`; a Map, a BigInt or a cycle stay as they
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

/**
 * Runs one suite from code on the same engine as `evals run`, with the same progress and
 * summary. Invalid arguments throw a `UsageError` before anything runs, naming each bad argument
 * with what it must be and what it is: an empty grid list, a missing `fn`, a case that is not an
 * object, two cases sharing an identity with different content, a bad concurrency, timeout, id,
 * `pass`, `gate.minPassRate` or `output` path, evaluators without ids. Exact duplicate cases are
 * not an error: they are one case, with a warning (see `testCases`). While it runs it guards the
 * process as `evals run` does (suite-process.ts): never-settled calls, user code ending the
 * process, SIGINT / SIGTERM.
 */
export async function runTestSuite<TCase, TOutput>(
  args: RunTestSuiteArgs<TCase, TOutput>,
): Promise<RunTestSuiteResult<TCase, TOutput>> {
  // Every call of user code is counted, so a signal's abandoned calls are known (suite-process.ts).
  const calls = new UserCalls();
  const { spec, collapsed, flushes } = checkedSpec(args, calls);
  if (args.quiet !== true) warnCollapsed(args.id, collapsed);
  // The cases are returned, so they are held in memory: a suite given as an array in code is in
  // memory already, and its results are the point of the call.
  const log = new MemoryCaseLog();
  const errIsTTY = Boolean(process.stderr.isTTY);
  const githubActions = process.env.GITHUB_ACTIONS === 'true';
  // Concurrent calls share the terminal: each one's progress is named by its suite, and on a
  // terminal drawn on the one live line they share, in a GitHub Actions log written into the one
  // group they share (see sdk-terminal.ts).
  const progress = {
    name: 'progress' as const,
    label: args.id,
    ...(errIsTTY ? { board: sharedProgressBoard() } : {}),
    ...(!errIsTTY && githubActions ? { group: sharedProgressGroup() } : {}),
  };
  const reporters = createReporters(
    [
      ...(args.quiet === true ? [] : [progress, { name: 'summary' as const }]),
      ...(args.output !== undefined
        ? [{ name: 'artifact' as const, path: resolve(args.output) }]
        : []),
    ],
    {
      out: (text) => printAroundProgress(process.stdout, text),
      // Quiet means nothing on the terminal, the artifact's `results written to …` note included:
      // what goes wrong is thrown, not printed.
      err: (text) => (args.quiet === true ? true : printAroundProgress(process.stderr, text)),
      errIsTTY,
      color: useColor({ env: process.env, stdout: process.stdout }),
      width: summaryWidth(process.stdout, process.env),
      githubActions,
    },
  );
  const setExitCode = args.setExitCode ?? true;
  const startedAt = new Date();
  const t0 = performance.now();
  const artifactOf = (executed: Executed): ResultsArtifact =>
    buildArtifact({
      toolVersion,
      config: `${SDK_CONFIG_PREFIX}${args.id}`,
      configHash: '',
      git: null,
      ...executed,
      runs: executed.runs.map(emptyRunInSdkTerms),
    });
  const watch = watchSuiteProcess({
    ...(args.signal ? { signal: args.signal } : {}),
    ...(args.output !== undefined
      ? { output: { path: resolve(args.output), shown: args.output } }
      : {}),
    log,
    // The partial artifact of a run the process is exiting under.
    artifactOf: (runs, interrupted) =>
      artifactOf({ runs, interrupted, startedAt, durationMs: performance.now() - t0 }),
    verdictCode: (whole) => (setExitCode ? (whole.verdict === 'fail' ? 1 : 0) : undefined),
    calls,
  });
  let artifact: ResultsArtifact;
  try {
    artifact = await execute([spec as unknown as SuiteSpec], {
      log,
      // As `evals run` does: the values of the environment's secret-named variables (an API key
      // a case's error quotes) never reach the terminal or the artifact; nor do those the caller
      // names (a password read from a file, a variable whose name does not say it is secret).
      scrubber: createScrubber([...secretsInEnv(process.env), ...(args.secrets ?? [])]),
      reporters: [...reporters, watch.written],
      engine: { signal: watch.signal, control: watch.control },
      artifact: (executed) => {
        const whole = artifactOf(executed);
        watch.ended(whole);
        return whole;
      },
    });
    // Baselines an automatic battle recorded or replaced are written once, after the run.
    for (const flush of flushes) await flush();
  } finally {
    watch.stop();
  }
  if (setExitCode) {
    // Stopped by SIGINT / SIGTERM: the code says so, as `evals run`'s does (the interruption first).
    if (artifact.interrupted && watch.bySignal()) process.exitCode = EXIT_INTERRUPTED;
    else if (artifact.verdict === 'fail') process.exitCode = 1;
  }
  return {
    verdict: artifact.verdict,
    interrupted: artifact.interrupted,
    // The engine keeps each case's data and output as given (see SuiteCaseResult): the casts
    // only restore the types the engine's untyped results lost.
    runs: artifact.runs.map((run, i) => ({
      ...run,
      cases: log.cases(i) as unknown as SuiteCaseResult<TCase, TOutput>[],
    })),
  };
}

/**
 * `buildSpec`, its SDK classes' calls made in this call's context (its own, not the instances':
 * see sdk-context.ts), then their settings checked (`preloadSdkClasses`, which refuses a judge
 * class's bad `scoreChoices`); their usage error (a mistake of the caller's) is traced from the
 * caller's own line: an uncaught one then prints that line and the caller's frames under
 * `UsageError: <message>`, not evalgate's internals, which mean nothing to the user. Called
 * synchronously from `runTestSuite`, before its first `await`, so the caller's frames are still
 * on the stack.
 */
function checkedSpec<TCase, TOutput>(
  args: RunTestSuiteArgs<TCase, TOutput>,
  calls: UserCalls,
): Omit<ReturnType<typeof buildSpec<TCase, TOutput>>, 'sdk'> & {
  flushes: (() => Promise<void>)[];
} {
  try {
    const { sdk, ...built } = buildSpec(args, calls);
    preloadSdkClasses(args.evaluators ?? [], sdk, args.id);
    // Baselines an automatic battle records are written by these, once, after the run.
    return { ...built, flushes: sdk.flushes };
  } catch (error) {
    // Frames above `runTestSuite` (its own and evalgate's below it) are left out of the trace.
    if (error instanceof UsageError) Error.captureStackTrace(error, runTestSuite);
    throw error;
  }
}

/**
 * The engine's suite of `args`, the exact duplicate cases collapsed on the way, and the SDK
 * classes' context of this call (`suiteSdkContext`, made once the arguments are checked); throws
 * the arguments' usage error, every problem in it.
 */
function buildSpec<TCase, TOutput>(
  args: RunTestSuiteArgs<TCase, TOutput>,
  calls: UserCalls,
): { spec: SuiteSpec<TCase, TOutput>; collapsed: Issue[]; sdk: SuiteSdkContext } {
  const issues = argumentIssues(args as unknown as UncheckedArguments, process.cwd());
  // Identities are computed only from cases and a hash that are what they must be.
  if (issues.some((issue) => /^testCase(s|Hash)\b/.test(issue.path))) {
    throw argumentsError(args.id, issues);
  }
  const evaluators = args.evaluators ?? [];
  const hash = args.testCaseHash;
  const promised: unknown[] = [];
  const prepared = prepareCases(
    args.testCases.map((tc, i) => ({
      data: tc as Record<string, unknown>,
      line: i + 1,
      meta: NO_META,
    })),
    {
      testsetId: args.id,
      file: null,
      hash: typeof hash === 'function' ? syncHash(hash, promised) : [...hash],
    },
  );
  if (promised.length > 0) issues.push(promisedHashIssue(args.testCases, promised));
  if (!prepared.ok) {
    const file = `testCases of ${args.id}`;
    issues.push(
      ...prepared.issues.map((i) => ({ ...i, file, message: formatIssue({ ...i, file }) })),
    );
  }
  if (issues.length > 0 || !prepared.ok) throw argumentsError(args.id, issues);
  const track: CallTracker = (call) => calls.track(call);
  // Made from the arguments once they are checked (`baselinesDir` is a path by now).
  const sdk = suiteSdkContext(args, process.cwd());
  const spec: SuiteSpec<TCase, TOutput> = {
    id: args.id,
    target: functionTarget(withGridPoint(args.fn, track), `runTestSuite(${args.id}) fn`),
    evaluators: evaluators.map((e) => evaluatorWithGridPoint(e, sdkCallTracker(e, sdk, track))),
    runs: expandGrid(mutableGrid(args.gridSearchParams)).map((params) => ({
      params,
      cases: prepared.cases as unknown as PreparedCase<TCase>[],
    })),
    concurrency: args.maxTestCaseConcurrency ?? 10,
    timeoutMs: args.timeoutMs ?? null,
    ...(args.trials !== undefined ? { trials: args.trials } : {}),
    pass: args.pass ?? 'all',
    gate: { ...args.gate, ...(args.allowEmpty === true ? { allowEmpty: true } : {}) },
    testset: { path: null, ref: null, commit: null, revision: prepared.revision },
  };
  return { spec, collapsed: prepared.warnings ?? [], sdk };
}

/**
 * `run` with the failed condition of a run of no cases worded for `runTestSuite`: the gate's own
 * words name evals.yaml (`allowEmpty: true on the suite`, an empty testset or `--tag`), which a
 * suite from code does not have. Its only way to no cases is an empty `testCases`.
 */
function emptyRunInSdkTerms(run: RunResult): RunResult {
  const conditions = run.gate.conditions.map((condition) =>
    condition.name === NO_CASES_CONDITION && !condition.passed
      ? noCasesCondition(
          'testCases was empty (pass allowEmpty: true to runTestSuite to let a suite without test cases pass)',
        )
      : condition,
  );
  return { ...run, gate: { ...run.gate, conditions } };
}

/**
 * Says which cases were copies of an earlier one, run once: an Autoblocks suite may list a case
 * several times to run it several times, and must not lose the copies without a word.
 */
function warnCollapsed(id: string, collapsed: readonly Issue[]): void {
  if (collapsed.length === 0) return;
  for (const issue of collapsed) {
    printAroundProgress(process.stderr, `warning: runTestSuite(${id}): ${issue.message}\n`);
  }
  printAroundProgress(
    process.stderr,
    `warning: runTestSuite(${id}): a case listed more than once runs once; to run each case several times, set trials\n`,
  );
}

function mutableGrid(
  grid: Record<string, readonly unknown[]> | undefined,
): Record<string, unknown[]> {
  return Object.fromEntries(Object.entries(grid ?? {}).map(([k, v]) => [k, [...v]]));
}
