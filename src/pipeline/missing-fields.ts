/**
 * The `{{ case.x }}` templates of a planned run whose field `x` no selected row has: every case
 * would error on them at run time, so `validate`, `run` and `run --dry-run` refuse the config
 * at the template instead (exit 2, nothing run).
 */
import { suiteIssueAt } from '../config/config-path.ts';
import { targetTemplateStrings } from '../config/target.ts';
import {
  evaluatorTemplateStrings,
  rowColumns,
  templateColumnProblems,
} from '../config/template-check.ts';
import type { LoadedConfig } from '../config/types.ts';
import type { RunPlan } from '../plan/types.ts';
import type { Issue } from '../shared/errors.ts';

/** One issue per template and missing field, at the template's line in the config. */
export function missingFieldIssues(config: LoadedConfig, plan: RunPlan): Issue[] {
  return plan.suites.flatMap((planned) => {
    const suite = config.suites.find((s) => s.id === planned.id);
    const rows = planned.runs[0]?.cases ?? [];
    // A suite with no rows selected has nothing to compare with (and fails on that itself).
    if (!suite || rows.length === 0) return [];
    const columns = rowColumns(rows.map((row) => row.data));
    const at = suiteIssueAt(config, suite);
    const templates = [...evaluatorTemplateStrings(suite), ...targetTemplateStrings(suite.target)];
    return templateColumnProblems(templates, columns).map((problem) => ({
      ...at(...problem.path),
      code: 'template.unknown-field',
      message: problem.message,
    }));
  });
}
