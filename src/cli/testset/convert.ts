import { resolve } from 'node:path';
import { plural } from '../../report/labels.ts';
import { UsageError, formatIssue, usageError, type Issue } from '../../shared/errors.ts';
import { writeFileAtomic } from '../../shared/write-file-atomic.ts';
import { formatFromPath, parseTestset } from '../../testsets/formats.ts';
import type { IdentityOptions } from '../../testsets/history.ts';
import { defaultTestsetId, prepareCases } from '../../testsets/identity.ts';
import { serializeTestset } from '../../testsets/write.ts';
import type { CommandContext } from '../../pipeline/context.ts';
import { checkNotDash, checkOutputPaths } from '../../pipeline/output-paths.ts';
import { EXIT_UNWRITTEN, unwrittenFile } from '../../pipeline/write-failure.ts';
import { realPath } from '../../shared/real-path.ts';
import type { TestsetLocation } from '../../testsets/read-file.ts';
import type { Scrubber } from '../../shared/secrets.ts';
import { identityFor, load, parseLocation, shown } from './read.ts';

/** Problems listed before the rest are summed up, as the readers do. */
const MAX_PROBLEMS = 50;

/**
 * `evals testset convert IN[@REF] OUT`: the testset in another format (by OUT's extension),
 * checked to keep every content id, so the revision is unchanged; `--lossy` writes values a
 * CSV cell cannot hold as text and reports the new revision. The file written keeps the rows as
 * they are, secrets too (it is the testset); what a problem quotes of them goes through
 * `scrubber` before it is cut short.
 */
export async function convertCommand(
  inArg: string,
  outArg: string,
  args: { lossy: boolean },
  ctx: CommandContext,
  scrubber: Scrubber,
): Promise<number> {
  const input = parseLocation(inArg, ctx.cwd);
  checkNotDash('convert to', outArg, 'so nothing was converted');
  const outAbs = resolve(ctx.cwd, outArg);
  const format = formatFromPath(outAbs);
  if (format === null) {
    throw usageError(
      'testset.format',
      `${outArg}: the output must end in .csv, .json, .jsonl or .ndjson`,
    );
  }
  checkOutputPaths([{ flag: 'convert to', path: outArg }], ctx.cwd, 'so nothing was converted');
  if (realPath(outAbs) === realPath(input.absPath) && input.ref === undefined) {
    throw usageError(
      'cli.arguments',
      `convert would overwrite its input ${inArg}: give another output file`,
    );
  }
  // The input's testset id is kept for the check, so renaming while converting is not mistaken
  // for a content change.
  const identity: IdentityOptions = { testsetId: defaultTestsetId(input.absPath) };
  const before = await load(input, identity, scrubber.text);
  // As `validate` and `run` do: the output keeps both rows, but they stay one testcase.
  for (const warning of before.warnings) {
    ctx.stderr.write(`warning: ${formatIssue(warning).trimStart()}\n`);
  }
  const serialized = serializeTestset(before.rows, format, { scrub: scrubber.text });
  if (!serialized.ok && !args.lossy) {
    const issues = serialized.problems.slice(0, MAX_PROBLEMS).map((p): Issue => ({
      code: 'testset.lossy',
      file: shown(input),
      line: p.line,
      col: p.line > 0 ? 1 : 0,
      path: p.field,
      message: p.message,
    }));
    const more = serialized.problems.length - issues.length;
    const tail = `${more > 0 ? `… and ${more} more problems; ` : ''}${outArg} was not written (--lossy writes it anyway)`;
    throw new UsageError([
      ...issues,
      { code: 'testset.lossy', file: outArg, line: 0, col: 0, path: '', message: tail },
    ]);
  }
  const text = serialized.text;

  // Read back what would be written: the conversion must not change a single content id. Under
  // --lossy, rows can collapse into one (missing cells become ""), so a failure here is the
  // user's data, not a bug.
  const reread = parseTestset(text, format, outArg);
  const after = reread.ok
    ? prepareCases(reread.rows, { ...identity, file: outArg, scrub: scrubber.text })
    : reread;
  if (!after.ok) {
    if (!args.lossy)
      throw new Error(`convert wrote ${format} it cannot read back: ${after.issues[0]?.message}`);
    throw new UsageError([
      ...after.issues.slice(0, MAX_PROBLEMS),
      {
        code: 'testset.lossy',
        file: outArg,
        line: 0,
        col: 0,
        path: '',
        message: `with --lossy the output would not be a valid testset; ${outArg} was not written`,
      },
    ]);
  }
  // Exact duplicate rows collapse when read, but rows that only became equal through --lossy
  // would lose a case: that is refused like any other identity clash.
  if (after.cases.length < before.cases.length) {
    throw new UsageError([
      ...(after.warnings ?? []).slice(0, MAX_PROBLEMS).map((w) => ({
        ...w,
        code: 'testset.duplicate-id',
        message: `duplicate case identity once converted: ${w.message}`,
      })),
      {
        code: 'testset.lossy',
        file: outArg,
        line: 0,
        col: 0,
        path: '',
        message: `with --lossy ${before.cases.length - after.cases.length} cases would merge into others; ${outArg} was not written`,
      },
    ]);
  }
  // Under the input's id, equal revisions mean every row kept its content.
  const kept = after.revision === before.revision;
  if (!kept && !args.lossy)
    throw new Error('convert changed the revision although no problem was reported');

  try {
    await writeFileAtomic(outAbs, text);
  } catch (error) {
    // Said as what it is (a full disk, say), before anything reads the output back.
    const line = unwrittenFile(
      outArg,
      error,
      'nothing was written (a file already there is left as it was)',
    );
    if (line === undefined) throw error;
    ctx.stderr.write(`error: ${line}\n`);
    return EXIT_UNWRITTEN;
  }
  // Rows as written (an exact duplicate row stays in the file, read as one case with it).
  const rows = {
    written: reread.ok ? reread.rows.length : after.cases.length,
    cases: after.cases.length,
  };
  ctx.stdout.write(`${await wroteLine(input, outArg, outAbs, rows, kept, ctx)}\n`);
  return 0;
}

