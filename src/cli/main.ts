import type { CommandContext } from '../pipeline/context.ts';
import { EXIT, runCommand } from '../pipeline/run.ts';
import { closestMatch } from '../config/did-you-mean.ts';
import { UsageError, formatIssue, usageError, type Issue } from '../shared/errors.ts';
import { toolVersion } from '../shared/version.ts';
import { optionError, positional, withArgs } from './args.ts';
import {
  COMMANDS,
  COMPARE,
  EVALS,
  INIT,
  MERGE,
  OVERRIDE,
  REPORT,
  RUN,
  SHOW,
  VALIDATE,
} from './commands.ts';
import { renderHelp } from './help.ts';
import { resumeCommand, runArgs } from './run-args.ts';
import { validateCommand } from './validate.ts';
import { guarding } from '../pipeline/exit-guard.ts';
import { watchSignals } from '../pipeline/signals.ts';
import { filesBeingImported } from '../bind/modules/loader.ts';
import { scheduledByImport } from '../bind/modules/import-scope.ts';
import { relative } from 'node:path';
import { endAfterCommand } from '../pipeline/late-exit.ts';
import { changedBuiltins } from '../pipeline/written-check.ts';
import { describeError } from '../shared/describe-error.ts';
import { quotedValue } from '../shared/shown-value.ts';
import { createScrubber, secretsInEnv } from '../shared/secrets.ts';
import { scrubbedError } from '../pipeline/load.ts';

// The Action parses its `args` input with the CLI's own parser, imported from here.

/**
 * Process-level wiring: real streams, environment and signals. Returns the exit code.
 * `early`: signals the launcher caught while this module loaded (bin/evals.js holds them from its
 * first line, so a SIGTERM in the first instants is not lost), handled as if they came now.
 */
export async function main(argv: string[], early: readonly string[] = []): Promise<number> {
  // A reader that goes away (`evals run … | head -1`, a terminal closed) closes its pipe or tty:
  // what is still to print there is dropped, and the run goes on to write its results.
  // Any other failure to print (a full disk under `> out.json`) is said once, and the command
  // then exits 3, as for a file it could not write: what it printed is incomplete.
  // Standard error (progress and warnings) that cannot be written is dropped: the command's
  // output and files are whole, and there is nowhere left to say it.
  let outputFailed = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException): void => {
    if (closedReader(error) || outputFailed) return;
    outputFailed = true;
    process.stderr.write(
      `error: standard output could not be written (${describeError(error)}): what evals printed there is incomplete\n`,
    );
  });
  process.stderr.on('error', () => {});
  const ctx: CommandContext = {
    cwd: process.cwd(),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
  };
  // Set before an exit the CLI chooses itself, so that the watch below does not blame user code.
  let ownExit = false;
  // Only `evals run` stops gracefully (its cases finish, its partial artifact is written); every
  // other command has nothing to keep and ends at the first signal.
  const signals = watchSignals({
    stderr: ctx.stderr,
    graceful: argv[0] === 'run',
    stopping:
      'no new cases start; writing the partial artifact with the cases that finished (press Ctrl-C again to quit now)',
    writing:
      'every case has finished; writing the results (press Ctrl-C again to quit now; they are written first)',
    exiting: () => (ownExit = true),
    loading: () => importingNow(ctx),
  });
  // The event loop emptied while the command still waits: a promise that can never settle (a
  // module's top-level await, say). Node would end with code 13 and no word; say so instead.
  // During a run, its own guard (pipeline/exit-guard.ts) deals with it and keeps the results.
  const onStalled = (): void => {
    if (guarding()) return;
    // A module still loading is the one whose top-level await never ends: a problem of the
    // code the config names, so named, and exit 2 as for a module that fails to load.
    const loading = importingNow(ctx);
    ctx.stderr.write(
      loading.length > 0
        ? `error: evals stopped before it finished: ${loading.join(', ')} never finished loading (a top-level await that can never settle), with nothing else left to run\n`
        : 'error: evals stopped before it finished: it waited on a promise that can never settle (a module whose top-level await never ends, say), with nothing else left to run\n',
    );
    process.exitCode = loading.length > 0 ? EXIT.usage : EXIT.fail;
    // Said: the exit that follows is not one more to explain.
    ownExit = true;
  };
  // The process ends while the command still works, outside a run's own guard: user code
  // called `process.exit` while its module was loaded (a run, `validate`). Its code would stand
  // (an `exit(0)` passing CI with no case run) and nothing would say why; say so, and exit 2.
  const onExit = (code: number): void => {
    if (ownExit || guarding()) return;
    // Code a module scheduled when it was imported (a timer its top level set) is that module's,
    // whichever module is loading when it fires; code its import runs is the loading module's.
    const marked = scheduledByImport();
    const scheduled = filesBeingImported().includes(marked ?? '') ? undefined : marked;
    const files = importingNow(ctx);
    const loading =
      scheduled !== undefined
        ? `, by code ${relative(ctx.cwd, scheduled) || scheduled} scheduled when it was imported: a module whose import sets up a process.exit ends evals with it`
        : files.length > 0
          ? `, while it loaded ${files.join(', ')}: a module that calls process.exit when it is imported ends evals with it`
          : '';
    ctx.stderr.write(
      `error: the process was ended (exit code ${code}) before evals finished${loading}; no case ran and nothing was written\n`,
    );
    process.exitCode = EXIT.usage;
  };
  process.on('beforeExit', onStalled);
  process.on('exit', onExit);
  for (const _ of early.slice(0, 2)) signals.deliver();
  let code: number | undefined;
  try {
    code = await cli(argv, ctx, signals.signal);
    return code;
  } finally {
    signals.stop();
    process.off('beforeExit', onStalled);
    process.off('exit', onExit);
    // The command is done, but the process may linger on what user code left open.
    if (code !== undefined) {
      const finished = code;
      // A pass or a fail that printed only part of itself; a usage error (2) stays what it is.
      const cutShort = (): boolean => outputFailed && (finished === 0 || finished === EXIT.fail);
      endAfterCommand(() => (cutShort() ? EXIT.unwritten : finished), ctx.stderr);
    }
  }
}

