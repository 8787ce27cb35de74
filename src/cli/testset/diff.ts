import { renderDiff } from '../../report/testset-diff.ts';
import { renderDiffJson } from '../../report/testset-diff-json.ts';
import { diffTestsets } from '../../testsets/diff.ts';
import { terminalWidth, useColor, type CommandContext } from '../../pipeline/context.ts';
import { isDeepStrictEqual } from 'node:util';
import type { IdentityOptions } from '../../testsets/history.ts';
import { prepareCases } from '../../testsets/identity.ts';
import type { TestsetLocation } from '../../testsets/read-file.ts';
import type { Scrubber } from '../../shared/secrets.ts';
import { identityFor, identityOf, load, parseLocation, shown, type IdentityArgs } from './read.ts';
import { scrubbedDiff } from './scrubbing.ts';

/**
 * `evals testset diff A B`: rows added, removed and changed between two versions, matched by
 * identity. Exit 0 when the revisions are equal, 1 when they differ (also when only the testset id
 * each side is read with does, as after a rename: the rows are then equal, the revisions not).
 * The rows are compared as written, and shown without the secrets `scrubber` knows (removed
 * before a row is cut to the line's width).
 */
export async function diffCommand(
  aArg: string,
  bArg: string,
  args: IdentityArgs & { json: boolean },
  ctx: CommandContext,
  scrubber: Scrubber,
): Promise<number> {
  const a = parseLocation(aArg, ctx.cwd);
  const b = parseLocation(bArg, ctx.cwd);
  // Both sides are identified the same way, or every row would look changed: as the suite that
  // reads A does, else as the one that reads B (A may be its old name), else by A's defaults.
  const identity = await identityOf([a, b], args, ctx);
  const [before, after] = await Promise.all([
    load(a, identity, scrubber.text),
    load(b, identity, scrubber.text),
  ]);
  const diff = scrubbedDiff(diffTestsets(before.cases, after.cases), scrubber);
  // Each side is labelled with the revision it has on its own (what `evals testset revision`
  // and a suite reading it report), not its rows under the other side's name.
  const [beforeRevision, afterRevision] = await Promise.all([
    ownRevision(a, before, identity, args, ctx),
    ownRevision(b, after, identity, args, ctx),
  ]);
  const equal = diff.equal && beforeRevision === afterRevision;
  if (args.json) {
    ctx.stdout.write(
      `${JSON.stringify({ before: { file: shown(a), revision: beforeRevision }, after: { file: shown(b), revision: afterRevision }, ...renderDiffJson(diff), equal, rowsEqual: diff.equal }, null, 2)}\n`,
    );
  } else {
    ctx.stdout.write(
      renderDiff(diff, {
        beforeLabel: shown(a),
        afterLabel: shown(b),
        beforeRevision,
        afterRevision,
        beforeRows: before.cases.length,
        afterRows: after.cases.length,
        color: useColor(ctx),
        // The terminal's columns (through a pipe, `COLUMNS`); else the renderer's default.
        ...(terminalWidth(ctx) === undefined ? {} : { width: terminalWidth(ctx) }),
      }),
    );
  }
  return equal ? 0 : 1;
}

/** The revision of `version`'s rows under `location`'s own identity (its file name, its suite's). */
async function ownRevision(
  location: TestsetLocation,
  version: { rows: Parameters<typeof prepareCases>[0]; revision: string },
  matchedBy: IdentityOptions,
  args: IdentityArgs,
  ctx: CommandContext,
): Promise<string> {
  const own = await identityFor(location, args, ctx);
  if (isDeepStrictEqual(own, matchedBy)) return version.revision;
  const prepared = prepareCases(version.rows, { ...own, file: location.displayPath });
  return prepared.ok ? prepared.revision : version.revision;
}
