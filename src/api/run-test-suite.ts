import { resolve } from 'node:path';
import { formatIssue, UsageError, type Issue } from '../shared/errors.ts';
import { MemoryCaseLog } from '../artifact/case-log.ts';
import { redrawsLine, useColor } from '../pipeline/context.ts';
import { execute, type Executed } from '../pipeline/execute.ts';
import { EXIT_INTERRUPTED } from '../pipeline/signals.ts';
import { createReporters } from '../report/registry.ts';
import { functionTarget } from '../targets/function.ts';
import { expandGrid } from '../plan/grid.ts';
import { buildArtifact } from '../artifact/artifact.ts';
import type { SuiteSpec } from '../run/types.ts';
import { prepareCases } from '../testsets/identity.ts';
import { NO_META } from '../testsets/rows.ts';
import type { PreparedCase, ResultsArtifact, RunResult } from '../types/index.ts';
import { createScrubber, secretsInEnv, type Scrubber } from '../shared/secrets.ts';
import { toolVersion } from '../shared/version.ts';
import { SDK_CONFIG_PREFIX } from '../plan/resume.ts';
import { NO_CASES_CONDITION, noCasesCondition } from '../run/gate.ts';
import { argumentsError, notArgumentsError } from './arguments-error.ts';
import { argumentIssues, type UncheckedArguments } from './check-arguments.ts';
import { promisedHashIssue, syncHash } from './check-case-hash.ts';
import { evaluatorWithGridPoint, withGridPoint, type CallTracker } from './grid-context.ts';
import {
  preloadSdkClasses,
  sdkCallTracker,
  suiteSdkContext,
  type SuiteSdkContext,
} from './sdk-context.ts';
import type { RunTestSuiteArgs, RunTestSuiteResult, SuiteCaseResult } from './suite-types.ts';
export type {
  RunTestSuiteArgs,
  RunTestSuiteResult,
  SuiteCaseResult,
  SuiteRunResult,
  SuiteTrialResult,
} from './suite-types.ts';
import {
  printAroundProgress,
  sharedProgressBoard,
  sharedProgressGroup,
  summaryWidth,
} from './sdk-terminal.ts';
import { UserCalls, watchSuiteProcess } from './suite-process.ts';
import { UndefinedOutputs } from './unscored-outputs.ts';
import { endChecked, startChecks } from './run-end.ts';

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
  // Not given its object of arguments: said before anything reads one (the end checks its id).
  const notArguments = notArgumentsError(args, argumentsScrubber(undefined).text);
  if (notArguments !== undefined) {
    // It quotes what it got, which may hold a key: scrubbed as every usage error here is.
    const scrubbed = scrubbedUsageError(notArguments, undefined);
    Error.captureStackTrace(scrubbed, runTestSuite);
    throw scrubbed;
  }
  // The built-ins as the caller left them, for the run's end checks (run-end.ts).
  const checks = startChecks(args.id, args.output);
  // Every call of user code is counted, so a signal's abandoned calls are known (suite-process.ts).
  const calls = new UserCalls();
  const { spec, collapsed, flushes, outputs, warnings } = checkedSpec(args, calls);
  if (args.quiet !== true) {
    warnCollapsed(args.id, collapsed);
    for (const warning of warnings) {
      printAroundProgress(process.stderr, `warning: runTestSuite(${args.id}): ${warning}\n`);
    }
  }
  // The cases are returned, so they are held in memory: a suite given as an array in code is in
  // memory already, and its results are the point of the call.
  const log = new MemoryCaseLog();
  const errIsTTY = redrawsLine(process);
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
  let executed: ResultsArtifact;
  try {
    executed = await checks.running(() =>
      execute([spec as unknown as SuiteSpec], {
        log,
        // As `evals run` does: the values of the environment's secret-named variables (an API key
        // a case's error quotes) never reach the terminal or the artifact; nor do those the caller
        // names (a password read from a file, a variable whose name does not say it is secret).
        scrubber: createScrubber([...secretsInEnv(process.env), ...(args.secrets ?? [])]),
        reporters: [...reporters, watch.written],
        engine: { signal: watch.signal, control: watch.control },
        artifact: (executed) => {
          // Failed before the output is written when fn or an evaluator replaced built-ins:
          // the end checks fail such a run, and its file must not say pass (run-end.ts).
          const whole = checks.failed(artifactOf(executed));
          watch.ended(whole);
          return whole;
        },
      }),
    );
    // Baselines an automatic battle recorded or replaced are written once, after the run.
    for (const flush of flushes) {
      const note = await flush();
      if (note !== undefined && args.quiet !== true) notePrinted(args.id, note);
    }
    // Cases fn gave `undefined` were left unscored, as in the SDK: said, since they passed; and a
    // fn written the Python SDK's way (`fn(testCase)`), which reads its fields from the wrong object.
    const unscored = outputs.warning(args.id);
    if (unscored !== undefined && args.quiet !== true) {
      printAroundProgress(process.stderr, unscored);
    }
  } finally {
    watch.stop();
  }
  // A run whose code replaced built-ins evals relies on, or whose `output` is not written as it
  // must be, is failed: its results may be incomplete or wrong (run-end.ts).
  const { artifact, exitCode } = endChecked(checks, executed, (line) =>
    printAroundProgress(process.stderr, line),
  );
  if (setExitCode) {
    // Stopped by SIGINT / SIGTERM: the code says so, as `evals run`'s does (the interruption first).
    if (artifact.interrupted && watch.bySignal()) process.exitCode = EXIT_INTERRUPTED;
    else if (exitCode !== 0) process.exitCode = exitCode;
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
  flushes: (() => Promise<string | undefined>)[];
  warnings: string[];
} {
  try {
    const { sdk, ...built } = buildSpec(args, calls);
    const warnings = preloadSdkClasses(args.evaluators ?? [], sdk, args.id);
    // Baselines an automatic battle records are written by these, once, after the run.
    return { ...built, flushes: sdk.flushes, warnings };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const scrubbed = scrubbedUsageError(error, args.secrets);
    // Frames above `runTestSuite` (its own and evalgate's below it) are left out of the trace.
    Error.captureStackTrace(scrubbed, runTestSuite);
    throw scrubbed;
  }
}

