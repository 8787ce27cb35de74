/**
 * The two endings of a run that no code of ours chooses, watched on the process while the run
 * is under way:
 *
 * - The event loop empties while cases still wait (`beforeExit`): a promise of user code that
 *   can never settle (`timeout: none`). Left alone, Node ends the process with code 13 and
 *   nothing written. Instead those calls are errored as never settled and the run goes on.
 * - The process exits under the run (`exit`): user code called `process.exit`, or something
 *   threw where nothing could catch it. The run is abandoned synchronously, the case whose code
 *   was running recorded as errored (every case in flight when none was), the others left for
 *   `--resume`, and the partial artifact written before the process is gone; the
 *   exit code is made 1 (an `exit(0)` from user code must not pass a gate) and one message
 *   says which case was running. The error that ended it, when one did (an uncaught exception,
 *   an unhandled rejection), is that case's error, so the artifact says why and not only that.
 *   Once the engine has ended, the run's results are whole but
 *   their artifact may not be on disk yet (it is written asynchronously): an exit then (a second
 *   Ctrl-C, an uncaught error in a reporter) writes that artifact synchronously instead, so the
 *   file named by `-o` never keeps an earlier run's results while this run's are lost.
 *   An exit from code a user module scheduled when it was imported (a timer its top level set,
 *   see bind/modules/import-scope.ts) is that module's doing, not a case's: the line names the
 *   module, and the cases in flight are left for `--resume` rather than recorded as errored.
 */
import { relative } from 'node:path';
import { scheduledByImport } from '../bind/modules/import-scope.ts';
import type { AbandonedRun, RunControl, RunningCase } from '../run/control.ts';
import { describeError } from '../shared/describe-error.ts';
import { EXIT_UNWRITTEN } from './write-failure.ts';

/** What the guard needs from the run it watches. */
export interface ExitGuardOptions {
  control: RunControl;
  /**
   * Writes the partial artifact of `abandoned` synchronously; returns where it went, or throws;
   * undefined when the run writes no artifact (`runTestSuite` without `output`).
   */
  writePartial(abandoned: AbandonedRun): string | undefined;
  /**
   * After the engine ended: writes the run's artifact synchronously and returns where it went
   * (or throws); undefined when there is nothing to write yet.
   */
  writeEnded(): string | undefined;
  /**
   * After {@link writeEnded} wrote the results: why they are not where the run was asked to
   * write them (another run holds `-o`, pipeline/journal-takeover.ts), one line saying where they
   * are kept instead; undefined when they went where asked. The exit is then a write failure's
   * (`3`), not the verdict's.
   */
  writtenInstead?(): string | undefined;
  stderr: { write(text: string): unknown };
  /**
   * The command that resumes this run from its partial artifact, written to `written` (as
   * {@link writePartial} or {@link writeEnded} said; the run's `-o` when undefined).
   */
  resumeCommand?(written?: string): string;
  /** True once every case of the run has finished: only its results are left to write. */
  casesFinished?(): boolean;
  /**
   * The exit code of the run's results once every case has finished (its verdict's), for an
   * exit the edge chose then (a second Ctrl-C): the results are whole and written, so the code
   * says what they say. Undefined while cases are left (the exit's own code stands).
   */
  finishedExitCode?(): number | undefined;
  /**
   * After the last case: the reports (`--junit`, `--report`) still to be written, and how to make
   * them, in words; undefined when none is left. An exit the edge chose before they are written
   * says so and exits 130: the run ended short of what it was asked to write.
   */
  reportsLeft?(): string | undefined;
  /** The results file as the user named it (`-o`), for the line {@link reportsLeft} ends. */
  results?: string;
}

/** The exit code of a run a signal cut short (docs/cli.md). */
const INTERRUPTED = 130;

/** The options of the run being watched now, for {@link writingResults}. */
let current: ExitGuardOptions | undefined;

/**
 * True when the run being watched has finished every case and only writes its results: a
 * signal then has no case to stop, and the CLI says so rather than promise a partial artifact.
 */
export function writingResults(): boolean {
  return current?.casesFinished?.() ?? false;
}

/** An exit the edge chose itself (a second Ctrl-C), so it is not blamed on user code. */
let chosenExit: string | null = null;

/**
 * Says that the coming `process.exit` is the CLI's own, with `reason` as the cases' error: the
 * partial artifact is still written, but no case is blamed and the exit code is kept.
 */
export function announceExit(reason: string): void {
  chosenExit = reason;
}

/** Exit code of a run ended by something other than its verdict (see `evals run --help`). */
const CUT_SHORT = 1;

/** Runs being watched now (see {@link guarding}). */
let watched = 0;

/**
 * True while a run's guard is on: the edge that watches for an emptied event loop outside of
 * runs (a module whose top-level await never settles) leaves it to the guard then.
 */
