/**
 * `evals run`'s argv as RunArgs: parsed by the shared parser against RUN, then the values
 * checked and converted (numbers, `KEY=VALUE`, `I/N`). The Action parses its `args` input here
 * too, so it accepts exactly what the CLI does.
 */
import type { RunArgs } from '../pipeline/run.ts';
import { parseShard } from '../plan/shard.ts';
import {
  badOption,
  optionError,
  parseCommandArgs,
  positiveInt,
  type OptionValues,
} from './args.ts';
import { RUN } from './commands.ts';

/**
 * `evals run` arguments (everything after `run`) as RunArgs; the Action passes its `args` input
 * through here so it accepts exactly what the CLI does. `--help` is not acted on here.
 */
export function parseRunArgs(argv: string[]): RunArgs {
  const { values, positionals } = parseCommandArgs(RUN, argv);
  return runArgs(values, positionals[0]);
}

/** The parsed values of `evals run` (and its config argument) as RunArgs. */
export function runArgs(values: OptionValues<typeof RUN>, config: string | undefined): RunArgs {
  const shard = values.shard === undefined ? undefined : parseShard(values.shard);
  if (shard && !shard.ok) throw badOption(RUN, shard.message);
  return {
    ...(config !== undefined ? { config } : {}),
    output: values.output,
    ...(values.junit !== undefined ? { junit: values.junit } : {}),
    ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
    ...(values.resume !== undefined ? { resume: values.resume } : {}),
    ...(values['no-cache'] ? { noCache: true } : {}),
    ...(values['cache-dir'] !== undefined ? { cacheDir: values['cache-dir'] } : {}),
    ...(values['update-baselines'] ? { updateBaselines: true } : {}),
    ...(values['dry-run'] ? { dryRun: true } : {}),
    ...(values.concurrency !== undefined
      ? { concurrency: positiveInt(RUN, '--concurrency', values.concurrency) }
      : {}),
    ...(values.trials !== undefined ? { trials: positiveInt(RUN, '--trials', values.trials) } : {}),
    filters: {
      ...(values.suite ? { suites: values.suite } : {}),
      ...(values.tag ? { tags: values.tag } : {}),
      ...(values.grid ? { grid: parseGridFilters(values.grid) } : {}),
      ...(shard?.ok ? { shard: shard.shard } : {}),
    },
  };
}

/** `['model=large', 'model=small', 't=0']` → `{ model: ['large', 'small'], t: ['0'] }` */
export function parseGridFilters(items: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw optionError(RUN, '--grid', 'KEY=VALUE', JSON.stringify(item));
    (out[item.slice(0, eq)] ??= []).push(item.slice(eq + 1));
  }
  return out;
}
