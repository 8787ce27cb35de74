import type { CommandContext } from '../pipeline/context.ts';
import { EXIT, runCommand } from '../pipeline/run.ts';
import { closestMatch } from '../config/did-you-mean.ts';
import { UsageError, formatIssue, usageError } from '../shared/errors.ts';
import { toolVersion } from '../shared/version.ts';
import { optionError, positional, withArgs } from './args.ts';
import { COMMANDS, COMPARE, EVALS, INIT, MERGE, RUN, VALIDATE } from './commands.ts';
import { renderHelp } from './help.ts';
import { runArgs } from './run-args.ts';
import { validateCommand } from './validate.ts';

// The Action parses its `args` input with the CLI's own parser, imported from here.

/** Process-level wiring: real streams, environment and signals. Returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const ctx: CommandContext = {
    cwd: process.cwd(),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
  };
  const interrupt = new AbortController();
  let signals = 0;
  const onSignal = (): void => {
    signals += 1;
    if (signals === 1) {
      ctx.stderr.write(
        '\nstopping: no new cases start; writing the partial artifact with the cases that finished (press Ctrl-C again to quit now)\n',
      );
      interrupt.abort();
    } else {
      process.exit(EXIT.interrupted);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await cli(argv, ctx, interrupt.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
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
  } catch (error) {
    if (error instanceof UsageError) {
      // An issue with no file (a bad flag) would start with formatIssue's column gap.
      const lines =
        error.issues.length > 0
          ? error.issues.map((issue) => formatIssue(issue).trimStart())
          : [error.message];
      ctx.stderr.write(`${lines.map((l) => `error: ${l}`).join('\n')}\n`);
      if (error.issues.length > 1) ctx.stderr.write(`${error.issues.length} problems found\n`);
      return EXIT.usage;
    }
    throw error;
  }
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
      ctx.stdout.write(`${toolVersion}\n`);
      return 0;
    });
  }
  // Commands other than run/validate load on demand: `evals run` starts faster without them.
  switch (first) {
    case 'run':
      return withArgs(RUN, rest, ctx, ({ values, positionals }) =>
        runCommand({ ...runArgs(values, positionals[0]), ...(signal ? { signal } : {}) }, ctx),
      );
    case 'validate':
      return withArgs(VALIDATE, rest, ctx, ({ positionals }) =>
        validateCommand(positionals[0], ctx),
      );
    case 'init':
      return withArgs(INIT, rest, ctx, async ({ positionals }) =>
        (await import('./init.ts')).initCommand(positionals[0], ctx),
      );
    case 'compare':
      return withArgs(COMPARE, rest, ctx, async ({ values, positionals }) => {
        const format = values.format;
        if (format !== 'text' && format !== 'md' && format !== 'json') {
          throw optionError(COMPARE, '--format', 'text, md or json', JSON.stringify(format));
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
            allowPartial: values['allow-partial'] === true,
          },
          ctx,
        ),
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
    `unknown command "${word}" (${guess !== undefined ? `did you mean ${guess}? ` : ''}commands: ${commands.join(', ')}; see evals --help)`,
  );
}
