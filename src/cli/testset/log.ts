import { existsSync } from 'node:fs';
import { formatCount } from '../../report/labels.ts';
import { usageError } from '../../shared/errors.ts';
import { renderTable, type TableColumn } from '../../shared/text-table.ts';
import { loadVersion, testsetLog } from '../../testsets/history.ts';
import type { IdentityOptions, LogEntry } from '../../testsets/history.ts';
import type { TestsetLocation } from '../../testsets/read-file.ts';
import type { CommandContext } from '../../pipeline/context.ts';
import type { Scrubber } from '../../shared/secrets.ts';
import { identityFor, parseLocation, type IdentityArgs } from './read.ts';

/** commit, date, revision, rows, added, removed, changed, subject: the counts to the right. */
const COLUMNS: TableColumn[] = [
  {},
  {},
  {},
  { align: 'right' },
  { align: 'right' },
  { align: 'right' },
  { align: 'right' },
  {},
];

/**
 * `evals testset log FILE`: for each commit that changed the file, its revision, rows and the
 * rows added, removed and changed; the working tree first when it differs from the newest.
 * Why a version is unreadable quotes it scrubbed with `scrubber`, before it is cut short.
 */
export async function logCommand(
  arg: string,
  args: IdentityArgs & { json: boolean },
  ctx: CommandContext,
  scrubber: Scrubber,
): Promise<number> {
  const location = parseLocation(arg, ctx.cwd);
  if (location.ref !== undefined) {
    throw usageError(
      'cli.arguments',
      `evals testset log walks the whole history of a file: give FILE, not ${arg}`,
    );
  }
  const identity = await identityFor(location, args, ctx);
  const log = await testsetLog(location, identity, undefined, scrubber.text);
  if (!log.ok) {
    throw usageError(log.error.code, log.error.message, location.displayPath);
  }
  // No file and no history: a mistyped path, refused as revision, show and diff refuse it.
  if (log.entries.length === 0 && !existsSync(location.absPath)) {
    throw usageError(
      'testset.not-found',
      `testset file not found: ${location.displayPath}, and no commit of the repository has it`,
      location.displayPath,
    );
  }
  // The working tree, when it differs from the newest commit, leads the list: also when its
  // uncommitted changes leave it unreadable or deleted, which is not "the same as the newest".
  const workingRow = await workingTree(location, identity, log.entries[0]?.version, scrubber.text);

  if (args.json) {
    ctx.stdout.write(
      `${JSON.stringify({ file: location.displayPath, workingTree: workingRow, commits: log.entries, truncated: log.truncated, shallow: log.shallow }, null, 2)}\n`,
    );
    return 0;
  }
  const rows: string[][] = [
    ['commit', 'date', 'revision', 'rows', 'added', 'removed', 'changed', 'subject'],
  ];
  if (workingRow) {
    rows.push([
      '(working tree)',
      '',
      workingRow.ok
        ? workingRow.revision.slice(0, 12)
        : workingRow.deleted
          ? 'deleted'
          : 'unreadable',
      workingRow.ok ? formatCount(workingRow.rows) : '',
      '',
      '',
      '',
      'uncommitted changes',
    ]);
  }
  for (const [i, entry] of log.entries.entries()) {
    const v = entry.version;
    const older = log.entries[i + 1];
    // The commit that renamed the file says so: its rows are the older commit's, under a new name.
    const subject =
      older !== undefined && older.path !== entry.path
        ? `${entry.subject} (renamed from ${older.path})`
        : entry.subject;
    rows.push(
      v.ok
        ? [
            entry.commit.slice(0, 10),
            entry.date.slice(0, 10),
            v.revision.slice(0, 12),
            formatCount(v.rows),
            v.added === null ? '?' : `+${v.added}`,
            v.removed === null ? '?' : `-${v.removed}`,
            v.changed === null ? '?' : `~${v.changed}`,
            subject,
          ]
        : [
            entry.commit.slice(0, 10),
            entry.date.slice(0, 10),
            'unreadable',
            '',
            '',
            '',
            '',
            subject,
          ],
    );
  }
  ctx.stdout.write(`${renderTable(rows, { columns: COLUMNS }).join('\n')}\n`);
  if (workingRow && !workingRow.ok && !workingRow.deleted) {
    ctx.stdout.write(`(working tree) is unreadable: ${workingRow.message}\n`);
  }
  for (const line of unreadableNotes(log.entries)) ctx.stdout.write(`${line}\n`);
  if (log.entries.length === 0)
    ctx.stdout.write(`no commit has touched ${location.displayPath} yet\n`);
  if (log.truncated) {
    ctx.stdout.write(
      `(only the newest ${log.entries.length} commits are shown; the changes of the oldest are unknown: ?)\n`,
    );
  }
  if (log.shallow) {
    const oldest = log.entries.at(-1)?.commit.slice(0, 10) ?? '';
    ctx.stdout.write(
      `(this clone is shallow: its history stops at ${oldest}, whose changes are unknown: ?; \`git fetch --unshallow\`, or actions/checkout with \`fetch-depth: 0\`, gets the whole history)\n`,
    );
  }
  return 0;
}

/** The working tree's row of the log: its version, why it cannot be read, or that it is gone. */
type WorkingTreeRow =
  { ok: true; revision: string; rows: number } | { ok: false; deleted?: true; message: string };

/**
 * The working file as `log` shows it, or `null` when it is the newest commit's version (or as
 * unreadable as that one, for the same reason: nothing uncommitted to show).
 */
async function workingTree(
  location: TestsetLocation,
  identity: IdentityOptions,
  newest: LogEntry['version'] | undefined,
  scrub: (text: string) => string,
): Promise<WorkingTreeRow | null> {
  if (!existsSync(location.absPath)) {
    // Not in the working tree: deleted since the newest commit, unless that one lacks it too.
    if (newest === undefined || !newest.ok) return null;
    return { ok: false, deleted: true, message: `testset file not found: ${location.displayPath}` };
  }
  const working = await loadVersion(location, identity, scrub);
  if (!working.ok) {
    if (newest !== undefined && !newest.ok && newest.message === working.message) return null;
    return { ok: false, message: working.message };
  }
  if (newest?.ok && newest.revision === working.revision) return null;
  return { ok: true, revision: working.revision, rows: working.cases.length };
}

/**
 * Why commits are `unreadable`, said once under the table rather than on every row: commits that
 * fail for the same reason (the message with their own sha left out) share one line.
 */
function unreadableNotes(entries: readonly LogEntry[]): string[] {
  const reasons = new Map<string, { commits: string[]; message: string }>();
  for (const { commit, version } of entries) {
    if (version.ok) continue;
    const key = version.message.replaceAll(commit, '').replaceAll(commit.slice(0, 12), '');
    const reason = reasons.get(key) ?? { commits: [], message: version.message };
    reason.commits.push(commit.slice(0, 10));
    reasons.set(key, reason);
  }
  return [...reasons.values()].map(({ commits, message }) => {
    return `${commits.join(', ')} ${commits.length === 1 ? 'is' : 'are'} unreadable: ${message}`;
  });
}
