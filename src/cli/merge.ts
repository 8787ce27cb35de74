/**
 * `evals merge A.json B.json … -o all.json [--allow-partial]`: the shard artifacts of
 * `evals run --shard i/n` combined into the artifact of the whole run (src/merge/merge.ts),
 * written atomically, with its summary printed and its verdict as exit code, like `evals run`.
 */
import { resolve } from 'node:path';
import { UsageError, usageError } from '../shared/errors.ts';
import { realPath } from '../shared/real-path.ts';
import { mergeShards, type NamedArtifact } from '../artifact/merge.ts';
import { CaseSpool } from '../artifact/spool.ts';
import { ListedCases } from '../report/case-listing.ts';
import { renderSummary } from '../report/summary-table.ts';
import { toolVersion } from '../shared/version.ts';
import { openResultsFile } from '../pipeline/artifact-files.ts';
import { useColor, type CommandContext } from '../pipeline/context.ts';
import { checkOutputPaths } from '../pipeline/output-paths.ts';
import { describeWriteFailure, fallbackPath } from '../pipeline/write-failure.ts';
import { writeReport, type WriteFailure } from '../report/file-reports.ts';
import { plural } from '../report/labels.ts';
import { runTotals } from '../report/totals.ts';

export interface MergeArgs {
  inputs: string[];
  output: string;
  allowPartial: boolean;
}

/**
 * Merges, writes and reports; returns the exit code (0 pass, 1 fail, 3 when the merged artifact
 * could not be written; problems with the inputs and a refused `-o` are thrown).
 */
export async function mergeCommand(args: MergeArgs, ctx: CommandContext): Promise<number> {
  checkOutputPaths([{ flag: '-o', path: args.output }], ctx.cwd, 'so nothing was merged');
  // The inputs are read while the output is written: writing over one would lose its cases.
  const output = realPath(resolve(ctx.cwd, args.output));
  const input = args.inputs.find((name) => realPath(resolve(ctx.cwd, name)) === output);
  if (input !== undefined) {
    throw usageError(
      'cli.output',
      `-o ${args.output}: one of the files to merge (${input}); name another file`,
    );
  }
  // Each input's frame is read now and its cases as the merge goes: an input may be large.
  const inputs = args.inputs.map((name) => openResultsFile(name, ctx, 'evals merge:'));
  // The merged cases are spooled to disk in testset order and copied into the artifact.
  const spool = new CaseSpool({ warn: (message) => ctx.stderr.write(`warning: ${message}\n`) });
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
  let unwritten: WriteFailure | undefined;
  await writeReport(
    {
      path: resolve(ctx.cwd, args.output),
      fallback: fallbackPath(args.output),
      failed: (failure) => (unwritten = { ...failure, path: args.output }),
    },
    (path) => spool.writeArtifact(path, artifact),
  );
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
    ...(missing.length > 0
      ? [`${missing.length === 1 ? 'missing shard' : 'missing shards'} ${missing.join(', ')}`]
      : []),
    ...(interrupted.length > 0 ? [`interrupted: ${interrupted.join(', ')}`] : []),
  ];
  const line = `merged ${present.length} of ${count} shards: ${plural(artifact.runs.length, 'run')}, ${plural(cases, 'case result')}, verdict ${artifact.verdict}${partial.length > 0 ? ` (partial: ${partial.join('; ')})` : ''}`;
  if (unwritten !== undefined) {
    ctx.stderr.write(`${line}\nerror: ${describeWriteFailure(unwritten, 'the merge finished')}\n`);
    return 3;
  }
  ctx.stderr.write(`${line} → ${args.output}\n`);
  return artifact.verdict === 'pass' ? 0 : 1;
}
