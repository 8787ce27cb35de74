/**
 * `evals merge A.json B.json … -o all.json [--allow-partial]`: the shard artifacts of
 * `evals run --shard i/n` combined into the artifact of the whole run (src/merge/merge.ts),
 * written atomically, with its summary printed and its verdict as exit code, like `evals run`.
 */
import { resolve } from 'node:path';
import { UsageError, usageError } from '../errors.ts';
import { mergeShards, type NamedArtifact } from '../merge/merge.ts';
import { writeFileAtomic } from '../pipeline/write-file-atomic.ts';
import { serializeArtifactChunks } from '../report/artifact.ts';
import { validateArtifact } from '../report/artifact-schema.ts';
import { renderSummary } from '../report/summary-table.ts';
import type { ResultsArtifact } from '../types.ts';
import { toolVersion } from '../version.ts';
import { readJson } from './compare.ts';
import { useColor, type CommandContext } from './io.ts';

export interface MergeArgs {
  inputs: string[];
  output: string;
  allowPartial: boolean;
}

/** Reads a results artifact, refusing anything the schema rejects (`what` names the flag). */
export async function readResultsFile(
  path: string,
  ctx: CommandContext,
  what: string,
): Promise<ResultsArtifact> {
  const value = await readJson(path, ctx);
  const problems = validateArtifact(value);
  if (problems.length > 0) {
    throw usageError(
      'merge.invalid',
      `${what} ${path} is not a results artifact of this evalgate: ${problems.slice(0, 3).join('; ')}`,
      path,
    );
  }
  return value as ResultsArtifact;
}

/** Merges, writes and reports; returns the exit code (0 pass, 1 fail; problems are thrown). */
export async function mergeCommand(args: MergeArgs, ctx: CommandContext): Promise<number> {
  const inputs: NamedArtifact[] = [];
  // One at a time: each input may be large, and reading them is not the slow part of a merge.
  for (const name of args.inputs) {
    inputs.push({ name, artifact: await readResultsFile(name, ctx, 'evals merge:') });
  }
  const merged = mergeShards(inputs, { allowPartial: args.allowPartial, toolVersion });
  if (!merged.ok) {
    throw new UsageError(
      merged.problems.map((message) => ({
        code: 'merge.refused',
        file: '',
        line: 0,
        col: 0,
        path: '',
        message,
      })),
    );
  }
  const { artifact, count, present, missing, interrupted, warnings } = merged.value;
  for (const warning of warnings) ctx.stderr.write(`warning: ${warning}\n`);
  await writeFileAtomic(resolve(ctx.cwd, args.output), serializeArtifactChunks(artifact));
  ctx.stdout.write(
    renderSummary(artifact.runs, {
      color: useColor(ctx),
      interrupted: artifact.interrupted,
      ...(ctx.stdout.columns ? { width: ctx.stdout.columns } : {}),
    }),
  );
  const cases = artifact.runs.reduce((sum, run) => sum + run.cases.length, 0);
  const partial = [
    ...(missing.length > 0 ? [`missing shard(s) ${missing.join(', ')}`] : []),
    ...(interrupted.length > 0 ? [`interrupted: ${interrupted.join(', ')}`] : []),
  ];
  ctx.stderr.write(
    `merged ${present.length} of ${count} shards: ${artifact.runs.length} run(s), ${cases} case result(s), verdict ${artifact.verdict}${partial.length > 0 ? ` (partial: ${partial.join('; ')})` : ''} → ${args.output}\n`,
  );
  return artifact.verdict === 'pass' ? 0 : 1;
}