/**
 * Parses argv and dispatches. The one place where user mistakes become exit code 2 with a
 * plain message; anything else is a bug and keeps its stack trace.
 */
export async function cli(
  argv: string[],
  ctx: CommandContext,
  signal?: AbortSignal,
): Promise<number> {
  try {
    return await dispatch(argv, ctx, signal);
  } catch (thrown) {
    // Every problem, however it came, without the environment's secrets: a command that loads
    // no config (`evals show`, `evals testset show`) quotes files that may hold one.
    const scrubber = createScrubber(secretsInEnv(ctx.env));
    const error = thrown instanceof UsageError ? scrubbedError(thrown, scrubber) : thrown;
    if (error instanceof UsageError) {
      // An issue with no file (a bad flag) would start with formatIssue's column gap. A count of
      // problems not shown is no problem itself: it is printed as it is, and counted in the total.
      const lines =
        error.issues.length > 0
          ? error.issues.map((issue) => {
              const text = formatIssue(issue).trimStart();
              return notShown(issue) === null ? `error: ${text}` : text;
            })
          : [`error: ${error.message}`];
      ctx.stderr.write(`${lines.join('\n')}\n`);
      let shown = 0;
      let total = 0;
      for (const issue of error.issues) {
        const more = notShown(issue);
        shown += more === null ? 1 : 0;
        total += more ?? 1;
      }
      if (total > 1) {
        ctx.stderr.write(`${total} problems found${total > shown ? ` (${shown} shown)` : ''}\n`);
      }
      return EXIT.usage;
    }
    // Code under test that replaced a built-in evals relies on can break evals itself: said
    // so, rather than left as a stack trace that reads as a bug of evals.
    const changed = changedBuiltins();
    if (changed.length === 0) throw error;
    ctx.stderr.write(
      `error: evals could not go on (${scrubber.text(describeError(error))}): the code the run loaded replaced built-ins it relies on (${changed.join(', ')}); a suite with \`isolation: worker\` runs its code apart\n`,
    );
    return EXIT.fail;
  }
}

/**
 * How many problems a summary issue stands for (`config.too-many-issues`,
 * `testset.too-many-issues`: "N more problems … not shown"; `yaml.too-many-issues`: "N more
 * YAML errors not shown"), or `null` for a problem.
 */
