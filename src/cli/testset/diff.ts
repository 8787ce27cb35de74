import { renderDiff } from '../../report/testset-diff.ts';
import { renderDiffJson } from '../../report/testset-diff-json.ts';
import { diffTestsets } from '../../testsets/diff.ts';
import { useColor, type CommandContext } from '../../pipeline/context.ts';
import { identityFor, load, parseLocation, shown, type IdentityArgs } from './read.ts';

/**
 * `evals testset diff A B`: rows added, removed and changed between two versions, matched by
 * identity. Exit 0 when the revisions are equal, 1 when they differ.
 */
export async function diffCommand(
  aArg: string,
  bArg: string,
  args: IdentityArgs & { json: boolean },
  ctx: CommandContext,
): Promise<number> {
  const a = parseLocation(aArg, ctx.cwd);
  const b = parseLocation(bArg, ctx.cwd);
  // Both sides are identified the same way, or every row would look changed.
  const identity = await identityFor(a, args, ctx);
  const [before, after] = await Promise.all([load(a, identity), load(b, identity)]);
  const diff = diffTestsets(before.cases, after.cases);
  if (args.json) {
    ctx.stdout.write(
      `${JSON.stringify({ before: { file: shown(a), revision: before.revision }, after: { file: shown(b), revision: after.revision }, ...renderDiffJson(diff) }, null, 2)}\n`,
    );
  } else {
    ctx.stdout.write(
      renderDiff(diff, {
        beforeLabel: shown(a),
        afterLabel: shown(b),
        beforeRevision: before.revision,
        afterRevision: after.revision,
        beforeRows: before.cases.length,
        afterRows: after.cases.length,
        color: useColor(ctx),
      }),
    );
  }
  return diff.equal ? 0 : 1;
}
