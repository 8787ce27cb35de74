/**
 * `evals testset <command>`: each sub-command's arguments parsed by the shared parser against
 * its spec in ./commands.ts, then handed, checked and typed, to the file that does it.
 */
import { closestMatch } from '../../config/did-you-mean.ts';
import { usageError, type UsageError } from '../../shared/errors.ts';
import type { CommandContext } from '../../pipeline/context.ts';
import { positional, withArgs } from '../args.ts';
import {
  TESTSET,
  TESTSET_COMMANDS,
  TESTSET_CONVERT,
  TESTSET_DIFF,
  TESTSET_LOG,
  TESTSET_PIN,
  TESTSET_REVISION,
  TESTSET_SHOW,
} from './commands.ts';
import { renderHelp } from '../help.ts';
import { convertCommand } from './convert.ts';
import { diffCommand } from './diff.ts';
import { logCommand } from './log.ts';
import { pinCommand } from './pin.ts';
import { identityArgs } from './read.ts';
import { revisionCommand } from './revision.ts';
import { showCommand } from './show.ts';
import { quotedValue } from '../../shared/shown-value.ts';

/** `evals testset …` (argv after `testset`): runs the sub-command; usage errors are thrown (exit 2). */
export async function testsetCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === 'help') {
    ctx.stdout.write(renderHelp(TESTSET));
    return first === undefined ? 2 : 0;
  }
  if (first.startsWith('-')) {
    // `--help`, or an option of the group's: a command must come first.
    return withArgs(TESTSET, argv, ctx, () => {
      throw unknownCommand(first);
    });
  }
  switch (first) {
    case 'revision':
      return withArgs(TESTSET_REVISION, rest, ctx, ({ values, positionals }) =>
        revisionCommand(
          positional(positionals, 0),
          { ...identityArgs(TESTSET_REVISION, values), json: values.json === true },
          ctx,
        ),
      );
    case 'show':
      return withArgs(TESTSET_SHOW, rest, ctx, ({ values, positionals }) =>
        showCommand(
          positional(positionals, 0),
          { ...identityArgs(TESTSET_SHOW, values), json: values.json === true },
          ctx,
        ),
      );
    case 'diff':
      return withArgs(TESTSET_DIFF, rest, ctx, ({ values, positionals }) =>
        diffCommand(
          positional(positionals, 0),
          positional(positionals, 1),
          { ...identityArgs(TESTSET_DIFF, values), json: values.json === true },
          ctx,
        ),
      );
    case 'log':
      return withArgs(TESTSET_LOG, rest, ctx, ({ values, positionals }) =>
        logCommand(
          positional(positionals, 0),
          { ...identityArgs(TESTSET_LOG, values), json: values.json === true },
          ctx,
        ),
      );
    case 'convert':
      return withArgs(TESTSET_CONVERT, rest, ctx, ({ values, positionals }) =>
        convertCommand(
          positional(positionals, 0),
          positional(positionals, 1),
          { lossy: values.lossy === true },
          ctx,
        ),
      );
    case 'pin':
      return withArgs(TESTSET_PIN, rest, ctx, ({ values, positionals }) =>
        pinCommand(positionals[0], { check: values.check === true }, ctx),
      );
    default:
      throw unknownCommand(first);
  }
}

function unknownCommand(word: string): UsageError {
  const commands = Object.keys(TESTSET_COMMANDS);
  const guess = closestMatch(word, commands);
  return usageError(
    'cli.unknown-command',
    `unknown command ${quotedValue(`testset ${word}`)} (${guess !== undefined ? `did you mean testset ${guess}? ` : ''}commands: ${commands.join(', ')}; see evals testset --help)`,
  );
}
