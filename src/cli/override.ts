/**
 * `evals override RESULTS.json --case ID --evaluator EVAL --score N`: a human's score for one
 * evaluation of a results artifact, appended to the overrides store (evals-overrides.jsonl next
 * to the config, or in the current folder for a `runTestSuite` artifact), where judges with
 * `overrides: N` / `numOverrides` find it as an example.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import {
  OVERRIDES_FILE,
  OverridesFileError,
  readOverrides,
  recentOverrides,
  serializeOverride,
  type StoredOverride,
} from '../evaluators/judges/overrides.ts';
import { textOf } from '../evaluators/options.ts';
import type { NamedArtifact } from '../artifact/merge.ts';
import { openResultsFile, type ResultsFile } from '../pipeline/artifact-files.ts';
import type { CommandContext } from '../pipeline/context.ts';
import { EXIT_UNWRITTEN, unwrittenFile } from '../pipeline/write-failure.ts';
import { resolveConfigArg } from '../pipeline/config-discovery.ts';
import { writtenByRunTestSuite } from '../plan/resume.ts';
import { describeRun, shownCaseId } from '../report/labels.ts';
import { caseIdMatch, runSelected, type ShowFilters } from '../report/show-select.ts';
import { UsageError, usageError } from '../shared/errors.ts';
import { readRegularFileSync } from '../shared/regular-file.ts';
import { printable } from '../shared/text-table.ts';
import { writeFileAtomic } from '../shared/write-file-atomic.ts';
import type { CaseResult, EvaluationResult, RunResult } from '../types/index.ts';
import { badOption, gridFilters, optionError, positional, type ParsedArgs } from './args.ts';
import { OVERRIDE } from './commands.ts';
import { quotedValue, shownValue } from '../shared/shown-value.ts';

/**
 * Records the override; 0, a UsageError (exit 2) with nothing written, or 3 when the store could
 * not be written (it is left as it was).
 */
export async function overrideCommand(
  args: ParsedArgs<typeof OVERRIDE>,
  ctx: CommandContext,
  now: () => Date = () => new Date(),
): Promise<number> {
  const { values } = args;
  const path = positional(args.positionals, 0);
  const casePrefix = required(values.case, '--case', 'a case id (or its start)');
  const evaluator = required(values.evaluator, '--evaluator', 'an evaluator id');
  const scoreText = required(values.score, '--score', 'a score from 0 to 1');
  const score = Number(scoreText);
  if (scoreText.trim() === '' || !(score >= 0 && score <= 1)) {
    throw optionError(OVERRIDE, '--score', 'a number from 0 to 1', quotedValue(scoreText));
  }
  const store = storeFolder(values.config, path, ctx);
  const storePath = join(store.dir, OVERRIDES_FILE);
  const shownStore = relative(ctx.cwd, storePath) || OVERRIDES_FILE;
  const stored = readStore(storePath, shownStore);

  const filters: ShowFilters = {
    ...(values.suite !== undefined ? { suites: [values.suite] } : {}),
    ...(values.grid !== undefined ? { grid: gridFilters(values.grid, OVERRIDE) } : {}),
  };
  const file = store.artifact ?? openResultsFile(path, ctx, 'evals override:');
  const found = findCase(file, casePrefix, filters);
  file.noteUnknown();
  const evaluation = found.result.evaluations.find((e) => e.evaluator === evaluator);
  if (evaluation === undefined) {
    const ids = found.result.evaluations.map((e) => e.evaluator);
    throw badOption(
      OVERRIDE,
      `--evaluator ${shownValue(evaluator)}: case ${found.result.id} has no evaluation by it (evaluators: ${ids.map(printable).join(', ') || 'none'})`,
    );
  }
  const override = storedOverride(found.run, found.result, evaluation, score, values.reason, now());
  // The store is rewritten whole through a temporary file, not appended to: a disk that fills
  // up mid-write then leaves it as it was, never with a line cut short.
  try {
    await writeFileAtomic(storePath, `${storeText(storePath)}${serializeOverride(override)}`);
  } catch (error) {
    const line = unwrittenFile(shownStore, error, 'it is unchanged, and nothing was recorded');
    if (line === undefined) throw error;
    ctx.stderr.write(`error: ${line}\n`);
    return EXIT_UNWRITTEN;
  }
  const count = recentOverrides([...stored, override], evaluator, Infinity).length;
  const reader =
    store.artifact !== undefined ? ', where runTestSuite run in this folder reads it' : '';
  ctx.stdout.write(
    `recorded in ${shownStore}${reader}: ${evaluator} on case ${shownCaseId(found.result.id)} (${describeRun(found.run)}) scored ${override.originalScore.value}, a human says ${score}; ${count} ${count === 1 ? 'case' : 'cases'} overridden for ${evaluator}\n`,
  );
  return 0;
}

