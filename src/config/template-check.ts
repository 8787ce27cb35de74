/**
 * Load-time checks of `{{ … }}` templates in config values: the strings a value holds, what is
 * wrong with the templates in one of them, which `params.` keys the suite's grid does not have,
 * and (once the testset is read) which `case.` fields no row has, in the config and inside the
 * prompt and message files a model target names.
 */
import {
  checkTemplateExpression,
  formatTemplatePath,
  hasTemplates,
  literalValue,
  parseTemplatePath,
  resolveTemplates,
  templateSpans,
  unclosedTemplateIndex,
} from '../shared/templates.ts';
import { isRecord } from '../shared/is-record.ts';
import type { Params } from '../types/index.ts';
import { closestMatch } from './did-you-mean.ts';
import { isModuleSpec } from './module-spec.ts';
import type { ConfigPath, SuiteConfig, TargetConfig } from './types.ts';

/**
 * Problems with the `{{ … }}` templates in one string: malformed or unknown-root expressions,
 * and a `{{` left unclosed (it would otherwise be compared as literal text). An escaped `\{{` is
 * the way to write a literal `{{`: it is text, so none of these checks see it.
 */
export function templateProblems(text: string): string[] {
  return locatedProblems(text).map((problem) => problem.message);
}

/** A template problem in a string, at the index of the `{{` it is about. */
interface LocatedProblem {
  index: number;
  /**
   * `syntax`: malformed, unknown root or unclosed; `field`: a `case.` field no row has;
   * `param`: a `params.` key the suite's grid does not have.
   */
  kind: 'syntax' | 'field' | 'param';
  message: string;
}

/**
 * The keys a `{{ params.x }}` can name: the suite's grid keys, or `null` for a suite without a
 * grid (its `params` is `{}`). Each suite has its own grid, so templates are checked per suite.
 */
export type GridKeys = readonly string[] | null;

/** What the checks of one string know: the testset's columns, the suite's grid keys. */
interface Known {
  columns?: ReadonlySet<string> | undefined;
  grid?: GridKeys | undefined;
}

/**
 * Every template problem in one string, the one check behind inline strings and prompt files:
 * each template's malformed path or unknown root; given `known.grid`, the `params.` key the
 * grid does not have (`params.model.name` names `model`); given `known.columns` (every field of
 * every row), the `case.` field no row has (each once); then a `{{` left unclosed, quoting its
 * line (a prompt file's text can be long).
 */
function locatedProblems(text: string, known: Known = {}): LocatedProblem[] {
  const { columns, grid } = known;
  const problems: LocatedProblem[] = [];
  const reported = new Set<string>();
  for (const { expression, index } of templateSpans(text)) {
    const invalid = checkTemplateExpression(expression);
    if (invalid !== null) {
      problems.push({ index, kind: 'syntax', message: invalid });
      continue;
    }
    const parsed = parseTemplatePath(expression);
    if ('error' in parsed) continue;
    if (parsed.root === 'params' && grid !== undefined) {
      const key = parsed.keys[0];
      // `{{ params }}` alone is the whole grid point, `{}` without a grid: nothing to miss.
      if (key !== undefined && !grid?.includes(key) && !reported.has(`params.${key}`)) {
        reported.add(`params.${key}`);
        problems.push({ index, kind: 'param', message: missingParam(expression, key, grid) });
      }
      continue;
    }
    if (columns === undefined || parsed.root !== 'case') continue;
    const field = parsed.keys[0];
    if (field === undefined || columns.has(field) || reported.has(field)) continue;
    reported.add(field);
    problems.push({ index, kind: 'field', message: missingColumn(expression, field, columns) });
  }
  const unclosed = unclosedTemplateIndex(text);
  if (unclosed >= 0) {
    const line = JSON.stringify(lineAt(text, unclosed));
    problems.push({
      index: unclosed,
      kind: 'syntax',
      message: `unclosed template in ${line}: write {{ case.field }}, {{ output.field }} or {{ params.name }}`,
    });
  }
  return problems;
}

/**
 * The `{{ params.x }}` templates in `text` whose key `x` is not one of the suite's grid keys
 * `grid` (`null`: the suite has no grid), so every case would error at run time. Malformed
 * templates are left to {@link templateProblems}.
 */
export function templateParamProblems(text: string, grid: GridKeys): string[] {
  return locatedProblems(text, { grid })
    .filter((problem) => problem.kind === 'param')
    .map((problem) => problem.message);
}

/** A target's settings that are not templates, by its type (see `config/target.ts`). */
const NOT_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  model: ['baseUrl', 'apiKey', 'headers'],
  command: ['cwd'],
};

