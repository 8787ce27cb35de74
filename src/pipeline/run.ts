import { resolve } from 'node:path';
import type { ResultsArtifact, RunResult } from '../types/index.ts';
import { buildArtifact } from '../artifact/artifact.ts';
import { CaseSpool, spoolRoot } from '../artifact/spool.ts';
import { createReporters, type ReporterSpec } from '../report/registry.ts';
import type { Reporter } from '../report/reporter.ts';
import { execute } from './execute.ts';
import { toolVersion } from '../shared/version.ts';
import { readGitInfo } from './git-info.ts';
import { reporterContext, terminalWidth, type CommandContext } from './context.ts';
import { loadAndPlan, loadAndPrepare, warnPinIgnored } from './load.ts';
import { readingContext } from './config-secrets.ts';
import type { Resumption } from './resume.ts';
import { renderPlan } from '../report/plan.ts';
import { showFailedHint } from '../report/summary-table.ts';
import { annotateRuns, withPinIgnored, withShard } from '../artifact/annotate.ts';
import { withPassRecorded } from '../artifact/recorded-pass.ts';
import { usageError } from '../shared/errors.ts';
import { RunControl } from '../run/control.ts';
import { guardProcess } from './exit-guard.ts';
import {
  checkNotBaseline,
  checkOutputPaths,
  checkOutputsNotInputs,
  runOutputs,
} from './output-paths.ts';
import { checkRunEnd, failedForBuiltins, outputsBefore } from './written-check.ts';
import { trackPendingReports } from './pending-reports.ts';
import type { WriteFailure } from '../report/file-reports.ts';
import type { RunFilters } from '../plan/types.ts';
import type { RunArgs, RunOutcome } from './run-options.ts';
import { openRunJournal } from './journal.ts';
export type { RunArgs, RunOutcome } from './run-options.ts';
import { describeWriteFailure, interruptedLines, runReportFile } from './write-failure.ts';
import { EXIT, verdictCode } from './run-exit.ts';
import { baselineCasesReader } from './baseline-cases.ts';
import { besideFiles, finishCommand, keptBeside, outputDiversion } from './journal-takeover.ts';
export { EXIT } from './run-exit.ts';

/**
 * `evals run`: load → prepare → execute → write the artifact (and JUnit) → exit code.
 * An interrupted run still writes its partial artifact, marked `interrupted: true`.
 */
export async function runCommand(args: RunArgs, ctx: CommandContext): Promise<number> {
  if (args.dryRun === true) return dryRun(args, ctx);
  const outputs = outputsBefore(runOutputs(args), ctx.cwd);
  const { exitCode, artifact, unwritten } = await executeRun(args, ctx);
  const end = checkRunEnd(outputs, {
    exitCode,
    interrupted: artifact.interrupted,
    failed: unwritten,
  });
  for (let i = 0; i < end.lines.length; i++) ctx.stderr.write(`error: ${end.lines[i]}\n`);
  return end.exitCode;
}

/**
 * `evals run --dry-run`: the plan of the run the same arguments would make, printed; nothing is
 * run, no user module is imported and no model is called. Exit 0, or 2 for the problems a run
 * would stop at before its first case that need no module imported (see `loadAndPlan`).
 */
async function dryRun(args: RunArgs, ctx: CommandContext): Promise<number> {
  const { resuming, filters, trials } = await selection(args, await readingContext(args, ctx));
  const { config, plan, pinIgnored, scrubber } = await loadAndPlan(args.config, ctx, filters, {
    ...trials,
    ...(args.ignorePin ? { ignorePin: true } : {}),
  });
  checkOutputsNotInputs(runOutputs(args), config, ctx.cwd);
  warnPinIgnored(pinIgnored, ctx);
  const shown = resuming ? resuming.narrow(plan, config, scrubber).plan : plan;
  // `json`: a long value the plan prints cut short with `…` may end inside a secret.
  ctx.stdout.write(scrubber.json(renderPlan(shown, terminalWidth(ctx))));
  return EXIT.pass;
}

/**
 * What the arguments select: with `--resume`, the interrupted run (whose shard and suites the
 * filters take; a killed run's journal recovered, unless dry), and the trials `--trials` sets.
 */
async function selection(
  args: RunArgs,
  ctx: CommandContext,
): Promise<{ resuming: Resumption | undefined; filters: RunFilters; trials: { trials?: number } }> {
  const resuming =
    args.resume === undefined
      ? undefined
      : (await import('./resume.ts')).startResume(args.resume, args.filters, args.trials, ctx, {
          ...(args.journal === true && args.dryRun !== true && { recover: args }),
        });
  return {
    resuming,
    filters: resuming?.filters ?? args.filters,
    trials: args.trials !== undefined ? { trials: args.trials } : {},
  };
}

