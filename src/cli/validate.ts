import type { CommandContext } from '../pipeline/context.ts';
import { loadAndPrepare } from '../pipeline/load.ts';
import { caseExecutionsToRun, NO_CASES_NOTE, suitesWithoutCases } from '../plan/plan.ts';

/**
 * `evals validate`: everything `run` checks before the first case (schema, semantic rules,
 * testsets, pins, modules, and the `{{ case.x }}` fields the testset's rows lack), and nothing
 * runs. Problems are thrown as a UsageError (exit 2) by `loadAndPrepare`. A suite with no case
 * to run is valid, but its run would fail: that is a warning.
 */
export async function validateCommand(
  configArg: string | undefined,
  ctx: CommandContext,
): Promise<number> {
  // Bound only as a check: a worker pool starts one thread to load the module, not a pool.
  const { config, plan, suites } = await loadAndPrepare(
    configArg,
    ctx,
    {},
    {},
    { checkOnly: true },
  );
  for (const suite of suitesWithoutCases(plan)) {
    ctx.stderr.write(`warning: suite ${suite.id}: ${NO_CASES_NOTE}\n`);
  }
  const runs = suites.flatMap((suite) => suite.runs);
  // Counted as `run --dry-run` counts them: every case of every run, once per trial.
  const cases = plan.suites.reduce((n, suite) => n + caseExecutionsToRun(suite), 0);
  ctx.stdout.write(
    `${config.file} is valid: ${plural(suites.length, 'suite')}, ${plural(runs.length, 'run')}, ${plural(cases, 'case execution')}\n`,
  );
  return 0;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
