import { resolve } from 'node:path';
import { UsageError, describeValue, formatIssue } from '../shared/errors.ts';
import { MemoryCaseLog } from '../artifact/case-log.ts';
import { useColor } from '../pipeline/context.ts';
import { execute } from '../pipeline/execute.ts';
import { createReporters } from '../report/registry.ts';
import { functionTarget } from '../targets/function.ts';
import { expandGrid } from '../plan/grid.ts';
import { buildArtifact } from '../artifact/artifact.ts';
import type { SuiteSpec } from '../run/types.ts';
import { prepareCases } from '../testsets/identity.ts';
import { NO_META } from '../testsets/rows.ts';
import type {
  FnArgs,
  GateSpec,
  PassCondition,
  PreparedCase,
  RunResult,
  TestEvaluator,
  Verdict,
} from '../types/index.ts';
import { toolVersion } from '../shared/version.ts';
import { evaluatorWithGridPoint, withGridPoint } from './grid-context.ts';
import { attachSdkContext, type SuiteJudgeSettings } from './sdk-context.ts';

/** Arguments of `runTestSuite`, shaped like the Autoblocks testing SDK's so suites port by import. */
export interface RunTestSuiteArgs<TCase, TOutput> {
  /** Stable id of the suite across runs. */
  id: string;
  testCases: TCase[];
  /** Fields that identify a case, or a function returning its identity. */
  testCaseHash: (keyof TCase & string)[] | ((testCase: TCase) => string);
  fn: (args: FnArgs<TCase>) => TOutput | Promise<TOutput>;
  /** Each may return `undefined` / `null` for a case to skip it (no evaluation, not a failure). */
  evaluators?: TestEvaluator<TCase, TOutput>[];
  /** Cases in flight through `fn` and their evaluators (default 10, the SDK's usual setting). */
  maxTestCaseConcurrency?: number;
  /** Each combination is one run; the current point reaches `fn` as `params`. */
  gridSearchParams?: Record<string, readonly unknown[]>;
  /** Per `fn` call, in milliseconds (default: none). */
  timeoutMs?: number;
  /**
   * Runs of each case (default 1). With more, each case's scores are its trial means, it passes
   * when more than half of its trials pass, and it is marked `flaky` when some pass and some fail.
   */
  trials?: number;
  /** Per-case pass rule (default `all`). */
  pass?: PassCondition<TCase, TOutput>;
  /** Suite verdict rule (default: every case passes). */
  gate?: GateSpec;
  /** Let a suite with no test cases pass (default false: `testCases: []` is a failed run). */
  allowEmpty?: boolean;
  /** Also write the JSON results artifact here. */
  output?: string;
  /** Print nothing (default: progress on stderr, summary on stdout, like `evals run`). */
  quiet?: boolean;
  /** Set `process.exitCode = 1` when the verdict is fail (default true, as a test runner does). */
  setExitCode?: boolean;
  /** Stop early: in-flight cases finish, the result is marked interrupted. */
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
}

export interface RunTestSuiteResult {
  verdict: Verdict;
  interrupted: boolean;
  /** One per grid point. */
  runs: RunResult[];
}

/**
 * Runs one suite from code on the same engine as `evals run`, with the same progress and
 * summary. Invalid arguments (duplicate case identities, evaluators without ids) throw.
 */
export async function runTestSuite<TCase, TOutput>(
  args: RunTestSuiteArgs<TCase, TOutput>,
): Promise<RunTestSuiteResult> {
  const spec = buildSpec(args);
  const flushes = attachSdkContext(args.evaluators ?? [], args, process.cwd());
  // The cases are returned, so they are held in memory: a suite given as an array in code is in
  // memory already, and its results are the point of the call.
  const log = new MemoryCaseLog();
  const reporters = createReporters(
    [
      ...(args.quiet === true ? [] : [{ name: 'progress' as const }, { name: 'summary' as const }]),
      ...(args.output !== undefined
        ? [{ name: 'artifact' as const, path: resolve(args.output) }]
        : []),
    ],
    {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
      errIsTTY: Boolean(process.stderr.isTTY),
      color: useColor({ env: process.env, stdout: process.stdout }),
      githubActions: process.env.GITHUB_ACTIONS === 'true',
    },
  );
  const artifact = await execute([spec as unknown as SuiteSpec], {
    log,
    reporters,
    ...(args.signal ? { engine: { signal: args.signal } } : {}),
    artifact: (executed) =>
      buildArtifact({
        toolVersion,
        config: `runTestSuite:${args.id}`,
        configHash: '',
        git: null,
        ...executed,
      }),
  });
  // Baselines an automatic battle recorded or replaced are written once, after the run.
  for (const flush of flushes) await flush();
  if (artifact.verdict === 'fail' && (args.setExitCode ?? true)) process.exitCode = 1;
  return {
    verdict: artifact.verdict,
    interrupted: artifact.interrupted,
    runs: artifact.runs.map((run, i) => ({ ...run, cases: log.cases(i) })),
  };
}

function buildSpec<TCase, TOutput>(
  args: RunTestSuiteArgs<TCase, TOutput>,
): SuiteSpec<TCase, TOutput> {
  const problems: string[] = [];
  const evaluators = args.evaluators ?? [];
  const seen = new Set<string>();
  for (const [i, e] of evaluators.entries()) {
    if (typeof e.id !== 'string' || e.id === '') problems.push(`evaluators[${i}] has no id`);
    else if (seen.has(e.id)) problems.push(`evaluators[${i}]: duplicate evaluator id "${e.id}"`);
    else seen.add(e.id);
    if (typeof e.evaluateTestCase !== 'function')
      problems.push(`evaluators[${i}] has no evaluateTestCase method`);
  }
  if (args.trials !== undefined && !(Number.isInteger(args.trials) && args.trials >= 1)) {
    problems.push(`trials must be a whole number of at least 1, got ${describeValue(args.trials)}`);
  }
  const hash = args.testCaseHash;
  const prepared = prepareCases(
    args.testCases.map((tc, i) => ({
      data: tc as Record<string, unknown>,
      line: i + 1,
      meta: NO_META,
    })),
    {
      testsetId: args.id,
      file: null,
      hash: typeof hash === 'function' ? (data) => hash(data as TCase) : hash,
    },
  );
  if (!prepared.ok)
    problems.push(
      ...prepared.issues.map((i) => formatIssue({ ...i, file: `testCases of ${args.id}` })),
    );
  if (problems.length > 0 || !prepared.ok) {
    throw new UsageError([], `runTestSuite(${args.id}): ${problems.join('; ')}`);
  }
  return {
    id: args.id,
    target: functionTarget(withGridPoint(args.fn), `runTestSuite(${args.id}) fn`),
    evaluators: evaluators.map((e) => evaluatorWithGridPoint(e)),
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
}

function mutableGrid(
  grid: Record<string, readonly unknown[]> | undefined,
): Record<string, unknown[]> {
  return Object.fromEntries(Object.entries(grid ?? {}).map(([k, v]) => [k, [...v]]));
}
