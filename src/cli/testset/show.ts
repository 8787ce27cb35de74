import { rowJson } from '../../report/testset-diff-json.ts';
import { renderTestsetTable } from '../../report/testset-table.ts';
import { terminalWidth, useColor, type CommandContext } from '../../pipeline/context.ts';
import type { Scrubber } from '../../shared/secrets.ts';
import { identityFor, identityMode, load, parseLocation, type IdentityArgs } from './read.ts';
import { scrubbedCases } from './scrubbing.ts';

/**
 * `evals testset show FILE[@REF]`: the rows with their line and identity, as a table or JSON,
 * without the secrets `scrubber` knows (removed before a cell is cut to the table's width).
 */
export async function showCommand(
  arg: string,
  args: IdentityArgs & { json: boolean },
  ctx: CommandContext,
  scrubber: Scrubber,
): Promise<number> {
  const location = parseLocation(arg, ctx.cwd);
  const identity = await identityFor(location, args, ctx);
  const version = await load(location, identity, scrubber.text);
  const cases = scrubbedCases(version.cases, scrubber);
  if (args.json) {
    const rows = cases.map((c) => ({
      ...rowJson(c),
      ...(Object.keys(c.meta).length > 0 ? { meta: c.meta } : {}),
    }));
    ctx.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  ctx.stdout.write(
    renderTestsetTable(cases, {
      // The terminal's columns; through a pipe `COLUMNS`, as the other commands read it.
      maxWidth: terminalWidth(ctx) ?? 120,
      color: useColor(ctx),
      revision: version.revision,
      identity: identityMode(cases, identity),
    }),
  );
  return 0;
}
