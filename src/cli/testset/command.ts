/**
 * `evals testset <command>`: each sub-command's arguments parsed by the shared parser against
 * its spec in ./commands.ts, then handed, checked and typed, to the file that does it.
 */
import { closestMatch } from '../../config/did-you-mean.ts';
import { usageError, type UsageError } from '../../shared/errors.ts';
import type { CommandContext } from '../../pipeline/context.ts';
import type { Scrubber } from '../../shared/secrets.ts';
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
import { scrubbingTestset, testsetScrubber } from './scrubbing.ts';

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
        scrubbed(values.config, ctx, (scrubber, sctx) =>
          revisionCommand(
            positional(positionals, 0),
            { ...identityArgs(TESTSET_REVISION, values), json: values.json === true },
            sctx,
            scrubber,
          ),
        ),
      );
    case 'show':
      return withArgs(TESTSET_SHOW, rest, ctx, ({ values, positionals }) =>
        scrubbed(values.config, ctx, (scrubber, sctx) =>
          showCommand(
            positional(positionals, 0),
            { ...identityArgs(TESTSET_SHOW, values), json: values.json === true },
            sctx,
            scrubber,
          ),
        ),
      );
    case 'diff':
      return withArgs(TESTSET_DIFF, rest, ctx, ({ values, positionals }) =>
        scrubbed(values.config, ctx, (scrubber, sctx) =>
          diffCommand(
            positional(positionals, 0),
            positional(positionals, 1),
            { ...identityArgs(TESTSET_DIFF, values), json: values.json === true },
            sctx,
            scrubber,
          ),
        ),
      );
    case 'log':
      return withArgs(TESTSET_LOG, rest, ctx, ({ values, positionals }) =>
        scrubbed(values.config, ctx, (scrubber, sctx) =>
          logCommand(
            positional(positionals, 0),
            { ...identityArgs(TESTSET_LOG, values), json: values.json === true },
            sctx,
            scrubber,
          ),
        ),
      );
    case 'convert':
      return withArgs(TESTSET_CONVERT, rest, ctx, ({ values, positionals }) =>
        scrubbed(undefined, ctx, (scrubber, sctx) =>
          convertCommand(
            positional(positionals, 0),
            positional(positionals, 1),
            { lossy: values.lossy === true },
            sctx,
            scrubber,
          ),
        ),
      );
    case 'pin':
      return withArgs(TESTSET_PIN, rest, ctx, ({ values, positionals }) =>
        scrubbed(positionals[0], ctx, (scrubber, sctx) =>
          pinCommand(positionals[0], { check: values.check === true }, sctx, scrubber),
        ),
      );
    default:
      throw unknownCommand(first);
  }
}

/**
 * Runs a sub-command with the run's scrubber for the config `configArg` names (or the default
 * one): what it prints and the problems it throws go through it (see ./scrubbing.ts).
 */
async function scrubbed(
  configArg: string | undefined,
  ctx: CommandContext,
  work: (scrubber: Scrubber, ctx: CommandContext) => Promise<number>,
): Promise<number> {
  const scrubber = await testsetScrubber(configArg, ctx);
  return scrubbingTestset(scrubber, ctx, (sctx) => work(scrubber, sctx));
}

function unknownCommand(word: string): UsageError {
  const commands = Object.keys(TESTSET_COMMANDS);
  const guess = closestMatch(word, commands);
  return usageError(
    'cli.unknown-command',
    `unknown command ${quotedValue(`testset ${word}`)} (${guess !== undefined ? `did you mean testset ${guess}? ` : ''}commands: ${commands.join(', ')}; see evals testset --help)`,
  );
}