/**
 * `error` with the secrets the run would scrub (the environment's secret-named variables, and
 * `secrets` where it is a list of strings) replaced in its message and issues: a refused argument
 * is quoted (a grid list of two equal API keys, a key passed as a concurrency), and an uncaught
 * error is printed whole to the terminal and the CI log.
 */
function scrubbedUsageError(error: UsageError, secrets: unknown): UsageError {
  const scrubber = argumentsScrubber(secrets);
  // `json`: a quoted value is cut short (`got "…sk-live-01…"`) before it is scrubbed here, and
  // only `json` removes the start of a secret left before the ellipsis.
  if (scrubber.empty || scrubber.json(error.message) === error.message) return error;
  const issues = error.issues.map((issue) => ({
    ...issue,
    path: scrubber.json(issue.path),
    message: scrubber.json(issue.message),
  }));
  return new UsageError(issues, scrubber.json(error.message));
}

/**
 * The scrubber of the secrets the run would scrub: the environment's secret-named variables', and
 * `secrets` where it is a list of strings (it may not be checked yet).
 */
function argumentsScrubber(secrets: unknown): Scrubber {
  const named = Array.isArray(secrets)
    ? (secrets as unknown[]).filter((s): s is string => typeof s === 'string')
    : [];
  return createScrubber([...secretsInEnv(process.env), ...named]);
}

/**
 * The engine's suite of `args`, the exact duplicate cases collapsed on the way, and the SDK
 * classes' context of this call (`suiteSdkContext`, made once the arguments are checked); throws
 * the arguments' usage error, every problem in it.
 */
function buildSpec<TCase, TOutput>(
  args: RunTestSuiteArgs<TCase, TOutput>,
  calls: UserCalls,
): {
  spec: SuiteSpec<TCase, TOutput>;
  collapsed: Issue[];
  sdk: SuiteSdkContext;
  outputs: UndefinedOutputs;
} {
  // What a problem or a duplicate case quotes of the arguments is scrubbed before it is cut.
  const scrub = argumentsScrubber(args.secrets).text;
  const issues = argumentIssues(args as unknown as UncheckedArguments, process.cwd(), scrub);
  // Identities are computed only from cases and a hash that are what they must be.
  if (issues.some((issue) => /^testCase(s|Hash)\b/.test(issue.path))) {
    throw argumentsError(args.id, issues, scrub);
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
      scrub,
    },
  );
  if (promised.length > 0) issues.push(promisedHashIssue(args.testCases, promised));
  if (!prepared.ok) {
    const file = `testCases of ${args.id}`;
    issues.push(
      ...prepared.issues.map((i) => ({ ...i, file, message: formatIssue({ ...i, file }) })),
    );
  }
  if (issues.length > 0 || !prepared.ok) throw argumentsError(args.id, issues, scrub);
  const track: CallTracker = (call) => calls.track(call);
  // Made from the arguments once they are checked (`baselinesDir` is a path by now).
  const sdk = suiteSdkContext(args, process.cwd(), process.env, args.secrets ?? []);
  const grid = args.gridSearchParams !== undefined;
  const outputs = new UndefinedOutputs();
  const spec: SuiteSpec<TCase, TOutput> = {
    id: args.id,
    target: functionTarget(
      withGridPoint(outputs.counted(args.fn), grid, track),
      `runTestSuite(${args.id}) fn`,
    ),
    evaluators: evaluators.map((e) =>
      evaluatorWithGridPoint(e, grid, sdkCallTracker(e, sdk, track)),
    ),
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
  return { spec, collapsed: prepared.warnings ?? [], sdk, outputs };
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
 * Says which cases were copies of an earlier one, run once. The Autoblocks SDK refuses a suite
 * with two cases of one hash, so a ported suite has none; here exact copies are merged, as
 * repeated testset rows are for `evals run`, but a suite that listed a case twice meaning to run
 * it twice must not lose the copy without a word.
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

/**
 * Says what an automatic battle recorded: the SDK's `BaseAutomaticBattle` gives a case it records
 * no evaluation, so a suite judged by battles alone checked nothing on this run (its `judged`
 * condition passes, saying so: run/gate.ts), and the user must learn why and what makes the next
 * run judge.
 */
function notePrinted(id: string, note: string): void {
  printAroundProgress(
    process.stderr,
    `note: runTestSuite(${id}): ${note}; a case whose baseline this run recorded was not battled (nothing to compare it with yet, as in the Autoblocks SDK): commit the file, and the next run battles it\n`,
  );
}

function mutableGrid(
  grid: Record<string, readonly unknown[]> | undefined,
): Record<string, unknown[]> {
  return Object.fromEntries(Object.entries(grid ?? {}).map(([k, v]) => [k, [...v]]));
}
