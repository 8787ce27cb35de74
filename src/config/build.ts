/**
 * The typed `LoadedConfig` from data that passed the schema and the rules: defaults filled in,
 * durations in milliseconds, evaluator ids settled, inline cases given their lines.
 */
import { isModuleSpec } from './module-spec.ts';
import type { GateSpec, Threshold } from '../types/index.ts';
import { DEFAULT_STOP_AFTER_ERRORS } from '../judge/breaker.ts';
import { parseDuration } from '../shared/duration.ts';
import { defaultEvaluatorId } from './rules.ts';
import { buildTarget } from './target.ts';
import type {
  ConfigPath,
  EvaluatorConfig,
  Isolation,
  JudgeDefaults,
  JudgeSettings,
  Loc,
  LoadedConfig,
  SuiteConfig,
  TestsetConfig,
} from './types.ts';

/** Max cases in flight through a suite's function when neither the suite nor `defaults` says. */
export const DEFAULT_CONCURRENCY = 8;
/** Time limit of one function call when neither the suite nor `defaults` says. */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Times each case runs when neither the suite nor `defaults` says. */
export const DEFAULT_TRIALS = 1;

/** What the schema guarantees about a config that passed it. */
interface RawConfig {
  defaults?: {
    concurrency?: number;
    timeout?: string;
    trials?: number;
    isolation?: Isolation;
    stopAfterErrors?: number;
    judge?: RawJudge & { prices?: JudgeDefaults['prices']; hostConcurrency?: number };
  };
  suites: RawSuite[];
  removedSuites?: string[];
}

interface RawSuite {
  id: string;
  testset: {
    path?: string;
    cases?: Record<string, unknown>[];
    ref?: string;
    revision?: string;
    tags?: string[];
    split?: Record<string, string>;
    id?: string;
  };
  hash?: string[];
  function?: string;
  output?: string;
  target?: Parameters<typeof buildTarget>[0];
  grid?: Record<string, unknown[]>;
  concurrency?: number;
  timeout?: string;
  trials?: number;
  isolation?: Isolation;
  evaluators?: RawEvaluator[];
  pass?: string;
  gate?: GateSpec;
  allowEmpty?: boolean;
}

/** A `judge:` block as the schema checked it: the timeout still a duration string. */
type RawJudge = Omit<JudgeSettings, 'timeoutMs'> & { timeout?: string };

interface RawEvaluator {
  id?: string;
  use: string;
  with?: Record<string, unknown>;
  threshold?: Threshold;
  concurrency?: number;
  timeout?: string;
  judge?: RawJudge;
  when?: { tags: string[] };
  not?: boolean;
  agreement?: { column: string };
}

/** Builds the typed parts of the config; `data` must have passed the schema and the rules. */
export function buildConfig(
  data: unknown,
  options: { locate: (path: ConfigPath) => Loc },
): Pick<LoadedConfig, 'defaults' | 'suites' | 'removedSuites'> {
  const raw = data as RawConfig;
  const defaults = {
    concurrency: raw.defaults?.concurrency ?? DEFAULT_CONCURRENCY,
    timeoutMs:
      raw.defaults?.timeout === undefined ? DEFAULT_TIMEOUT_MS : timeoutMs(raw.defaults.timeout),
    trials: raw.defaults?.trials ?? DEFAULT_TRIALS,
    isolation: raw.defaults?.isolation ?? 'process',
    stopAfterErrors: raw.defaults?.stopAfterErrors ?? DEFAULT_STOP_AFTER_ERRORS,
    judge: buildJudge<NonNullable<NonNullable<RawConfig['defaults']>['judge']>>(
      raw.defaults?.judge ?? {},
    ),
  };
  const suites = raw.suites.map((suite, index): SuiteConfig => {
    const built: SuiteConfig = {
      index,
      id: suite.id,
      testset: buildTestset(suite.testset, ['suites', index, 'testset'], options.locate),
      target:
        suite.function !== undefined
          ? {
              kind: 'function',
              module: suite.function,
              // Only function suites take it: the rules reject it on any other suite.
              ...((suite.isolation ?? defaults.isolation) === 'worker'
                ? { isolation: 'worker' as const }
                : {}),
            }
          : suite.target !== undefined
            ? buildTarget(suite.target)
            : { kind: 'recorded', ...(suite.output !== undefined ? { column: suite.output } : {}) },
      grid: suite.grid ?? {},
      concurrency: suite.concurrency ?? defaults.concurrency,
      timeoutMs: suite.timeout === undefined ? defaults.timeoutMs : timeoutMs(suite.timeout),
      trials: suite.trials ?? defaults.trials,
      evaluators: (suite.evaluators ?? []).map(buildEvaluator),
      pass: suite.pass ?? 'all',
      // Kept with the gate rules, so `evals merge` and `--resume` judge an empty run the same.
      gate: { ...suite.gate, ...(suite.allowEmpty === true ? { allowEmpty: true } : {}) },
    };
    if (suite.hash) built.hash = suite.hash;
    return built;
  });
  return {
    defaults,
    suites,
    ...(raw.removedSuites !== undefined && { removedSuites: raw.removedSuites }),
  };
}