/**
 * The `{{ params.x }}` templates of a suite (raw config data at `path`) naming no key of its own
 * grid: in the target (but its `responseFormat`, a JSON Schema) and the built-ins' `with:`.
 * `defaults:` holds no templates; a module's `with:` is refused templates at all; the prompt
 * files a target names are checked once the testsets are read (`fileTemplateProblems`).
 */
export function suiteParamProblems(
  suite: Readonly<Record<string, unknown>>,
  path: ConfigPath,
): [ConfigPath, string][] {
  const grid: GridKeys = isRecord(suite.grid) ? Object.keys(suite.grid) : null;
  const texts: [ConfigPath, string][] = [];
  if (isRecord(suite.target)) {
    const at: ConfigPath = [...path, 'target'];
    // Settings that are no templates at all are refused as such (config/target.ts): a missing
    // grid key there would read as a fix.
    const fixed = NOT_TEMPLATES[String(suite.target.type)] ?? [];
    texts.push(
      ...strings(suite.target, at).filter(([p]) => {
        const key = String(p[at.length]);
        return key !== 'responseFormat' && !fixed.includes(key);
      }),
    );
  }
  const evaluators = Array.isArray(suite.evaluators) ? (suite.evaluators as unknown[]) : [];
  evaluators.forEach((evaluator, index) => {
    if (isRecord(evaluator) && typeof evaluator.use === 'string' && !isModuleSpec(evaluator.use)) {
      texts.push(...strings(evaluator.with, [...path, 'evaluators', index, 'with']));
    }
  });
  return texts.flatMap(([valuePath, text]) =>
    templateParamProblems(text, grid).map((message): [ConfigPath, string] => [valuePath, message]),
  );
}

/**
 * The `{{ … }}` templates in a `judge:` block (of `defaults` or an evaluator) at `path`. Judge
 * settings are not templates: the client gets them once per evaluator, as written, so `model:
 * '{{ params.m }}'` would be sent to the server literally, every grid point asking for one
 * "model" of that name (and sharing its cached answers). Refused, saying how to compare judge
 * models instead. The value is not quoted: it may be a key.
 */
export function judgeTemplateProblems(judge: unknown, path: ConfigPath): [ConfigPath, string][] {
  return templatedStrings(judge, path).map((valuePath) => [
    valuePath,
    'judge settings are not templates: they are fixed per evaluator, so {{ … }} here would be sent as written; to compare judge models, write one evaluator per judge model, each with its own id (id: judge-a with judge: { model: model-a }, id: judge-b with judge: { model: model-b })',
  ]);
}

/**
 * The config paths of the strings inside `value` that hold a `{{ … }}` template: for settings
 * read once, as written (a judge's, a model target's connection), where one would be sent
 * literally.
 */
export function templatedStrings(value: unknown, path: ConfigPath): ConfigPath[] {
  return strings(value, path).flatMap(([valuePath, text]) =>
    hasTemplates(text) ? [valuePath] : [],
  );
}

function missingParam(expression: string, key: string, grid: GridKeys): string {
  const head = `template {{ ${expression} }}`;
  if (grid === null || grid.length === 0) return `${head}: the suite has no grid: params is empty`;
  const missing = `${head}: the grid has no key ${JSON.stringify(key)}`;
  const near = closestMatch(key, grid);
  if (near !== undefined)
    return `${missing} (did you mean {{ ${formatTemplatePath('params', [near])} }}?)`;
  const listed = grid.slice(0, LISTED_COLUMNS).map((k) => JSON.stringify(k));
  const more = grid.length > LISTED_COLUMNS ? `, … ${grid.length - LISTED_COLUMNS} more` : '';
  return `${missing} (its keys: ${listed.join(', ')}${more})`;
}

/** Every string inside `value`, with its config path. */
export function strings(value: unknown, path: ConfigPath): [ConfigPath, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => strings(item, [...path, index]));
  if (isRecord(value))
    return Object.entries(value).flatMap(([key, item]) => strings(item, [...path, key]));
  return [];
}

/**
 * Why the strings of a module evaluator's `with:` cannot be handed to it as written: a module
 * receives its options once, unresolved, so a template in them would reach it as `{{ … }}`
 * text; and an escaped `\{{` would reach it with its backslash, where everywhere else it reads
 * as `{{`. Both are refused rather than meaning something else here.
 */
export function moduleOptionProblems(
  options: unknown,
  path: ConfigPath,
): [code: string, path: ConfigPath, message: string][] {
  return strings(options, path).flatMap(([valuePath, text]) => {
    if (hasTemplates(text)) {
      const message =
        'templates are resolved per case only for built-in evaluators; a custom evaluator receives with: once, as written (read case fields in evaluateTestCase instead)';
      return [['evaluator.module-template', valuePath, message]];
    }
    if (literalValue(text) === text) return [];
    const message =
      'a custom evaluator receives with: as written: \\{{ is not read as a literal {{ there (the module would get the backslash too), and a {{ would be a template, which only built-ins resolve; build text holding {{ in the module, or read it from a file an option names';
    return [['evaluator.module-escape', valuePath, message]];
  });
}

