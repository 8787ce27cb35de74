import { loadConfigFile } from '../config/load.ts';
import { gridSecretClashes } from '../config/grid-secrets.ts';
import { configSecrets } from '../config/secrets.ts';
import { createBreaker } from '../judge/breaker.ts';
import type { LoadedConfig } from '../config/types.ts';
import { withCoveredFiles } from './config-files-hash.ts';
import { createScrubber, secretsInEnv, type Scrubber } from '../shared/secrets.ts';
import { UsageError, formatIssue, type Issue } from '../shared/errors.ts';
import { builtinEvaluators } from '../evaluators/registry.ts';
import { createModuleLoader, type ModuleLoaderOptions } from '../bind/modules/loader.ts';
import { createModelAccess, resolveCacheDir, type ModelAccess } from '../bind/models.ts';
import { bindSuites, type BindOptions, type BoundSuite } from '../bind/bind.ts';
import { suiteSpecs } from '../bind/suite-specs.ts';
import { readTestsets } from '../bind/testsets.ts';
import { checkFilters, planRun, selectedSuites } from '../plan/plan.ts';
import type { RunFilters, RunPlan, TestsetIndex } from '../plan/types.ts';
import type { ResumedCases, SuiteSpec } from '../run/types.ts';
import type { TargetKinds } from '../targets/registry.ts';
import type { CommandContext } from './context.ts';
import { missingFieldIssues } from './missing-fields.ts';
import { resolveConfigArg } from './config-discovery.ts';

/**
 * Loads and validates the config the user named (or the default one); problems are a UsageError,
 * with the secrets of the environment and of the config scrubbed from it (see {@link scrubbing}).
 * `numericPinsAsWritten`: see `ParseConfigOptions` (for `evals testset pin`).
 */
export async function loadConfig(
  configArg: string | undefined,
  ctx: CommandContext,
  options: { numericPinsAsWritten?: boolean } = {},
): Promise<LoadedConfig> {
  return (await loadScrubbed(configArg, ctx, options)).config;
}

/** The config, and the scrubber of its secrets and the environment's (see {@link runSecrets}). */
async function loadScrubbed(
  configArg: string | undefined,
  ctx: CommandContext,
  options: { numericPinsAsWritten?: boolean } = {},
): Promise<{ config: LoadedConfig; secrets: string[]; scrubber: Scrubber }> {
  const envScrubber = createScrubber(secretsInEnv(ctx.env));
  let file: string;
  try {
    file = resolveConfigArg(configArg, ctx);
  } catch (error) {
    throw scrubbedThrown(error, envScrubber);
  }
  const loaded = await loadConfigFile(file, {
    cwd: ctx.cwd,
    env: ctx.env,
    builtins: builtinEvaluators,
    ...options,
  });
  if (!loaded.ok) {
    // The config's own secrets (an `apiKey: ${RAW_KEY}`) are known before it is valid.
    const scrubber = createScrubber([...(loaded.secrets ?? []), ...secretsInEnv(ctx.env)]);
    throw scrubbedError(new UsageError(loaded.issues), scrubber);
  }
  const secrets = runSecrets(loaded.config, ctx);
  const scrubber = createScrubber(secrets);
  const clashes = gridSecretClashes(loaded.config, scrubber);
  if (clashes.length > 0) throw scrubbedError(new UsageError(clashes), scrubber);
  printWarnings(loaded.warnings, ctx, scrubber);
  // esbuild (for the modules' imports) is looked for where tsx is: the Action has none of its own.
  const config = await withCoveredFiles(loaded.config, [loaded.config.dir, ctx.cwd]);
  return { config, secrets, scrubber };
}

/**
 * The run's secrets (docs/config.md#secrets): the config's keys, header values and URL
 * credentials, and the environment's secret-named values.
 */
function runSecrets(config: LoadedConfig, ctx: CommandContext): string[] {
  return [...configSecrets(config), ...secretsInEnv(ctx.env)];
}

/**
 * `work`, with every UsageError it throws scrubbed: the one place the config pipeline's problems
 * leave it, for every command that prints them (validate, run, run --dry-run) and for the Action,
 * which annotates them. A message may quote a value (`found "…"`) that came from a secret.
 */
async function scrubbing<T>(scrubber: Scrubber, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw scrubbedThrown(error, scrubber);
  }
}

/** A thrown UsageError scrubbed; anything else (a bug) as it is. */
function scrubbedThrown(error: unknown, scrubber: Scrubber): unknown {
  return error instanceof UsageError ? scrubbedError(error, scrubber) : error;
}

/**
 * `error` with the secrets `scrubber` knows removed from its messages and config paths; its
 * positions (counted in the user's files) as they are.
 */
export function scrubbedError(error: UsageError, scrubber: Scrubber): UsageError {
  if (scrubber.empty) return error;
  // `json`: a message's quoted values are JSON strings, and a long one is cut short with `…`.
  return new UsageError(
    error.issues.map((issue) => scrubbedIssue(issue, scrubber)),
    scrubber.json(error.message),
  );
}

