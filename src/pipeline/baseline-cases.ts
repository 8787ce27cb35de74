/**
 * The baseline's own results of the cases that changed between it and a run (newly failing,
 * fixed): what the HTML report's case detail and `evals show --baseline` set beside HEAD's. The
 * comparison keeps only what its statistics read of the baseline's cases, not their outputs, so
 * the baseline file is read again, a case at a time, keeping only the cases asked for.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { createScrubber, secretsInEnv, type Scrubber } from '../shared/secrets.ts';
import type { Comparison } from '../types/comparison.ts';
import type { CaseResult } from '../types/index.ts';
import { openResultsFile } from './artifact-files.ts';
import { UsageError, usageError } from '../shared/errors.ts';
import type { CommandContext } from './context.ts';
import { baselineKey, type BaselineCases } from '../report/html-model-base.ts';

/**
 * Baseline cases a page holds at most: each carries an output of up to 20,000 characters, and a
 * comparison where every case flipped would otherwise double a 100,000-case page.
 */
export const MAX_BASELINE_CASES = 1_000;

/**
 * The cases of the baseline file `path` whose `baselineKey` is `wanted` (`changedCases`: those a
 * comparison lists as newly failing or fixed), at most `max`, each scrubbed whole by `scrubber`
 * (the run's secrets, else the environment's and the config's: `contextScrubber`) before
 * anything downstream cuts it. A file that is not a results artifact is a usage error naming it.
 */
export function readBaselineCases(
  path: string,
  ctx: CommandContext,
  wanted: (key: string) => boolean,
  scrubber: Scrubber = contextScrubber(ctx),
  max = MAX_BASELINE_CASES,
): BaselineCases {
  try {
    return readCases(path, ctx, wanted, scrubber, max);
  } catch (error) {
    // Said of the flag that named the file: the command has another results file too.
    if (!(error instanceof UsageError)) throw error;
    throw usageError('baseline.invalid', `--baseline ${error.message.trimStart()}`, path);
  }
}

function readCases(
  path: string,
  ctx: CommandContext,
  wanted: (key: string) => boolean,
  scrubber: Scrubber,
  max: number,
): BaselineCases {
  const file = openResultsFile(path, ctx, '');
  const cases = new Map<string, CaseResult>();
  let named = 0;
  file.artifact.runs.forEach((run, index) => {
    for (const result of file.cases(index)) {
      const key = baselineKey(run, result.id);
      if (!wanted(key)) continue;
      named++;
      if (cases.size >= max) continue;
      cases.set(key, JSON.parse(scrubber.json(JSON.stringify(result))) as CaseResult);
    }
  });
  return { cases, named };
}

/**
 * Where the baseline file a run recorded (`recorded`, as its `--baseline` was typed, from where
 * the run ran) is now, for a command reading the results file `results`: beside the results
 * (a run writes its results and reads its baseline from the same folder, and the results may
 * have been moved or read from elsewhere since) or from the working folder, the first of them
 * that exists and that `holds` accepts (it throws a usage error for a file that is not the
 * baseline the run compared with: a later run's, say). Else that usage error of the first file
 * found, or one naming every path tried when there is none.
 */
export function recordedBaselineFile(
  recorded: string,
  results: string,
  ctx: CommandContext,
  holds: (path: string) => void,
): string {
  const tried = isAbsolute(recorded)
    ? [{ path: recorded, where: '' }]
    : [
        { path: join(dirname(results), recorded), where: ' (beside the results)' },
        { path: recorded, where: ' (from the working folder)' },
      ].filter(
        (one, index, all) =>
          all.findIndex((o) => resolve(ctx.cwd, o.path) === resolve(ctx.cwd, one.path)) === index,
      );
  let refused: UsageError | undefined;
  for (const one of tried) {
    if (!existsSync(resolve(ctx.cwd, one.path))) continue;
    try {
      holds(one.path);
      return one.path;
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      refused ??= error;
    }
  }
  if (refused !== undefined) throw refused;
  const looked =
    tried.length === 1 ? recorded : tried.map((one) => `${one.path}${one.where}`).join(' and at ');
  throw usageError(
    'baseline.gone',
    `${recorded}: no such results file (the baseline the run was compared with; looked for at ${looked})`,
    recorded,
  );
}

/** The environment's secrets and the config's read before (`ctx.secrets`). */
export function contextScrubber(ctx: CommandContext): Scrubber {
  return createScrubber([...secretsInEnv(ctx.env), ...(ctx.secrets ?? [])]);
}

/** Whether a key is of a case the comparison lists as newly failing or fixed. */
export function changedCases(comparison: Comparison): (key: string) => boolean {
  const keys = new Set<string>();
  for (const run of comparison.runs) {
    for (const ref of [...run.cases.newlyFailing, ...run.cases.fixed]) {
      keys.add(baselineKey(run, ref.id));
    }
  }
  return (key) => keys.has(key);
}

/**
 * What the HTML reporter of a run compared with the baseline file `path` reads its changed cases
 * with: a file gone or changed since the comparison read it leaves the page without them, said
 * on stderr, rather than without a page.
 */
export function baselineCasesReader(
  path: string,
  ctx: CommandContext,
  scrubber: Scrubber,
): (comparison: Comparison) => BaselineCases | undefined {
  return (comparison) => {
    try {
      return readBaselineCases(path, ctx, changedCases(comparison), scrubber);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      ctx.stderr.write(
        `warning: the HTML report shows no baseline outputs: ${scrubber.text(why)}\n`,
      );
      return undefined;
    }
  };
}
