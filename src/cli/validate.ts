import type { CommandContext } from '../pipeline/context.ts';
import { loadAndPrepare } from '../pipeline/load.ts';

/**
 * `evals validate`: everything `run` checks before the first case (schema, semantic rules,
 * testsets, pins, modules, and the `{{ case.x }}` fields the testset's rows lack), and nothing
 * runs. Problems are thrown as a UsageError (exit 2) by `loadAndPrepare`.
 */
export async function validateCommand(
  configArg: string | undefined,
  ctx: CommandContext,
): Promise<number> {
  const { config, suites } = await loadAndPrepare(configArg, ctx);
  const runs = suites.flatMap((suite) => suite.runs);
  const cases = runs.reduce((n, run) => n + run.cases.length, 0);
  ctx.stdout.write(
    `${config.file} is valid: ${plural(suites.length, 'suite')}, ${plural(runs.length, 'run')}, ${plural(cases, 'case execution')}\n`,
  );
  return 0;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
