/**
 * `evals merge A.json B.json … -o all.json [--junit FILE] [--allow-partial] [--baseline FILE]`:
 * the shard artifacts of `evals run --shard i/n` combined into the artifact of the whole run
 * (src/artifact/merge.ts), compared again with the shards' baseline when they had one, written
 * atomically, then its JUnit XML if asked for, with its summary printed and its verdict as exit
 * code, like `evals run`.
 */
import { resolve } from 'node:path';
import { UsageError, usageError } from '../shared/errors.ts';
import { realPath } from '../shared/real-path.ts';
import { mergeShards, type MergedShards, type NamedArtifact } from '../artifact/merge.ts';
import { CaseSpool, spoolRoot } from '../artifact/spool.ts';
import { ListedCases } from '../report/case-listing.ts';
import { notComparedWarning } from '../report/not-compared.ts';
import { renderSummary, showFailedHint } from '../report/summary-table.ts';
import { toolVersion } from '../shared/version.ts';
import { mixedVersionsWarning, openShards } from './merge-versions.ts';
import type { ResultsFile } from '../pipeline/artifact-files.ts';
import { terminalWidth, useColor, type CommandContext } from '../pipeline/context.ts';
import { checkNotBaseline, checkOutputPaths } from '../pipeline/output-paths.ts';
import { describeWriteFailure, fallbackPath } from '../pipeline/write-failure.ts';
import { writeReport, type WriteFailure } from '../report/file-reports.ts';
import { junitChunks, rereadableCases } from '../report/junit.ts';
import { writeFileAtomic } from '../shared/write-file-atomic.ts';
import { plural } from '../report/labels.ts';
import { pathWord } from '../shared/shell-word.ts';
import { runTotals } from '../report/totals.ts';
import type { ResultsArtifact } from '../types/index.ts';
import { printable } from '../shared/text-table.ts';
import { shownValue } from '../shared/shown-value.ts';

export interface MergeArgs {
  inputs: string[];
  output: string;
  /** Where to write the merged run's JUnit XML report, if anywhere. */
  junit?: string;
  allowPartial: boolean;
  /**
   * `--baseline FILE`: compare the merged run with FILE, instead of the baseline the shards
   * record (`evals run --shard i/n --baseline FILE`), which is read again otherwise.
   */
  baseline?: string;
}

/**
 * Merges, writes and reports; returns the exit code (0 pass, 1 fail, 3 when the merged artifact
 * or its JUnit report could not be written; problems with the inputs and a refused `-o` or
 * `--junit` are thrown).
 */
export async function mergeCommand(args: MergeArgs, ctx: CommandContext): Promise<number> {
  const outputs = [
    { flag: '-o', path: args.output },
    ...(args.junit !== undefined ? [{ flag: '--junit', path: args.junit }] : []),
  ];
  checkOutputPaths(outputs, ctx.cwd, 'so nothing was merged');
  checkNotBaseline(outputs.slice(1), args.baseline, ctx.cwd);
  // The inputs are read while the outputs are written: writing over one would lose its cases.
  for (const { flag, path } of outputs) {
    const output = realPath(resolve(ctx.cwd, path));
    const input = args.inputs.find((name) => realPath(resolve(ctx.cwd, name)) === output);
    if (input !== undefined) {
      throw usageError(
        'cli.output',
        `${flag} ${path}: one of the files to merge (${input}); name another file`,
      );
    }
  }
  checkDistinctInputs(args.inputs, ctx.cwd);
  // Each input's frame is read now and its cases as the merge goes: an input may be large.
  // A shard of a newer evalgate is refused: merging needs the newest of their versions.
  const inputs = openShards(args.inputs, ctx);
  if (args.baseline === undefined) checkOldComparisons(inputs);
  // The merged cases are spooled to disk in testset order and copied into the artifact.
  const spool = new CaseSpool({
    warn: (message) => ctx.stderr.write(`warning: ${message}\n`),
    root: spoolRoot(ctx.env),
  });
  try {
    return await mergeInto(spool, inputs, args, ctx);
  } finally {
    spool.discard();
  }
}

/**
 * Refuses shards whose comparison an evalgate before 2026-11-26 recorded, in the shape the reader
 * leaves out (`old-comparison.ts`): the shards were compared with a baseline that shape does not
 * name, and merged uncompared, `regressions: block` would gate nothing. `--baseline` names it.
 */
function checkOldComparisons(inputs: readonly ResultsFile[]): void {
  const old = inputs.filter((input) => input.oldComparison === true).map((i) => i.name);
  if (old.length === 0) return;
  throw usageError(
    'merge.baseline-lost',
    `evals merge: ${old.map((name) => printable(name)).join(', ')} ${old.length === 1 ? 'was' : 'were'} compared with a baseline, but ${old.length === 1 ? 'its comparison is' : 'their comparisons are'} in the shape of an evalgate before 2026-11-26, which this one does not read and which does not name the baseline file: pass --baseline FILE (the baseline the shards compared with) to merge them compared and gated as one run would be`,
  );
}

/**
 * One file given twice (`r.json r.json`, `s1.json ./s1.json`) is named as that, not as a shard
 * given twice or a file that is not a shard artifact, which is what merging it would report.
 */
