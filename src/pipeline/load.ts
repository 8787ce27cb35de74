import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfigFile } from '../config/load.ts';
import { configSecrets } from '../config/secrets.ts';
import { createBreaker } from '../judge/breaker.ts';
import type { LoadedConfig } from '../config/types.ts';
import { createScrubber, secretsInEnv, type Scrubber } from '../shared/secrets.ts';
import { UsageError, formatIssue, usageError, type Issue } from '../shared/errors.ts';
import { builtinEvaluators } from '../evaluators/registry.ts';
import { createModuleLoader, type ModuleLoaderOptions } from '../bind/modules/loader.ts';
import { createModelAccess, resolveCacheDir, type ModelAccess } from '../bind/models.ts';
import { bindSuites, suiteSpecs } from '../bind/bind.ts';
import { readTestsets } from '../bind/testsets.ts';
import { checkFilters, planRun, selectedSuites } from '../plan/plan.ts';
import type { RunFilters, RunPlan, TestsetIndex } from '../plan/types.ts';
import type { ResumedCases, SuiteSpec } from '../run/types.ts';
import type { TargetKinds } from '../targets/registry.ts';
import type { CommandContext } from './context.ts';
import { missingFieldIssues } from './missing-fields.ts';

const DEFAULT_CONFIGS = ['evals.yaml', 'evals.yml'];

/**
 * The config the user named (in a folder named, its `evals.yaml` / `evals.yml`), else one of
 * those in the current folder. A missing `x.yml` whose `x.yaml` exists (or the reverse) is
 * refused with the name that exists.
 */
export function resolveConfigArg(arg: string | undefined, ctx: CommandContext): string {
  if (arg !== undefined) return namedConfig(arg, ctx);
  const found = DEFAULT_CONFIGS.find((name) => existsSync(resolve(ctx.cwd, name)));
  if (found) return found;
  throw usageError(
    'config.not-found',
    `no config given and no ${DEFAULT_CONFIGS.join(' or ')} in ${ctx.cwd} (run \`evals init\` to create one)`,
  );
}

function namedConfig(arg: string, ctx: CommandContext): string {
  const path = resolve(ctx.cwd, arg);
  if (isFolder(path)) {
    const found = DEFAULT_CONFIGS.find((name) => existsSync(join(path, name)));
    if (found !== undefined) return join(arg, found);
    throw usageError(
      'config.not-found',
      `${arg} is a folder with no ${DEFAULT_CONFIGS.join(' or ')} in it (name the config file, or run \`evals init ${arg}\` to create one)`,
    );
  }
  if (existsSync(path)) return arg;
  const other = arg.endsWith('.yml')
    ? `${arg.slice(0, -'.yml'.length)}.yaml`
    : arg.endsWith('.yaml')
      ? `${arg.slice(0, -'.yaml'.length)}.yml`
      : undefined;
  if (other !== undefined && existsSync(resolve(ctx.cwd, other))) {
    throw usageError('config.not-found', `${arg}: no such file; did you mean ${other}?`);
  }
  return arg;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Loads and validates the config the user named (or the default one); problems are a UsageError. */
export async function loadConfig(
  configArg: string | undefined,
  ctx: CommandContext,
): Promise<LoadedConfig> {
  const file = resolveConfigArg(configArg, ctx);
  const loaded = await loadConfigFile(file, {
    cwd: ctx.cwd,
    env: ctx.env,
    builtins: builtinEvaluators,
  });
  if (!loaded.ok) throw new UsageError(loaded.issues);
  printWarnings(loaded.warnings, ctx);
  return loaded.config;
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
  narrow?: (plan: RunPlan, config: LoadedConfig) => Narrowed,
): Promise<PreparedRun> {
  const config = await loadConfig(configArg, ctx);
  const filterIssues = checkFilters(config, filters);
  if (filterIssues.length > 0) throw new UsageError(filterIssues);
  const secrets = [...configSecrets(config), ...secretsInEnv(ctx.env)];
  const scrubber = createScrubber(secrets);
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
  });
  const selected = selectedSuites(config, filters);
  const [testsets, bound] = await Promise.all([
    readTestsets(config, selected, ctx.cwd, { ignorePin: overrides.ignorePin === true }),
    bindSuites(config, selected, {
      loader: createModuleLoader(loaderOptions),
      models,
      env: ctx.env,
      secrets,
      breaker,
      ...(overrides.targets ? { targets: overrides.targets } : {}),
      ...(overrides.checkOnly === true ? { checkOnly: true } : {}),
    }),
  ]);
  const issues = [...(testsets.ok ? [] : testsets.issues), ...(bound.ok ? [] : bound.issues)];
  if (!testsets.ok || !bound.ok || issues.length > 0) throw new UsageError(issues);
  printWarnings([...testsets.warnings, ...bound.warnings], ctx);
  const planned = plannedRun(config, testsets.testsets, filters, overrides);
  const fieldIssues = missingFieldIssues(config, planned);
  if (fieldIssues.length > 0) throw new UsageError(fieldIssues);
  const { plan, resumed } = narrow ? narrow(planned, config) : { plan: planned };
  return {
    config,
    plan,
    suites: suiteSpecs(plan, bound.suites, resumed),
    models,
    scrubber,
    pinIgnored: testsets.pinIgnored,
  };
}

/** A plan changed before binding, and what its runs take over from an earlier run. */
export interface Narrowed {
  plan: RunPlan;
  resumed?: (suite: string, run: number) => ResumedCases | undefined;
}

/**
 * The plan of a config's run without binding it: no module is loaded and no model client made
 * (`evals run --dry-run`).
 */
export async function loadAndPlan(
  configArg: string | undefined,
  ctx: CommandContext,
  filters: RunFilters = {},
  overrides: Pick<PrepareOverrides, 'trials' | 'ignorePin'> = {},
): Promise<{ config: LoadedConfig; plan: RunPlan; pinIgnored: Issue[] }> {
  const config = await loadConfig(configArg, ctx);
  const filterIssues = checkFilters(config, filters);
  if (filterIssues.length > 0) throw new UsageError(filterIssues);
  const testsets = await readTestsets(config, selectedSuites(config, filters), ctx.cwd, {
    ignorePin: overrides.ignorePin === true,
  });
  if (!testsets.ok) throw new UsageError(testsets.issues);
  printWarnings(testsets.warnings, ctx);
  const plan = plannedRun(config, testsets.testsets, filters, overrides);
  const fieldIssues = missingFieldIssues(config, plan);
  if (fieldIssues.length > 0) throw new UsageError(fieldIssues);
  return { config, plan, pinIgnored: testsets.pinIgnored };
}

/**
 * Prints what loading, reading and binding noticed (an escaped template, rows collapsed, names
 * ignored), each where it is.
 */
function printWarnings(warnings: readonly Issue[], ctx: CommandContext): void {
  for (const warning of warnings)
    ctx.stderr.write(`warning: ${formatIssue(warning).trimStart()}\n`);
}

function plannedRun(
  config: LoadedConfig,
  testsets: TestsetIndex,
  filters: RunFilters,
  overrides: Pick<PrepareOverrides, 'trials'>,
): RunPlan {
  const planned = planRun(
    config,
    testsets,
    filters,
    overrides.trials !== undefined ? { trials: overrides.trials } : {},
  );
  if (!planned.ok) throw new UsageError(planned.issues);
  return planned.plan;
}
