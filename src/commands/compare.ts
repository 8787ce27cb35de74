import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  comparableCase,
  compareArtifacts,
  requireCommonCases,
  validateComparable,
} from '../compare/compare.ts';
import {
  renderComparisonJson,
  renderComparisonMarkdown,
  renderComparisonText,
} from '../compare/render.ts';
import type { Comparison } from '../compare/types.ts';
import { usageError } from '../errors.ts';
import { ArtifactReadError, readReducedArtifact } from '../report/artifact-read.ts';
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
  const [base, head] = await Promise.all([
    readComparable(basePath, ctx),
    readComparable(headPath, ctx),
  ]);
  const names = { base: basePath, head: headPath };
  let comparison: Comparison;
  if (base.ok && head.ok) {
    requireCommonCases(base.artifact, head.artifact, names);
    comparison = compareArtifacts(base.artifact, head.artifact);
  } else {
    // Throws: the validation says what is wrong with the file(s) that did not read as artifacts.
    comparison = compareResults(
      base.ok ? base.artifact : base.value,
      head.ok ? head.artifact : head.value,
      names,
    );
  }
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

/**
 * A results file for a comparison. A valid artifact is read a case at a time
 * (`openArtifactFile`), each case reduced to what a comparison reads (`comparableCase`), so two
 * 100,000-case artifacts are never in memory as text or as full cases. Anything else comes back
 * as its JSON value, parsed whole, for the validation to say what is wrong with it. A missing or
 * unparsable file is a usage error naming it.
 */
export async function readComparable(
  path: string,
  ctx: CommandContext,
): Promise<{ ok: true; artifact: ResultsArtifact } | { ok: false; value: unknown }> {
  try {
    return {
      ok: true,
      artifact: readReducedArtifact(resolve(ctx.cwd, path), path, comparableCase),
    };
  } catch (error) {
    if (!(error instanceof ArtifactReadError)) throw error;
    if (error.kind === 'unreadable') throw usageError('compare.unreadable', error.message, path);
    if (error.kind === 'not-json') throw usageError('compare.not-json', error.message, path);
  }
  return { ok: false, value: await readJson(path, ctx) };
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