function checkDistinctInputs(inputs: readonly string[], cwd: string): void {
  const seen = new Map<string, string>();
  for (const name of inputs) {
    const path = realPath(resolve(cwd, name));
    const first = seen.get(path);
    if (first === undefined) {
      seen.set(path, name);
      continue;
    }
    const times = inputs.filter((other) => realPath(resolve(cwd, other)) === path).length;
    const what =
      first === name
        ? `${shownValue(name)} is given ${times} times`
        : `${shownValue(first)} and ${shownValue(name)} are the same file`;
    throw usageError('cli.merge-same-file', `evals merge: ${what}; give each shard artifact once`);
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
    {
      allowPartial: args.allowPartial,
      toolVersion,
      ...(args.baseline !== undefined && { baselineGiven: true }),
    },
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
  const { count, present, missing, interrupted, warnings } = merged.value;
  const versions = mixedVersionsWarning(inputs);
  for (const warning of [...(versions !== undefined ? [versions] : []), ...warnings]) {
    ctx.stderr.write(`warning: ${warning}\n`);
  }
  const artifact = await compared(merged.value, spool, args, ctx);
  const unwritten: WriteFailure[] = [];
  const fileReport = (path: string) => ({
    path: resolve(ctx.cwd, path),
    fallback: fallbackPath(path),
    failed: (failure: WriteFailure) => unwritten.push({ ...failure, path }),
  });
  await writeReport(fileReport(args.output), (path) => spool.writeArtifact(path, artifact));
  const artifactWritten = unwritten.length === 0;
  let junitWritten = false;
  if (args.junit !== undefined) {
    // From the spool, not the file: the JUnit report is made even when -o could not be written.
    const source = rereadableCases((run) =>
      spool.spooled(run) ? spool.cases(run) : (artifact.runs[run]?.cases ?? []),
    );
    await writeReport({ ...fileReport(args.junit), written: () => (junitWritten = true) }, (path) =>
      writeFileAtomic(path, junitChunks(artifact, source)),
    );
  }
  ctx.stdout.write(
    renderSummary(artifact.runs, {
      listings: artifact.runs.map((_, run) => listed.listing(run)),
      color: useColor(ctx),
      interrupted: artifact.interrupted,
      ...(artifact.missingSuites !== undefined && { missingSuites: artifact.missingSuites }),
      // As `evals run`: the terminal's width, or `COLUMNS` through a pipe.
      ...(terminalWidth(ctx) !== undefined ? { width: terminalWidth(ctx) } : {}),
    }),
  );
  // A baseline the merged results could not be compared with: said under the verdict.
  if (artifact.notCompared !== undefined) {
    ctx.stdout.write(`${notComparedWarning(artifact.notCompared.why)}\n`);
  }
  // As `evals run` ends: the pointer names the file that holds the merged results, if any does.
  const held = artifactWritten
    ? args.output
    : (unwritten.find((failure) => failure.path === args.output)?.kept ?? null);
  const hint = showFailedHint(artifact.runs, held);
  if (hint !== undefined) ctx.stdout.write(`${hint}\n`);
  const { cases } = runTotals(artifact.runs);
  const partial = [
    ...(missing.length > 0
      ? [`${missing.length === 1 ? 'missing shard' : 'missing shards'} ${missing.join(', ')}`]
      : []),
    ...(interrupted.length > 0 ? [`interrupted: ${interrupted.join(', ')}`] : []),
  ];
  const line = `merged ${present.length} of ${count} shards: ${plural(artifact.runs.length, 'run')}, ${plural(cases, 'case result')}, verdict ${artifact.verdict}${partial.length > 0 ? ` (partial: ${partial.join('; ')})` : ''}`;
  ctx.stderr.write(artifactWritten ? `${line} → ${printable(args.output)}\n` : `${line}\n`);
  if (junitWritten) ctx.stderr.write(`JUnit report written to ${printable(args.junit ?? '')}\n`);
  for (const failure of unwritten) {
    // A JUnit file kept nowhere can be made again from the merged artifact, once that is written.
    const remake =
      failure.path === args.junit && failure.kept === null && artifactWritten
        ? `; make it with: evals report ${pathWord(args.output)} --junit ${pathWord(failure.path)}`
        : '';
    ctx.stderr.write(`error: ${describeWriteFailure(failure, 'the merge finished')}${remake}\n`);
  }
  if (unwritten.length > 0) return 3;
  return artifact.verdict === 'pass' ? 0 : 1;
}

/**
 * The merged artifact compared, as one unsharded run with `--baseline` is, with the baseline
 * the shards were compared with (or `--baseline`): over every merged case at once, so the
 * statistics and `regressions: block` decide as they would for that run. Unchanged when there
 * is no baseline. The comparison is printed before the summary, as `evals run` prints it.
 */
async function compared(
  merged: MergedShards,
  spool: CaseSpool,
  args: MergeArgs,
  ctx: CommandContext,
): Promise<ResultsArtifact> {
  const { artifact, baseline: recorded } = merged;
  if (args.baseline === undefined && recorded === undefined) return artifact;
  const { chooseBaseline, withComparison } = await import('../pipeline/baseline.ts');
  const baseline = await chooseBaseline(
    args.baseline,
    recorded,
    "the shards'",
    'pass evals merge --baseline FILE',
    ctx,
  );
  if (baseline === undefined) return artifact;
  // Each run recorded its suite's gate rules in its plan (a merge refuses runs without one).
  const suites = artifact.runs.map((run) => ({ id: run.suite, gate: run.plan?.gate ?? {} }));
  return withComparison(
    artifact,
    (run) => spool.cases(run),
    baseline.artifact,
    baseline.path,
    suites,
    ctx,
  );
}