function scrubbedIssue(issue: Issue, scrubber: Scrubber): Issue {
  return { ...issue, path: scrubber.json(issue.path), message: scrubber.json(issue.message) };
}

/** Command-line settings that change how suites are prepared. */
export interface PrepareOverrides {
  /** `--trials N`: replaces every suite's `trials`. */
  trials?: number;
  /** `--no-cache`: judge calls bypass the on-disk cache. */
  noCache?: boolean;
  /** `--cache-dir DIR`, relative to the working directory. */
  cacheDir?: string;
  /** `--update-baselines`: automatic-battle may rewrite its baselines files. */
  updateBaselines?: boolean;
  /** The target kinds a config may name (default: the built-in ones). */
  targets?: TargetKinds;
  /** `--ignore-pin`: a testset that does not match its `revision:` pin runs anyway. */
  ignorePin?: boolean;
  /** `evals validate`: the run is prepared to be checked, never run (see `BindOptions`). */
  checkOnly?: boolean;
  /** The run's interrupt: what is still loading for it when it comes is stopped (`BindOptions`). */
  signal?: AbortSignal;
}

/** A config's run, planned and bound: what the engine runs, and the plan it came from. */
export interface PreparedRun {
  config: LoadedConfig;
  plan: RunPlan;
  suites: SuiteSpec[];
  /** `models.finish()` must run after the suites did: it writes what judges recorded. */
  models: ModelAccess;
  /** Removes the run's secrets (the config's keys and the environment's) from its results. */
  scrubber: Scrubber;
  /** With `ignorePin`: the pins that did not match, as the problems they would have been. */
  pinIgnored: Issue[];
}

/**
 * Loads and validates the config, reads the selected suites' testsets and loads their modules
 * (both at once, so one look shows every problem), plans the run and binds it; any problem is a
 * UsageError. `narrow` changes the plan before it is bound (a resumption takes over cases).
 */
export async function loadAndPrepare(
  configArg: string | undefined,
  ctx: CommandContext,
  filters: RunFilters = {},
  loaderOptions: ModuleLoaderOptions = {},
  overrides: PrepareOverrides = {},
  narrow?: (plan: RunPlan, config: LoadedConfig, scrubber: Scrubber) => Narrowed,
): Promise<PreparedRun> {
  const { config, secrets, scrubber } = await loadScrubbed(configArg, ctx);
  return scrubbing(scrubber, async () => {
    checkRunFilters(config, filters);
    // Said once per server, when the run stops calling it; the cases say it each time.
    const breaker = createBreaker(config.defaults.stopAfterErrors, (server, count, error) => {
      ctx.stderr.write(
        `warning: stopped calling ${server}: ${count} calls in a row failed with ${scrubber.text(error.message)}; the remaining calls to it error at once (defaults.stopAfterErrors)\n`,
      );
    });
    const models = createModelAccess(config, {
      cacheDir: resolveCacheDir(config, ctx.cwd, overrides),
      updateBaselines: overrides.updateBaselines === true,
      env: ctx.env,
      secrets,
      breaker,
      warn: (message) => ctx.stderr.write(`warning: ${scrubber.text(message)}\n`),
    });
    const { testsets, bound, pinIgnored } = await readAndBind(config, filters, ctx, scrubber, {
      ignorePin: overrides.ignorePin === true,
      bind: {
        loader: createModuleLoader(loaderOptions),
        models,
        env: ctx.env,
        secrets,
        breaker,
        warn: (message) => ctx.stderr.write(`warning: ${scrubber.text(message)}\n`),
        ...(overrides.targets ? { targets: overrides.targets } : {}),
        ...(overrides.checkOnly === true ? { checkOnly: true } : {}),
        ...(overrides.signal !== undefined ? { signal: overrides.signal } : {}),
      },
    });
    const planned = plannedRun(config, testsets, filters, overrides, ctx.env, scrubber);
    const { plan, resumed } = narrow ? narrow(planned, config, scrubber) : { plan: planned };
    return {
      config,
      plan,
      suites: suiteSpecs(plan, bound, resumed),
      models,
      scrubber,
      pinIgnored,
    };
  });
}

/** A plan changed before binding, and what its runs take over from an earlier run. */
export interface Narrowed {
  plan: RunPlan;
  resumed?: (suite: string, run: number) => ResumedCases | undefined;
}

/**
 * The plan of a config's run, checked as `loadAndPrepare` checks it but without importing any
 * user module (`evals run --dry-run`): the testsets are read and the suites bound only to be
 * checked (prompt files, a command's `cwd` and program, an HTTP URL, built-in evaluators such as
 * a judge without a model), and of a module (a function target, a custom evaluator, a pass
 * condition) only that its file is there. No model is called. What is printed of the plan is
 * to go through `scrubber.json` first: a command's argv, a URL or a grid value may hold a secret
 * (the plan itself keeps them, to be run).
 */