function buildTestset(
  testset: RawSuite['testset'],
  path: ConfigPath,
  locate: (path: ConfigPath) => Loc,
): TestsetConfig {
  const common = {
    ...(testset.revision !== undefined ? { revision: testset.revision } : {}),
    ...(testset.tags !== undefined ? { tags: testset.tags } : {}),
    ...(testset.split !== undefined ? { split: testset.split } : {}),
    ...(testset.id !== undefined ? { id: testset.id } : {}),
  };
  if (testset.cases) {
    const places = testset.cases.map((_, i) => locate([...path, 'cases', i]));
    const onLine = new Map<number, number>();
    for (const { line } of places) onLine.set(line, (onLine.get(line) ?? 0) + 1);
    // A line names a case, except in a flow list (`cases: [{…}, {…}]`) of cases on one line.
    const records = testset.cases.map((value, i) => {
      const { line, col } = places[i]!;
      return (onLine.get(line) ?? 0) > 1 ? { value, line, col } : { value, line };
    });
    return { kind: 'inline', records, ...common };
  }
  return {
    kind: 'file',
    path: testset.path ?? '',
    ...(testset.ref !== undefined ? { ref: testset.ref } : {}),
    ...common,
  };
}

function buildEvaluator(evaluator: RawEvaluator, index: number): EvaluatorConfig {
  const built: EvaluatorConfig = {
    index,
    id: evaluator.id ?? defaultEvaluatorId(evaluator.use),
    ...(evaluator.id === undefined ? { idFromUse: true as const } : {}),
    use: evaluator.use,
    kind: isModuleSpec(evaluator.use) ? 'module' : 'builtin',
    with: evaluator.with ?? {},
  };
  if (evaluator.threshold) built.threshold = evaluator.threshold;
  if (evaluator.concurrency !== undefined) built.concurrency = evaluator.concurrency;
  if (evaluator.timeout !== undefined)
    built.timeoutMs = parseDuration(evaluator.timeout) ?? undefined;
  if (evaluator.judge !== undefined) built.judge = buildJudge(evaluator.judge);
  if (evaluator.when !== undefined) built.when = { tags: evaluator.when.tags };
  if (evaluator.not === true) built.not = true;
  if (evaluator.agreement !== undefined) built.agreement = { column: evaluator.agreement.column };
  return built;
}

/** A `judge:` block with its `timeout` in milliseconds; every other key as written. */
function buildJudge<T extends RawJudge>(raw: T): Omit<T, 'timeout'> & JudgeSettings {
  const { timeout, ...rest } = raw;
  const timeoutMs = timeout === undefined ? null : parseDuration(timeout);
  return timeoutMs === null ? rest : { ...rest, timeoutMs };
}

/** `none` → no limit; otherwise a duration the schema already checked. */
function timeoutMs(text: string): number | null {
  return text === 'none' ? null : parseDuration(text);
}