function notShown(issue: Issue): number | null {
  if (!issue.code.endsWith('.too-many-issues')) return null;
  const count = /^(\d+) more (?:problem|YAML error)/.exec(issue.message);
  return count ? Number(count[1]) : 0;
}

async function dispatch(
  argv: string[],
  ctx: CommandContext,
  signal?: AbortSignal,
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === 'help') {
    ctx.stdout.write(renderHelp(EVALS));
    return first === undefined ? EXIT.usage : 0;
  }
  if (first.startsWith('-')) {
    return withArgs(EVALS, argv, ctx, ({ values }) => {
      if (!values.version) throw unknownCommand(first);
      // The package's name with it: the `evals` command may come from another package.
      ctx.stdout.write(`evalgate ${toolVersion}\n`);
      return 0;
    });
  }
  // Commands other than run/validate load on demand: `evals run` starts faster without them.
  switch (first) {
    case 'run':
      return withArgs(RUN, rest, ctx, ({ values, positionals }) =>
        runCommand(
          {
            ...runArgs(values, positionals[0]),
            journal: true,
            resumeCommand: (from, baseline, beside) => resumeCommand(rest, from, baseline, beside),
            ...(signal ? { signal } : {}),
          },
          ctx,
        ),
      );
    case 'validate':
      return withArgs(VALIDATE, rest, ctx, ({ positionals }) =>
        validateCommand(positionals[0], ctx),
      );
    case 'init':
      return withArgs(INIT, rest, ctx, async ({ values, positionals }) =>
        (await import('./init.ts')).initCommand(positionals[0], values.template, ctx),
      );
    case 'compare':
      return withArgs(COMPARE, rest, ctx, async ({ values, positionals }) => {
        const format = values.format;
        if (format !== 'text' && format !== 'md' && format !== 'json') {
          throw optionError(COMPARE, '--format', 'text, md or json', quotedValue(format));
        }
        return (await import('./compare.ts')).compareCommand(
          positional(positionals, 0),
          positional(positionals, 1),
          format,
          ctx,
        );
      });
    case 'merge':
      return withArgs(MERGE, rest, ctx, async ({ values, positionals }) =>
        (await import('./merge.ts')).mergeCommand(
          {
            inputs: positionals,
            output: values.output,
            ...(values.junit !== undefined ? { junit: values.junit } : {}),
            allowPartial: values['allow-partial'] === true,
            ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
          },
          ctx,
        ),
      );
    case 'show':
      return withArgs(SHOW, rest, ctx, async (args) =>
        (await import('./show.ts')).showCommand(args, ctx),
      );
    case 'report':
      return withArgs(REPORT, rest, ctx, async (args) =>
        (await import('./report.ts')).reportCommand(args, ctx),
      );
    case 'override':
      return withArgs(OVERRIDE, rest, ctx, async (args) =>
        (await import('./override.ts')).overrideCommand(args, ctx),
      );
    case 'testset':
      return (await import('./testset/command.ts')).testsetCommand(rest, ctx);
    default:
      throw unknownCommand(first);
  }
}

function unknownCommand(word: string): UsageError {
  const commands = Object.keys(COMMANDS);
  const guess = closestMatch(word, commands);
  return usageError(
    'cli.unknown-command',
    `unknown command ${quotedValue(word)} (${guess !== undefined ? `did you mean ${guess}? ` : ''}commands: ${commands.join(', ')}; see evals --help)`,
  );
}

/**
 * Whether an error of stdout or stderr is a reader gone: a closed pipe (EPIPE, and every write
 * after it) is the reader's choice, and a terminal that hung up (EIO: the window closed, the ssh
 * session dropped) is gone as a reader is; neither is a failure of the command, whose results
 * still go to their files.
 */
function closedReader(error: NodeJS.ErrnoException): boolean {
  return error.code === 'EPIPE' || error.code === 'EIO' || error.code === 'ERR_STREAM_DESTROYED';
}

/** The user modules being imported now, as paths from the working folder. */
function importingNow(ctx: CommandContext): string[] {
  return filesBeingImported().map((file) => relative(ctx.cwd, file) || file);
}