export async function loadAndPlan(
  configArg: string | undefined,
  ctx: CommandContext,
  filters: RunFilters = {},
  overrides: Pick<PrepareOverrides, 'trials' | 'ignorePin' | 'targets'> = {},
): Promise<{
  config: LoadedConfig;
  plan: RunPlan;
  pinIgnored: Issue[];
  scrubber: Scrubber;
}> {
  const { config, secrets, scrubber } = await loadScrubbed(configArg, ctx);
  return scrubbing(scrubber, async () => {
    checkRunFilters(config, filters);
    // No cache folder: nothing is called, so nothing is cached.
    const models = createModelAccess(config, {
      cacheDir: null,
      updateBaselines: false,
      env: ctx.env,
      secrets,
    });
    const { testsets, pinIgnored } = await readAndBind(config, filters, ctx, scrubber, {
      ignorePin: overrides.ignorePin === true,
      bind: {
        loader: createModuleLoader({ importModules: false }),
        models,
        env: ctx.env,
        secrets,
        checkOnly: true,
        ...(overrides.targets ? { targets: overrides.targets } : {}),
      },
    });
    const plan = plannedRun(config, testsets, filters, overrides, ctx.env, scrubber);
    return { config, plan, pinIgnored, scrubber };
  });
}

function checkRunFilters(config: LoadedConfig, filters: RunFilters): void {
  const filterIssues = checkFilters(config, filters);
  if (filterIssues.length > 0) throw new UsageError(filterIssues);
}

/**
 * The selected suites' testsets read and the suites bound, both at once so one look shows every
 * problem; the warnings of both printed.
 */
async function readAndBind(
  config: LoadedConfig,
  filters: RunFilters,
  ctx: CommandContext,
  scrubber: Scrubber,
  options: { ignorePin: boolean; bind: BindOptions },
): Promise<{
  testsets: TestsetIndex;
  bound: ReadonlyMap<string, BoundSuite>;
  pinIgnored: Issue[];
}> {
  const selected = selectedSuites(config, filters);
  const [testsets, bound] = await Promise.all([
    readTestsets(config, selected, ctx.cwd, { ignorePin: options.ignorePin, scrub: scrubber.text }),
    bindSuites(config, selected, options.bind),
  ]);
  const issues = [...(testsets.ok ? [] : testsets.issues), ...(bound.ok ? [] : bound.issues)];
  if (!testsets.ok || !bound.ok || issues.length > 0) {
    // Templates naming fields the rows lack need the rows, not the binding: said with its problems.
    throw new UsageError(
      testsets.ok ? [...issues, ...fieldIssues(config, testsets.testsets, filters)] : issues,
    );
  }
  printWarnings([...testsets.warnings, ...bound.warnings], ctx, scrubber);
  return { testsets: testsets.testsets, bound: bound.suites, pinIgnored: testsets.pinIgnored };
}

/**
 * Prints what loading, reading and binding noticed (an escaped template, rows collapsed, names
 * ignored), each where it is, scrubbed of the run's secrets.
 */
function printWarnings(warnings: readonly Issue[], ctx: CommandContext, scrubber: Scrubber): void {
  for (const warning of warnings) {
    ctx.stderr.write(`warning: ${formatIssue(scrubbedIssue(warning, scrubber)).trimStart()}\n`);
  }
}

/**
 * What `missingFieldIssues` finds in the run `filters` select; when it cannot be planned, why
 * (a `--tag` no row has): said with the other problems, not after they are fixed.
 */
function fieldIssues(config: LoadedConfig, testsets: TestsetIndex, filters: RunFilters): Issue[] {
  const planned = planRun(config, testsets, filters, {});
  return planned.ok ? missingFieldIssues(config, planned.plan) : planned.issues;
}

function plannedRun(
  config: LoadedConfig,
  testsets: TestsetIndex,
  filters: RunFilters,
  overrides: Pick<PrepareOverrides, 'trials'>,
  env: CommandContext['env'],
  scrubber: Scrubber,
): RunPlan {
  // Empty is unset, as for the clients (`||`): the plan says where their calls go.
  const envBaseUrl = env.OPENAI_BASE_URL || undefined;
  const planned = planRun(config, testsets, filters, {
    ...(overrides.trials !== undefined ? { trials: overrides.trials } : {}),
    ...(envBaseUrl !== undefined ? { envBaseUrl } : {}),
    scrub: scrubber.text,
  });
  if (!planned.ok) throw new UsageError(planned.issues);
  const fieldIssues = missingFieldIssues(config, planned.plan);
  if (fieldIssues.length > 0) throw new UsageError(fieldIssues);
  return planned.plan;
}

/** Says, before the run, which pins `--ignore-pin` let through. */
export function warnPinIgnored(pinIgnored: readonly Issue[], ctx: CommandContext): void {
  for (const issue of pinIgnored) {
    ctx.stderr.write(`warning: --ignore-pin: ${formatIssue(issue).trimStart()}\n`);
  }
}