export function guarding(): boolean {
  return watched > 0;
}

/** The error of cases in flight in a run that stalled with no user call waiting: a bug. */
const STALLED =
  'the run stalled while this case ran: nothing was left to run, and no call of user code was waiting (a bug in evalgate; please report it)';

/** Watches the process for the endings above; returns the function that stops watching. */
export function guardProcess(options: ExitGuardOptions): () => void {
  const { control, stderr } = options;
  const onBeforeExit = (): void => {
    const count = control.neverSettled();
    if (count > 0) {
      stderr.write(
        `warning: ${count} call(s) of user code never settled (nothing was left that could resolve them); they are recorded as errored "never settled" — give the suite a timeout to bound them\n`,
      );
      return;
    }
    // Nothing to error, yet the run is still attached: it can never end. Keep what it has.
    const abandoned = control.abandon(STALLED, 'culprit');
    if (abandoned === undefined) return;
    stderr.write(`error: ${STALLED}; ${written(abandoned)}\n`);
    process.exitCode = CUT_SHORT;
  };
  /** Where the partial artifact went, in words, and whether it is on disk (and where). */
  const writtenTo = (
    abandoned: AbandonedRun,
  ): { text: string; onDisk: boolean; where?: string } => {
    try {
      const where = options.writePartial(abandoned);
      return where === undefined
        ? { text: 'no artifact is written (none was asked for)', onDisk: false }
        : {
            text: `the partial artifact is written to ${where} (interrupted: true)`,
            onDisk: true,
            where,
          };
    } catch (error) {
      return {
        text: `the partial artifact could not be written: ${describe(error)}`,
        onDisk: false,
      };
    }
  };
  const written = (abandoned: AbandonedRun): string => writtenTo(abandoned).text;
  // The error about to end the process, seen before Node prints it and exits: the `exit` that
  // follows records it. One that an `uncaughtException` listener of the user's handles does
  // not end the process, and is not kept.
  let fatal: { error: unknown; origin: string; module: string | undefined } | undefined;
  const onUncaught = (error: unknown, origin: string): void => {
    if (process.listenerCount('uncaughtException') > 0) return;
    fatal ??= { error, origin, module: scheduledByImport() };
  };
  const onExit = (code: number): void => {
    const chosen = chosenExit;
    // Read now, in the context of the code that called `process.exit` (or threw).
    const file = chosen === null ? (fatal?.module ?? scheduledByImport()) : undefined;
    const module = file === undefined ? undefined : relative(process.cwd(), file) || file;
    const kind =
      fatal === undefined
        ? undefined
        : fatal.origin === 'unhandledRejection'
          ? 'an unhandled rejection'
          : 'an uncaught exception';
    const cause = fatal === undefined ? '' : `: ${kind}: ${describeError(fatal.error)}`;
    const reason =
      chosen ??
      (module === undefined
        ? `the process exited (exit code ${code}) while this case ran, before it finished${cause}`
        : `the process exited (exit code ${code}) by code ${module} scheduled when it was imported, before this case finished${cause}`);
    // Code a module scheduled at import ended it: no case is to blame (see the module comment).
    const blame = chosen === null && module === undefined ? 'culprit' : 'none';
    const abandoned = control.abandon(reason, blame);
    if (abandoned === undefined) {
      writeEnded(chosen, code, module);
      return;
    }
    const partial = writtenTo(abandoned);
    const where = partial.text;
    // The reports after the artifact (`--junit`, `--report`) are not written: how to make them.
    const left = partial.onDisk && chosen === null ? options.reportsLeft?.() : undefined;
    const resume =
      (options.resumeCommand !== undefined && abandoned.result.interrupted
        ? `; to finish it: ${options.resumeCommand(partial.where)}`
        : '') + (left === undefined ? '' : `; ${left}`);
    if (chosen !== null) {
      stderr.write(`${chosen}: ${where}${resume}\n`);
      return;
    }
    const who =
      module === undefined
        ? culprit(abandoned, code, kind)
        : moduleCulprit(abandoned, code, module, kind);
    stderr.write(`error: ${who}; ${where}${resume}\n`);
    process.exitCode = CUT_SHORT;
  };
  /**
   * The engine has ended: its artifact, if not on disk yet, is written now or never. An exit
   * the edge did not choose makes the code 1 and says so: the verdict never reached the code.
   */
  const writeEnded = (chosen: string | null, code: number, module: string | undefined): void => {
    const by = module === undefined ? '' : `, by code ${module} scheduled when it was imported`;
    const why =
      chosen ?? `error: the process exited (exit code ${code})${by} before evals finished`;
    // An exit the edge chose after the last case ends as the whole results say: their verdict.
    const verdict = chosen === null ? undefined : options.finishedExitCode?.();
    if (chosen === null) process.exitCode = CUT_SHORT;
    let where: string | undefined;
    try {
      where = options.writeEnded();
    } catch (error) {
      // Also when -o went elsewhere before this exit (a write failed, or another run holds it):
      // a report still being written (a FIFO nobody reads yet) is left, and said, as below.
      const left = chosen === null ? undefined : options.reportsLeft?.();
      if (left !== undefined) process.exitCode = INTERRUPTED;
      else if (verdict !== undefined) process.exitCode = EXIT_UNWRITTEN;
      const reports = left === undefined ? '' : `; ${left}`;
      stderr.write(`${why}; the results could not be written: ${describe(error)}${reports}\n`);
      return;
    }
    // Kept beside -o, which another run holds: not where they were asked for, as for a failure.
    const instead = where === undefined ? undefined : options.writtenInstead?.();
    if (verdict !== undefined) process.exitCode = instead === undefined ? verdict : EXIT_UNWRITTEN;
    const writtenTo = (at: string | undefined): string =>
      instead !== undefined
        ? `; ${instead}`
        : `; the results are written${at === undefined ? '' : ` to ${at}`}`;
    const left = options.reportsLeft?.();
    if (left !== undefined && chosen !== null) {
      process.exitCode = INTERRUPTED;
      // An interrupted run's resumption writes them too, with the cases it still lacks.
      const resume =
        verdict === undefined && options.resumeCommand !== undefined
          ? `; or finish the run, which writes them, with: ${options.resumeCommand(where)}`
          : '';
      stderr.write(`${why}${writtenTo(where ?? options.results)}; ${left}${resume}\n`);
    } else if (where !== undefined) {
      // User code ended it before the reports: say how to make them (the exit code stays 1).
      const reports = left === undefined ? '' : `; ${left}`;
      // A partial written at the edge's exit (a second Ctrl-C while it was being written).
      const resume =
        chosen !== null && verdict === undefined && options.resumeCommand !== undefined
          ? `${instead === undefined ? ' (interrupted: true)' : ''}; to finish it: ${options.resumeCommand(where)}`
          : '';
      stderr.write(`${why}${writtenTo(where)}${resume}${reports}\n`);
    } else if (chosen === null) {
      const reports = left === undefined || options.results === undefined ? '' : `; ${left}`;
      stderr.write(`${why}${reports}\n`);
    }
  };
  process.on('beforeExit', onBeforeExit);
  process.on('exit', onExit);
  process.on('uncaughtExceptionMonitor', onUncaught);
  watched++;
  current = options;
  return () => {
    watched--;
    if (current === options) current = undefined;
    process.off('beforeExit', onBeforeExit);
    process.off('exit', onExit);
    process.off('uncaughtExceptionMonitor', onUncaught);
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Who ended the process: the case whose code was running, else the cases in flight. */
function culprit({ current, running }: AbandonedRun, code: number, kind?: string): string {
  // What the error said is the case's error, and Node prints it with its stack as it exits.
  const by = kind === undefined ? '' : ` (${kind})`;
  const ended = `the process was ended (exit code ${code}) from inside the run${by}`;
  if (current !== null) {
    const others = running.length - 1;
    const left =
      others > 0
        ? `; the ${others} other case(s) in flight did not finish and are left for --resume`
        : '';
    return `${ended}, by user code of ${describeCase(current)}; that case is recorded as errored${left}`;
  }
  if (running.length === 0) return `${ended}, while no case was running`;
  const shown = running.slice(0, 5).map(describeCase).join(', ');
  const more = running.length > 5 ? ` and ${running.length - 5} more` : '';
  return `${ended}, while ${running.length} case(s) were in flight: ${shown}${more}; they are recorded as errored`;
}

/**
 * The module whose import scheduled the code that ended the process (a timer its top level
 * set), and what became of the cases in flight: none is to blame, so none is recorded.
 */
function moduleCulprit(
  { running }: AbandonedRun,
  code: number,
  module: string,
  kind?: string,
): string {
  const by = kind === undefined ? '' : ` (${kind})`;
  const ended = `the process was ended (exit code ${code}) from inside the run${by}, by code ${module} scheduled when it was imported (a timer or callback its top level set up), not by a case`;
  return running.length === 0
    ? ended
    : `${ended}; the ${running.length} case(s) in flight did not finish and are left for --resume`;
}

/** `case "au" of suite "capitals" (testsets/capitals.csv:5)` */
export function describeCase(running: RunningCase): string {
  const params = Object.keys(running.params).length > 0 ? ` ${JSON.stringify(running.params)}` : '';
  const where = running.source === null ? '' : ` (${running.source.file}:${running.source.line})`;
  return `case "${running.id}" of suite "${running.suite}"${params}${where}`;
}