/**
 * The folder of the overrides store: the config's, where its judges read it (a mistyped
 * --config would put the labels where none does, so it must exist). With no --config and no
 * evals.yaml here, an artifact written by `runTestSuite`, which has no config, puts it in the
 * current folder: runTestSuite reads it from the folder it runs in (or its `baselinesDir`).
 * That artifact, opened to tell, comes back with it.
 */
function storeFolder(
  configArg: string | undefined,
  path: string,
  ctx: CommandContext,
): { dir: string; artifact?: ResultsFile } {
  let config: string;
  try {
    config = resolve(ctx.cwd, resolveConfigArg(configArg, ctx));
  } catch (error) {
    if (configArg !== undefined || !isConfigNotFound(error)) throw error;
    const artifact = openResultsFile(path, ctx, 'evals override:');
    if (!writtenByRunTestSuite(artifact.artifact)) throw error;
    return { dir: ctx.cwd, artifact };
  }
  if (!existsSync(config)) {
    throw usageError(
      'config.not-found',
      `--config ${configArg ?? ''}: no such file (the overrides are written next to the config whose judges read them)`,
    );
  }
  return { dir: dirname(config) };
}

function isConfigNotFound(error: unknown): boolean {
  return error instanceof UsageError && error.issues[0]?.code === 'config.not-found';
}

function required(value: string | undefined, flag: string, expected: string): string {
  if (value === undefined || value === '') throw optionError(OVERRIDE, flag, expected, 'nothing');
  return value;
}

/** The store's overrides, checked: a malformed line is refused before anything is added. */
function readStore(path: string, shown: string): StoredOverride[] {
  try {
    return readOverrides(dirname(path));
  } catch (error) {
    if (!(error instanceof OverridesFileError)) throw error;
    const { code, line, problem } = error;
    throw new UsageError([{ code, file: shown, line, col: 1, path: '', message: problem }]);
  }
}

/** The store's text so far, ending in a line break when it has any text. */
function storeText(path: string): string {
  if (!existsSync(path)) return '';
  const text = readRegularFileSync(path, Number.MAX_SAFE_INTEGER).toString('utf8');
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

/** The one case the flags name; several (grid points, prefixes) or none is a usage error. */
function findCase(
  file: NamedArtifact,
  casePrefix: string,
  filters: ShowFilters,
): { run: RunResult; result: CaseResult } {
  const path = file.name;
  // A case whose whole id is --case's wins over the cases it is the start of: `--case c1`
  // picks c1 even when c10…c19 exist.
  const exact: { run: RunResult; result: CaseResult }[] = [];
  const prefixed: { run: RunResult; result: CaseResult }[] = [];
  file.artifact.runs.forEach((run, index) => {
    if (!runSelected(run, filters)) return;
    for (const result of file.cases(index)) {
      const byId = caseIdMatch(result.id, casePrefix);
      if (byId === 'exact') exact.push({ run, result });
      else if (byId === 'prefix' && exact.length === 0) prefixed.push({ run, result });
    }
  });
  const matches = exact.length > 0 ? exact : prefixed;
  const [first] = matches;
  if (first === undefined) {
    throw badOption(
      OVERRIDE,
      `--case ${shownValue(casePrefix)}: no case id starts with it in ${printable(path)}${filters.suites || filters.grid ? ' in the runs --suite and --grid select' : ''}`,
    );
  }
  if (matches.length > 1) {
    const listed = matches
      .slice(0, 5)
      .map((m) => `${shownCaseId(m.result.id)} in ${describeRun(m.run)}`)
      .join('; ');
    throw badOption(
      OVERRIDE,
      `--case ${shownValue(casePrefix)} matches ${matches.length} cases (${listed}${matches.length > 5 ? '; …' : ''}): ${exact.length > 0 ? 'give' : 'give the whole id, more of it,'} --suite or --grid`,
    );
  }
  return first;
}

/** The store line for `evaluation` of `result`, corrected to `score`. */
function storedOverride(
  run: RunResult,
  result: CaseResult,
  evaluation: EvaluationResult,
  score: number,
  reason: string | undefined,
  at: Date,
): StoredOverride {
  if (evaluation.score === null) {
    throw badOption(
      OVERRIDE,
      `--evaluator ${printable(evaluation.evaluator)}: its evaluation of case ${shownCaseId(result.id)} errored, so there is no verdict to correct`,
    );
  }
  const choice = evaluation.metadata?.choice;
  const data =
    typeof result.data === 'object' && result.data !== null && !Array.isArray(result.data)
      ? (result.data as Record<string, unknown>)
      : { input: result.data };
  return {
    evaluator: evaluation.evaluator,
    suite: run.suite,
    caseId: result.id,
    createdAt: at.toISOString(),
    originalScore: {
      value: evaluation.score,
      ...(typeof choice === 'string' ? { name: choice } : {}),
    },
    overrideScore: { value: score },
    inputFields: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, textOf(v)])),
    outputFields: { output: textOf(result.output) },
    ...(reason !== undefined && reason !== '' ? { comments: reason } : {}),
  };
}