/**
 * The whole of `evals run`, returning the artifact and config as well as the exit code.
 * `reporters` are added after the run's own (progress, summary, artifact file, JUnit): the
 * Action's pull-request reports.
 */
export async function executeRun(
  args: RunArgs,
  ctx: CommandContext,
  reporters: Reporter[] = [],
): Promise<RunOutcome> {
  if (args.dryRun === true) {
    throw usageError(
      'cli.dry-run',
      '--dry-run prints the plan of `evals run` on the command line; here the suites run and report (leave --dry-run out)',
    );
  }
  checkOutputPaths(runOutputs(args), ctx.cwd);
  checkNotBaseline(runOutputs(args).slice(1), args.baseline, ctx.cwd);
  const readCtx = await readingContext(args, ctx);
  const { resuming, filters, trials } = await selection(args, readCtx);
  // Read before running, so a bad baseline stops the run before any case costs anything. A
  // resumption compares with the baseline the interrupted run did, unless --baseline is given.
  const baseline = resuming
    ? await resuming.baseline(args.baseline, readCtx)
    : args.baseline === undefined
      ? undefined
      : {
          path: args.baseline,
          artifact: await (await import('./baseline.ts')).readBaseline(args.baseline, readCtx),
        };
  const comparing = baseline === undefined ? undefined : await import('./baseline.ts');
  // Names the baseline too when it came from a partial rather than from this run's --baseline;
  // a killed earlier run's kept partial, the baseline that run had (`killed`, journal.ts).
  const { resumeCommand: resumeOf } = args;
  const resumeCommand =
    resumeOf &&
    ((from?: string, killed?: string, beside?: (file: string) => string | undefined) =>
      resumeOf(from, killed ?? baseline?.path, beside));
  const { config, plan, suites, models, scrubber, pinIgnored } = await loadAndPrepare(
    args.config,
    ctx,
    filters,
    args.loader,
    {
      ...trials,
      ...(args.noCache ? { noCache: true } : {}),
      ...(args.cacheDir !== undefined ? { cacheDir: args.cacheDir } : {}),
      ...(args.updateBaselines ? { updateBaselines: true } : {}),
      ...(args.ignorePin ? { ignorePin: true } : {}),
      ...(args.signal ? { signal: args.signal } : {}),
    },
    resuming
      ? (planned, loaded, scrubber) => resuming.narrow(planned, loaded, scrubber)
      : undefined,
  );
  checkOutputsNotInputs(runOutputs(args), config, ctx.cwd);
  warnPinIgnored(pinIgnored, ctx);
  // Said only now that the resumption is accepted: a refused one writes nothing.
  if (resuming !== undefined) ctx.stderr.write(resuming.announce(plan, args.output, ctx.cwd));
  const marks = (artifact: ResultsArtifact): ResultsArtifact =>
    withPinIgnored(withShard(artifact, filters.shard), pinIgnored.length > 0);
  const git = readGitInfo(config.dir, ctx.env);
  // What an exit listener can use: it cannot wait for the git read.
  let gitRead: ResultsArtifact['git'] = null;
  void git.then((read) => (gitRead = read));
  // Cases the resumed runs take over from the partial: the rest ran now.
  const takenOver = plan.resume?.kept ?? 0;
  let ran = 0;
  const unwritten: WriteFailure[] = [];
  // Beside themselves instead, once another run took this one's journal over (journal-takeover.ts).
  const began = (): Date => resuming?.startedAt ?? startedAt;
  const divert = outputDiversion(() => journal, ctx.cwd, args.output, began);
  const fileReport = (path: string) => runReportFile(path, ctx.cwd, unwritten, divert);
  const finishFrom = resumeCommand && finishCommand(divert, args.output, resumeCommand);
  // Why the run was not compared with the baseline it was given (set as the run compares).
  let uncompared: string | undefined;
  const notCompared = (): string | undefined => uncompared ?? args.baselineMissing;
  // The baseline's own results of the changed cases, read again for the page's details.
  const baseCases = baseline && {
    baselineCases: baselineCasesReader(baseline.path, readCtx, scrubber),
  };
  const specs: ReporterSpec[] = [
    { name: 'progress' },
    {
      name: 'summary',
      notCompared,
      ...(resuming ? { preface: () => resuming.preface(ran) } : {}),
    },
    { name: 'artifact', ...fileReport(args.output) },
    ...(args.junit !== undefined ? [{ name: 'junit' as const, ...fileReport(args.junit) }] : []),
    ...(args.report !== undefined
      ? [{ name: 'html' as const, notCompared, ...fileReport(args.report), ...baseCases }]
      : []),
  ];
  // The run's whole artifact once the engine has ended, for an exit before it is on disk.
  let ended: ResultsArtifact | undefined;
  // The same, kept once it is on disk: what an exit the CLI chose then ends with.
  let finished: ResultsArtifact | undefined;
  const own = createReporters(specs, reporterContext(ctx));
  // What an exit the CLI chooses after the last case leaves unwritten (--junit, --report).
  const pendingReports = trackPendingReports(specs, own);
  // Once the artifact reporter has written the file (or said why it could not), an exit no
  // longer has results of this run to save: the guard leaves the file as it is. The summary's
  // pointer at `evals show` names the file that now holds them, if any does.
  own.splice(specs.findIndex((spec) => spec.name === 'artifact') + 1, 0, {
    onRunEnd: ({ artifact }) => {
      ended = undefined;
      const failed = unwritten.find((failure) => failure.path === args.output);
      // -o holds them now: nothing is left to recover, whatever happens before the other files.
      if (failed === undefined) journal?.release();
      const hint = showFailedHint(artifact.runs, failed === undefined ? args.output : failed.kept);
      if (hint !== undefined) ctx.stdout.write(`${hint}\n`);
    },
  });
  const journal =
    args.journal === true
      ? openRunJournal({
          output: args.output,
          ctx,
          ...(baseline !== undefined && { baseline }),
          ...(resumeCommand !== undefined && { resumeCommand }),
          ...(args.resume !== undefined && { resumedFrom: args.resume }),
          // Beside -o, what a kill -9 leaves for --resume; built from the engine's own runs,
          // whose grid values are not scrubbed yet (execute.ts does): scrubbed whole, once.
          frame: () => {
            const now = control.snapshot();
            if (now === undefined) return undefined;
            const durationMs = performance.now() - t0;
            const whole = runArtifact({ ...now, git: gitRead, startedAt, durationMs });
            return JSON.parse(scrubber.json(JSON.stringify(whole))) as ResultsArtifact;
          },
        })
      : undefined;
  // Cases are spooled to disk as they finish, so memory does not grow with the testset.
  const log = new CaseSpool({
    warn: (message) => ctx.stderr.write(`warning: ${message}\n`),
    root: spoolRoot(ctx.env),
    ...(journal !== undefined && { journal }),
  });
  // The partial of an interrupted run records its baseline (in its comparison) and the command
  // that finishes it names it, so the resumed run is compared and gated as this one would be.
  const compared =
    comparing && baseline !== undefined
      ? comparing.comparer(baseline, (run) => log.cases(run), suites, ctx, {
          ...(args.baselineName !== undefined && { shown: args.baselineName }),
          uncompared: (why) => (uncompared = why),
        })
      : (artifact: ResultsArtifact): ResultsArtifact => artifact;
  // An exit the CLI chooses (a second Ctrl-C) after the engine ended, before the run compared,
  // writes its results compared: `regressions: block` counts, and a partial records its baseline.
  const compareEnded = (): void => {
    if (finished === undefined || finished.comparison !== undefined) return;
    const done = compared(finished, true);
    if (ended === finished) ended = done;
    finished = done;
  };
  const control = new RunControl();
  const t0 = performance.now();
  const startedAt = new Date();
  const toOutput = { path: resolve(ctx.cwd, args.output), shown: args.output };
  // This run's artifact, whole or partial; a resumed run's start and time include the interrupted
  // run's. Each run records its plan, so it can be merged or resumed without the config.
  const runArtifact = (o: {
    runs: RunResult[];
    interrupted: boolean;
    git: ResultsArtifact['git'];
    startedAt: Date;
    durationMs: number;
  }): ResultsArtifact =>
    marks(
      withPassRecorded(
        buildArtifact({
          toolVersion,
          config: config.file,
          configHash: resuming?.configHash ?? config.hash,
          // The parts are recorded only with the hash they make (a partial's may be an older one).
          ...((resuming?.configHash ?? config.hash) === config.hash && {
            parts: config.hashParts,
            dataParts: config.dataParts,
          }),
          git: o.git,
          startedAt: resuming?.startedAt ?? o.startedAt,
          durationMs: (resuming?.durationMs ?? 0) + o.durationMs,
          interrupted: o.interrupted,
          runs: annotateRuns(o.runs, suites),
          removedSuites: config.removedSuites,
        }),
      ),
    );
  const unguard = guardProcess({
    control,
    stderr: ctx.stderr,
    ...(finishFrom !== undefined && { resumeCommand: finishFrom }),
    casesFinished: () => finished !== undefined && !finished.interrupted,
    // Every case finished: the results are whole, and the exit code is their verdict's.
    finishedExitCode: () => {
      compareEnded();
      return finished === undefined || finished.interrupted ? undefined : verdictCode(finished);
    },
    reportsLeft: () => pendingReports.left(args.output, besideFiles(divert, args.output)),
    results: args.output,
    writePartial: ({ result }) => {
      // Compared without a word: the process is quitting, not reporting.
      const partial = compared(
        runArtifact({
          runs: result.runs,
          interrupted: true,
          git: gitRead,
          startedAt,
          durationMs: performance.now() - t0,
        }),
        true,
      );
      const to = divert(args.output) ?? toOutput;
      try {
        log.writeArtifactSync(to.path, partial);
        journal?.discard();
      } finally {
        // The spool's own exit listener may have been added during this exit: too late to run.
        log.discard();
      }
      return to.shown;
    },
    writeEnded: () => {
      // A file that could not be written was reported to `unwritten`, printed after the run:
      // an exit before that says it now.
      if (unwritten.length > 0) {
        const done = finished?.interrupted ? 'the run was interrupted' : 'the run finished';
        throw new Error(unwritten.map((f) => describeWriteFailure(f, done)).join('; '));
      }
      // Written already by the artifact reporter (which said so), or now.
      compareEnded();
      if (ended === undefined) return undefined;
      const to = divert(args.output) ?? toOutput;
      log.writeArtifactSync(to.path, ended);
      journal?.discard();
      return to.shown;
    },
    writtenInstead: () => keptBeside(divert, args.output, finished?.interrupted === true),
  });
  let artifact: ResultsArtifact;
  // Kept (flushed) when the run ends without its results written: a later run recovers it.
  let written = false;
  try {
    artifact = await execute(suites, {
      log,
      scrubber,
      reporters: [...own, ...reporters],
      engine: {
        control,
        ...(args.signal ? { signal: args.signal } : {}),
        ...(args.concurrency !== undefined ? { globalConcurrency: args.concurrency } : {}),
        // A shard's cases carry their testset positions, for `evals merge`.
        positions: filters.shard !== undefined,
        shard: filters.shard !== undefined,
      },
      artifact: async (executed) => {
        // Every case is in the journal before the artifact is written: a journal is never
        // newer than the artifact of its run (see recoverForResume).
        journal?.flush();
        const recorded = executed.runs.reduce((sum, run) => sum + run.summary.cases, 0);
        ran = recorded - takenOver;
        // A resumed run may be complete in cases and still be marked so: it counts them.
        const incomplete = executed.runs.some((run) => run.summary.cases < run.testset.cases);
        const interrupted = executed.interrupted || (resuming !== undefined && incomplete);
        // Failed before any report writes it when the run's code replaced built-ins (end checks).
        const artifactWith = (gitInfo: ResultsArtifact['git']): ResultsArtifact =>
          failedForBuiltins(runArtifact({ ...executed, interrupted, git: gitInfo }));
        // The results are whole from here: an exit while the rest is awaited still writes them.
        ended = finished = artifactWith(gitRead);
        // Files judges keep (automatic-battle baselines) are written once, after the last call.
        for (const failure of await models.finish()) ctx.stderr.write(`warning: ${failure}\n`);
        const built = compared(artifactWith(await git));
        ended = finished = built;
        return built;
      },
    });
    // Discarded only once its cases are somewhere: -o, or the copy kept when -o failed.
    written = !unwritten.some((failure) => failure.path === args.output && failure.kept === null);
  } finally {
    unguard();
    // The journal first: closing it takes the lines the spool holds, which discarding drops.
    if (written) journal?.discard();
    else journal?.close();
    log.discard();
  }
  const said = uncompared !== undefined && artifact.comparison === undefined ? { uncompared } : {};
  if (artifact.interrupted) {
    // Exit 130 even when a file could not be written: the interruption comes first.
    for (const line of interruptedLines(args.output, unwritten, finishFrom)) {
      ctx.stderr.write(`${line}\n`);
    }
    return { artifact, config, exitCode: EXIT.interrupted, unwritten, ...said };
  }
  if (unwritten.length > 0) {
    for (const failure of unwritten) {
      ctx.stderr.write(`error: ${describeWriteFailure(failure, 'the run finished')}\n`);
    }
    return { artifact, config, exitCode: EXIT.unwritten, unwritten, ...said };
  }
  return { artifact, config, exitCode: verdictCode(artifact), unwritten, ...said };
}
