import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfigFile } from '../config/load.ts';
import type { LoadedConfig } from '../config/types.ts';
import { UsageError, usageError } from '../shared/errors.ts';
import { builtinEvaluators } from '../evaluators/registry.ts';
import { createModuleLoader, type ModuleLoaderOptions } from '../bind/modules/loader.ts';
import { createModelAccess, resolveCacheDir, type ModelAccess } from '../bind/models.ts';
import { prepareSuites, type RunFilters } from '../bind/prepare.ts';
import type { SuiteSpec } from '../run/types.ts';
import type { CommandContext } from './context.ts';

const DEFAULT_CONFIGS = ['evals.yaml', 'evals.yml'];

/** The config the user named, else `evals.yaml` / `evals.yml` in the current folder. */
export function resolveConfigArg(arg: string | undefined, ctx: CommandContext): string {
  if (arg !== undefined) return arg;
  const found = DEFAULT_CONFIGS.find((name) => existsSync(resolve(ctx.cwd, name)));
  if (found) return found;
  throw usageError(
    'config.not-found',
    `no config given and no ${DEFAULT_CONFIGS.join(' or ')} in ${ctx.cwd} (run \`evals init\` to create one)`,
  );
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
}

/**
 * Loads and validates the config, then prepares every selected suite; any problem is a UsageError.
 * `models.finish()` must run after the suites did: it writes what judges recorded (baselines).
 */
export async function loadAndPrepare(
  configArg: string | undefined,
  ctx: CommandContext,
  filters: RunFilters = {},
  loaderOptions: ModuleLoaderOptions = {},
  overrides: PrepareOverrides = {},
): Promise<{ config: LoadedConfig; suites: SuiteSpec[]; models: ModelAccess }> {
  const config = await loadConfig(configArg, ctx);
  const models = createModelAccess(config, {
    cacheDir: resolveCacheDir(config, ctx.cwd, overrides),
    updateBaselines: overrides.updateBaselines === true,
    env: ctx.env,
  });
  const prepared = await prepareSuites(config, {
    cwd: ctx.cwd,
    loader: createModuleLoader(loaderOptions),
    filters,
    models,
    ...(overrides.trials !== undefined ? { trials: overrides.trials } : {}),
  });
  if (!prepared.ok) throw new UsageError(prepared.issues);
  return { config, suites: prepared.suites, models };
}
