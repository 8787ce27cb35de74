/**
 * The `{{ case.x }}` templates of a planned run whose field `x` no selected row has: every case
 * would error on them at run time, so `validate`, `run` and `run --dry-run` refuse the config
 * at the template instead (exit 2, nothing run). The same for the templates inside the prompt
 * and message files of a model target, each file the grid can name, where a `{{ params.x }}`
 * naming no grid key is refused too (in the config itself, the rules refuse it at load). And,
 * read from the same files, the grid keys nothing reads (unread-grid-keys.ts).
 */
import { dirname, join, resolve } from 'node:path';
import { formatConfigPath, suiteIssueAt } from '../config/config-path.ts';
import { closestMatch } from '../config/did-you-mean.ts';
import { targetTemplateStrings } from '../config/target.ts';
import {
  evaluatorTemplateStrings,
  fileTemplateProblems,
  promptFileRefs,
  rowColumns,
  templateColumnProblems,
  type ColumnProblem,
} from '../config/template-check.ts';
import type { LoadedConfig, SuiteConfig } from '../config/types.ts';
import type { RunPlan } from '../plan/types.ts';
import type { Issue } from '../shared/errors.ts';
import { readRegularFileSync } from '../shared/regular-file.ts';
import { hasTagIn } from '../testsets/identity.ts';
import { unreadGridKeyIssues } from './unread-grid-keys.ts';
import type { Params, PreparedCase } from '../types/index.ts';

/** One issue per template and missing field, at the template's line in the config. */
export function missingFieldIssues(config: LoadedConfig, plan: RunPlan): Issue[] {
  return plan.suites.flatMap((planned) => {
    const suite = config.suites.find((s) => s.id === planned.id);
    const rows = planned.runs[0]?.cases ?? [];
    // A suite with no rows selected has nothing to compare with (and fails on that itself).
    if (!suite || rows.length === 0) return [];
    const columns = rowColumns(rows.map((row) => row.data));
    const at = suiteIssueAt(config, suite);
    const inConfig = templateProblems(suite, rows, columns).map((problem) => ({
      ...at(...problem.path),
      code: 'template.unknown-field',
      message: problem.message,
    }));
    const points = planned.runs.map((run) => run.params);
    return [
      ...inConfig,
      ...namedColumnIssues(suite, columns).map(({ path, message }) => ({
        ...at(...path),
        code: 'testset.unknown-column',
        message,
      })),
      ...promptFileIssues(config, suite, points, columns),
      ...unreadGridKeyIssues(config, suite),
    ];
  });
}

/**
 * The `{{ case.x }}` problems of the suite's target and evaluators. An evaluator with `when:`
 * is resolved only on the rows whose tags it names, so its templates are checked against those
 * rows alone: none of them (a `--tag` that selects others) leaves nothing to check, and a field
 * that only other rows have would fail every evaluation it makes.
 */
function templateProblems(
  suite: SuiteConfig,
  rows: readonly PreparedCase[],
  columns: ReadonlySet<string>,
): ColumnProblem[] {
  const everyRow = suite.evaluators.filter((evaluator) => evaluator.when === undefined);
  const problems = templateColumnProblems(
    [...evaluatorTemplateStrings({ evaluators: everyRow }), ...targetTemplateStrings(suite.target)],
    columns,
  );
  for (const evaluator of suite.evaluators) {
    if (evaluator.when === undefined) continue;
    const applies = hasTagIn(evaluator.when.tags);
    const own = rows.filter((row) => applies(row.meta));
    if (own.length === 0) continue;
    const tags = evaluator.when.tags.join(', ');
    for (const problem of templateColumnProblems(
      evaluatorTemplateStrings({ evaluators: [evaluator] }),
      rowColumns(own.map((row) => row.data)),
    )) {
      const scope = `; checked against the rows its when: { tags: [${tags}] } applies to`;
      problems.push({ ...problem, message: `${problem.message}${scope}` });
    }
  }
  return problems;
}

/**
 * The columns the suite names outside templates that no selected row has: the recorded output
 * (`output:`), a `split:` column, an evaluator's `agreement.column`. Every case would error on
 * the first, and the others would quietly do nothing (no list cut, "0 labelled rows").
 */
function namedColumnIssues(
  suite: SuiteConfig,
  columns: ReadonlySet<string>,
): { path: (string | number)[]; message: string }[] {
  const named: { path: (string | number)[]; column: string; what: string }[] = [];
  // An `output:` that names a column no row has. The default `output` is left to the cases:
  // a suite may be planned, pinned or dry-run before its outputs are recorded.
  if (suite.target.kind === 'recorded' && suite.target.column !== undefined) {
    named.push({
      path: ['output'],
      column: suite.target.column,
      what: 'the column of the recorded outputs',
    });
  }
  for (const column of Object.keys(suite.testset.split ?? {})) {
    named.push({ path: ['testset', 'split', column], column, what: 'a column to split' });
  }
  suite.evaluators.forEach((evaluator, index) => {
    if (evaluator.agreement !== undefined) {
      named.push({
        path: ['evaluators', index, 'agreement', 'column'],
        column: evaluator.agreement.column,
        what: 'the column of the human labels',
      });
    }
  });
  const known = [...columns];
  return named
    .filter(({ column }) => !columns.has(column))
    .map(({ path, column, what }) => {
      const near = closestMatch(column, known);
      const hint = near !== undefined ? `did you mean ${JSON.stringify(near)}? ` : '';
      return {
        path,
        message: `${what}: no row of the testset has a field ${JSON.stringify(column)} (${hint}the rows have ${known.map((c) => JSON.stringify(c)).join(', ') || 'no fields'})`,
      };
    });
}

/**
 * The template problems inside the prompt and message files the suite's grid points name, at
 * their line and column in the file (the config path naming the file is in the message). A file
 * that cannot be read is skipped: binding the target reports it.
 */
function promptFileIssues(
  config: LoadedConfig,
  suite: SuiteConfig,
  points: readonly Params[],
  columns: ReadonlySet<string>,
): Issue[] {
  return promptFileRefs(suite.target, points).flatMap((ref) => {
    let text: string;
    try {
      // A FIFO or a device is not read (it would block or never end): binding reports it.
      text = readRegularFileSync(resolve(config.dir, ref.file), Number.MAX_SAFE_INTEGER).toString(
        'utf8',
      );
    } catch {
      return [];
    }
    const namedBy = formatConfigPath(['suites', suite.index, ...ref.at]);
    return fileTemplateProblems(text, columns, Object.keys(suite.grid)).map((problem): Issue => ({
      code: 'template.prompt-file',
      file: join(dirname(config.file), ref.file),
      line: problem.line,
      col: problem.col,
      path: '',
      message: `${problem.message} (in the prompt file named by ${namedBy})`,
    }));
  });
}
