import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { compareArtifacts, validateComparable } from '../compare/compare.ts';
import {
  renderComparisonJson,
  renderComparisonMarkdown,
  renderComparisonText,
} from '../compare/render.ts';
import type { Comparison } from '../compare/types.ts';
import { usageError } from '../errors.ts';
import type { ResultsArtifact } from '../types.ts';
import { useColor, type CommandContext } from './io.ts';

export type CompareFormat = 'text' | 'md' | 'json';

/**
 * `evals compare BASE HEAD`: paired statistics between two results artifacts. Exit 0 when no
 * row regressed significantly, 1 when one did, 2 for bad input.
 */
export async function compareCommand(
  basePath: string,
  headPath: string,
  format: CompareFormat,
  ctx: CommandContext,
): Promise<number> {
  const [base, head] = await Promise.all([readJson(basePath, ctx), readJson(headPath, ctx)]);
  const comparison = compareResults(base, head, { base: basePath, head: headPath });
  const render =
    format === 'json'
      ? renderComparisonJson
      : format === 'md'
        ? renderComparisonMarkdown
        : (c: Comparison) => renderComparisonText(c, { color: useColor(ctx) });
  ctx.stdout.write(render(comparison));
  return comparison.hasRegression ? 1 : 0;
}

/** Validates both sides (throwing a UsageError naming the file at fault) and compares them. */
export function compareResults(
  base: unknown,
  head: unknown,
  names: { base: string; head: string },
): Comparison {
  validateComparable(base, head, names);
  return compareArtifacts(base as ResultsArtifact, head as ResultsArtifact);
}

/** A results file as JSON; a missing or unparsable file is a usage error naming it. */
export async function readJson(path: string, ctx: CommandContext): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(resolve(ctx.cwd, path), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw usageError(
      'compare.unreadable',
      code === 'ENOENT'
        ? `${path}: no such results file`
        : `${path}: cannot read it (${code ?? String(error)})`,
      path,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw usageError('compare.not-json', `${path} is not JSON: ${(error as Error).message}`, path);
  }
}
