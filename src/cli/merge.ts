/**
 * `evals merge A.json B.json … -o all.json [--allow-partial]`: the shard artifacts of
 * `evals run --shard i/n` combined into the artifact of the whole run (src/merge/merge.ts),
 * written atomically, with its summary printed and its verdict as exit code, like `evals run`.
 */
import { resolve } from 'node:path';
import { UsageError } from '../shared/errors.ts';
import { mergeShards, type NamedArtifact } from '../artifact/merge.ts';
import { CaseSpool } from '../artifact/spool.ts';
import { ListedCases } from '../report/case-listing.ts';
import { renderSummary } from '../report/summary-table.ts';
import { toolVersion } from '../shared/version.ts';
import { openResultsFile } from '../pipeline/artifact-files.ts';
import { useColor, type CommandContext } from '../pipeline/context.ts';
import { runTotals } from '../report/totals.ts';

export interface MergeArgs {
  inputs: string[];
  output: string;
  allowPartial: boolean;
}

/** Merges, writes and reports; returns the exit code (0 pass, 1 fail; problems are thrown). */
export async function mergeCommand(args: MergeArgs, ctx: CommandContext): Promise<number> {
  // Each input's frame is read now and its cases as the merge goes: an input may be large.
  const inputs = args.inputs.map((name) => openResultsFile(name, ctx, 'evals merge:'));
  // The merged cases are spooled to disk in testset order and copied into the artifact.
  const spool = new CaseSpool();
  try {
    return await mergeInto(spool, inputs, args, ctx);
  } finally {
    spool.discard();
  }
}

async function mergeInto(
  spool: CaseSpool,
  inputs: NamedArtifact[],
  args: MergeArgs,
  ctx: CommandContext,
): Promise<number> {
  // The summary table lists the first failing cases of each run, as `evals run` does.
  const listed = new ListedCases();
  const merged = mergeShards(
    inputs,
    { allowPartial: args.allowPartial, toolVersion },
    {
      open(runs) {
        spool.open(runs);
        listed.open(runs);
      },
      add(run, position, testCase) {
        spool.recordKeyed(run, position, testCase);
        listed.record(run, position, testCase);
      },
    },
  );
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
  await spool.writeArtifact(resolve(ctx.cwd, args.output), artifact);
  ctx.stdout.write(
    renderSummary(artifact.runs, {
      listings: artifact.runs.map((_, run) => listed.listing(run)),
      color: useColor(ctx),
      interrupted: artifact.interrupted,
      ...(ctx.stdout.columns ? { width: ctx.stdout.columns } : {}),
    }),
  );
  const { cases } = runTotals(artifact.runs);
  const partial = [
    ...(missing.length > 0 ? [`missing shard(s) ${missing.join(', ')}`] : []),
    ...(interrupted.length > 0 ? [`interrupted: ${interrupted.join(', ')}`] : []),
  ];
  ctx.stderr.write(
    `merged ${present.length} of ${count} shards: ${artifact.runs.length} run(s), ${cases} case result(s), verdict ${artifact.verdict}${partial.length > 0 ? ` (partial: ${partial.join('; ')})` : ''} → ${args.output}\n`,
  );
  return artifact.verdict === 'pass' ? 0 : 1;
}
