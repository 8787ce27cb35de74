import { suiteIssueAt } from '../config/config-path.ts';
import {
  evaluatorTemplateStrings,
  rowColumns,
  templateColumnProblems,
} from '../config/template-check.ts';
import { targetTemplateStrings } from '../config/target.ts';
import type { LoadedConfig } from '../config/types.ts';
import type { PlannedRun } from '../plan/types.ts';
import type { CommandContext } from '../pipeline/context.ts';
import { loadAndPrepare } from '../pipeline/load.ts';
import { UsageError, type Issue } from '../shared/errors.ts';

/**
 * `evals validate`: everything `run` checks before the first case (schema, semantic rules,
 * testsets, pins, modules, and the `{{ case.x }}` fields the testset's rows lack), and nothing
 * runs. Problems are thrown as a UsageError (exit 2).
 */
export async function validateCommand(
  configArg: string | undefined,
  ctx: CommandContext,
): Promise<number> {
  const { config, plan, suites } = await loadAndPrepare(configArg, ctx);
  const issues = plan.suites.flatMap((suite) => missingFields(config, suite.id, suite.runs));
  if (issues.length > 0) throw new UsageError(issues);
  const runs = suites.flatMap((suite) => suite.runs);
  const cases = runs.reduce((n, run) => n + run.cases.length, 0);
  ctx.stdout.write(
    `${config.file} is valid: ${plural(suites.length, 'suite')}, ${plural(runs.length, 'run')}, ${plural(cases, 'case execution')}\n`,
  );
  return 0;
}

/**
 * A template naming a field no row has would error on every case at run time: said here, at the
 * template. A suite with no rows selected has nothing to compare with.
 */
function missingFields(
  config: LoadedConfig,
  suiteId: string,
  runs: readonly PlannedRun[],
): Issue[] {
  const suite = config.suites.find((s) => s.id === suiteId);
  const rows = runs[0]?.cases ?? [];
  if (!suite || rows.length === 0) return [];
  const columns = rowColumns(rows.map((row) => row.data));
  const at = suiteIssueAt(config, suite);
  const templates = [...evaluatorTemplateStrings(suite), ...targetTemplateStrings(suite.target)];
  return templateColumnProblems(templates, columns).map((problem) => ({
    ...at(...problem.path),
    code: 'template.unknown-field',
    message: problem.message,
  }));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