/**
 * What convert says it wrote: the revision the new file has on its own, as `evals testset
 * revision OUT` prints it. Its testset id, mixed into every content id, comes from the suite
 * that reads it or else its file name, so it can differ from the input's even though no row
 * changed: the line then says so, and how to keep the input's revision.
 */
async function wroteLine(
  input: TestsetLocation,
  outArg: string,
  outAbs: string,
  rows: { written: number; cases: number },
  kept: boolean,
  ctx: CommandContext,
): Promise<string> {
  const output: TestsetLocation = { absPath: outAbs, displayPath: outArg };
  const [inId, outId] = await Promise.all(
    [input, output].map(async (l) => (await identityFor(l, {}, ctx)).testsetId),
  );
  const [was, now] = await Promise.all([
    revisionOf(input, inId ?? ''),
    revisionOf(output, outId ?? ''),
  ]);
  const repeated =
    rows.written !== rows.cases
      ? ` (${plural(rows.cases, 'case')}: a row that repeats another exactly is one case)`
      : '';
  const head = `wrote ${plural(rows.written, 'row')}${repeated} to ${outArg}`;
  const ids = `the testset id, mixed into every content id, is "${outId}" here and "${inId}" for ${shown(input)}`;
  if (!kept) {
    const also = inId === outId ? '' : `; ${ids}`;
    return `${head} · revision ${now.slice(0, 12)} (was ${was.slice(0, 12)}: --lossy changed values${also})`;
  }
  if (now === was) return `${head} · revision ${now.slice(0, 12)} (unchanged)`;
  return `${head} · rows unchanged · revision ${now.slice(0, 12)}, not ${was.slice(0, 12)}: ${ids} (set testset.id: ${inId} on the suite to keep ${was.slice(0, 12)})`;
}

/** The revision of the file at `location` with testset id `testsetId`. */
async function revisionOf(location: TestsetLocation, testsetId: string): Promise<string> {
  return (await load(location, { testsetId })).revision;
}
