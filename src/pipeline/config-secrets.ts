/**
 * The secrets of a config before the run loads it: the values it reads from the environment
 * under names that say nothing (`apiKey: ${RAW_KEY}`), known even when the config is refused.
 * Files read before the config (a `--baseline`, a `--resume` partial) and the `evals testset`
 * commands quote text cut short, so those values must be removed from it before the cut.
 */
import { loadConfigFile } from '../config/load.ts';
import { configSecrets } from '../config/secrets.ts';
import { builtinEvaluators } from '../evaluators/registry.ts';
import { resolveConfigArg } from './config-discovery.ts';
import type { CommandContext } from './context.ts';

/**
 * The secrets of the config `configArg` names (or the one found by default); none when there is
 * no config there (a config named and missing is refused where it is loaded).
 */
export async function configSecretsOf(
  configArg: string | undefined,
  ctx: CommandContext,
): Promise<string[]> {
  let file: string;
  try {
    file = resolveConfigArg(configArg, ctx);
  } catch {
    return [];
  }
  const loaded = await loadConfigFile(file, {
    cwd: ctx.cwd,
    env: ctx.env,
    builtins: builtinEvaluators,
  });
  return loaded.ok ? configSecrets(loaded.config) : (loaded.secrets ?? []);
}

/**
 * `ctx` for reading the files `evals run` reads before its config, with the config's secrets
 * when there are such files (a `--baseline`, a `--resume` partial); `ctx` itself when none.
 */
export async function readingContext(
  args: { config?: string; baseline?: string; resume?: string },
  ctx: CommandContext,
): Promise<CommandContext> {
  if (args.baseline === undefined && args.resume === undefined) return ctx;
  return { ...ctx, secrets: await configSecretsOf(args.config, ctx) };
}