/** A template field no row of the testset has, at the config path of the string naming it. */
export interface ColumnProblem {
  path: ConfigPath;
  message: string;
}

/** Most field names listed when no near name is found. */
const LISTED_COLUMNS = 12;

/**
 * The `{{ case.x }}` templates in `templates` (strings with their config paths, from any part
 * of a suite: evaluator options, a target's prompt, URL, body, headers or argv) whose first
 * field `x` is a column no row of the testset has, so every case would error at run time.
 * `columns` is every field of every row. Malformed templates are left to `templateProblems`,
 * and deeper steps (`case.items[0].name`) to run time: rows may differ below the top.
 */
export function templateColumnProblems(
  templates: Iterable<readonly [ConfigPath, string]>,
  columns: ReadonlySet<string>,
): ColumnProblem[] {
  return [...templates].flatMap(([path, text]) =>
    locatedProblems(text, { columns })
      .filter((problem) => problem.kind === 'field')
      .map((problem) => ({ path, message: problem.message })),
  );
}

function missingColumn(expression: string, field: string, columns: ReadonlySet<string>): string {
  const head = `template {{ ${expression} }}: no row of the testset has the field ${JSON.stringify(field)}`;
  const near = closestMatch(field, columns);
  if (near !== undefined) {
    return `${head} (did you mean {{ ${formatTemplatePath('case', [near])} }}?)`;
  }
  if (columns.size === 0) return `${head} (its rows have no fields)`;
  const listed = [...columns].slice(0, LISTED_COLUMNS).map((c) => JSON.stringify(c));
  const more = columns.size > LISTED_COLUMNS ? `, … ${columns.size - LISTED_COLUMNS} more` : '';
  return `${head} (its fields: ${listed.join(', ')}${more})`;
}

/** Every field of every row: the columns a `{{ case.x }}` template can name. */
export function rowColumns(rows: Iterable<Readonly<Record<string, unknown>>>): Set<string> {
  const columns = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) columns.add(key);
  return columns;
}

/**
 * The template strings of a suite's built-in evaluators' options, with their paths from the
 * suite (`evaluators[0].with.expected`); a module's options are passed as written, not templates.
 */
export function evaluatorTemplateStrings(
  suite: Pick<SuiteConfig, 'evaluators'>,
): [ConfigPath, string][] {
  return suite.evaluators
    .filter((evaluator) => evaluator.kind === 'builtin')
    .flatMap((evaluator) => strings(evaluator.with, ['evaluators', evaluator.index, 'with']));
}

/** A prompt or message file of a model target, as some grid point names it. */
export interface PromptFileRef {
  /** Where its `file:` is, from the suite (`target.prompt.file`). */
  at: ConfigPath;
  /** The file relative to the config, its `{{ params.x }}` resolved. */
  file: string;
}

/**
 * Every file a model target's prompt and messages name over the grid points `points`, once per
 * message and file, in message then grid order. A path that does not resolve is left out: the
 * target reports it when it reads the files.
 */
export function promptFileRefs(target: TargetConfig, points: readonly Params[]): PromptFileRef[] {
  if (target.kind !== 'model') return [];
  const refs: PromptFileRef[] = [];
  for (const { content } of target.messages) {
    if (!('file' in content)) continue;
    const seen = new Set<string>();
    for (const params of points) {
      const resolved = resolveTemplates(content.file, { case: {}, output: null, params });
      if (!resolved.ok || typeof resolved.value !== 'string' || seen.has(resolved.value)) continue;
      seen.add(resolved.value);
      refs.push({ at: content.at, file: resolved.value });
    }
  }
  return refs;
}

/** A problem with a template inside a file, at its 1-based line and column there. */
export interface FileTemplateProblem {
  line: number;
  col: number;
  message: string;
}

/**
 * The template problems of a prompt file's text, found and worded as for an inline prompt
 * (`templateProblems`, `templateColumnProblems` against `columns`, every field of every row,
 * and, given the suite's `grid` keys, `templateParamProblems`), each at the `{{` that starts it.
 */
export function fileTemplateProblems(
  text: string,
  columns: ReadonlySet<string>,
  grid?: GridKeys,
): FileTemplateProblem[] {
  return locatedProblems(text, { columns, grid }).map((problem) => ({
    ...position(text, problem.index),
    message: problem.message,
  }));
}

/** The 1-based line and column of `index` in `text`. */
function position(text: string, index: number): { line: number; col: number } {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return { line, col: index - before.lastIndexOf('\n') };
}

/** The line of `text` that `index` is on, without its line break. */
function lineAt(text: string, index: number): string {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  return text.slice(start, end < 0 ? undefined : end).replace(/\r$/, '');
}
