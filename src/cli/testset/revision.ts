import { formatCount } from '../../report/labels.ts';
import type { CommandContext } from '../../pipeline/context.ts';
import {
  identityFor,
  identityMode,
  load,
  parseLocation,
  shown,
  type IdentityArgs,
} from './read.ts';
import type { Scrubber } from '../../shared/secrets.ts';

/**
 * `evals testset revision FILE[@REF]`: the revision id, the row count and the identity mode;
 * `scrubber` removes secrets from what a problem with the file quotes of it.
 */
export async function revisionCommand(
  arg: string,
  args: IdentityArgs & { json: boolean },
  ctx: CommandContext,
  scrubber: Scrubber,
): Promise<number> {
  const location = parseLocation(arg, ctx.cwd);
  const identity = await identityFor(location, args, ctx);
  const version = await load(location, identity, scrubber.text);
  const mode = identityMode(version.cases, identity);
  if (args.json) {
    ctx.stdout.write(
      `${JSON.stringify({ file: shown(location), revision: version.revision, rows: version.cases.length, identity: mode, testsetId: identity.testsetId, commit: version.commit }, null, 2)}\n`,
    );
  } else {
    ctx.stdout.write(
      `revision  ${version.revision}\nrows      ${formatCount(version.cases.length)}\nidentity  ${mode}\n` +
        (version.commit ? `commit    ${version.commit}\n` : ''),
    );
  }
  return 0;
}
