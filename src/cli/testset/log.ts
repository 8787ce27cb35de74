import { formatCount } from '../../report/labels.ts';
import { usageError } from '../../shared/errors.ts';
import { renderTable, type TableColumn } from '../../shared/text-table.ts';
import { testsetLog } from '../../testsets/history.ts';
import { prepareCases } from '../../testsets/identity.ts';
import { readTestset } from '../../testsets/read-file.ts';
import type { CommandContext } from '../../pipeline/context.ts';
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
 */
export async function logCommand(
  arg: string,
  args: IdentityArgs & { json: boolean },
  ctx: CommandContext,
): Promise<number> {
  const location = parseLocation(arg, ctx.cwd);
  if (location.ref !== undefined) {
    throw usageError(
      'cli.arguments',
      `evals testset log walks the whole history of a file: give FILE, not ${arg}`,
    );
  }
  const identity = await identityFor(location, args, ctx);
  const log = await testsetLog(location, identity);
  if (!log.ok) {
    throw usageError(log.error.code, log.error.message, location.displayPath);
  }
  // The working tree, when it differs from the newest commit, leads the list.
  const working = await readTestset(location);
  const workingPrepared = working.ok
    ? prepareCases(working.rows, { ...identity, file: location.displayPath })
    : undefined;
  const newest = log.entries[0]?.version;
  const workingRow =
    workingPrepared?.ok && !(newest?.ok && newest.revision === workingPrepared.revision)
      ? { revision: workingPrepared.revision, rows: workingPrepared.cases.length }
      : null;

  if (args.json) {
    ctx.stdout.write(
      `${JSON.stringify({ file: location.displayPath, workingTree: workingRow, commits: log.entries, truncated: log.truncated }, null, 2)}\n`,
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
      workingRow.revision.slice(0, 12),
      formatCount(workingRow.rows),
      '',
      '',
      '',
      'uncommitted changes',
    ]);
  }
  for (const entry of log.entries) {
    const v = entry.version;
    rows.push(
      v.ok
        ? [
            entry.commit.slice(0, 10),
            entry.date.slice(0, 10),
            v.revision.slice(0, 12),
            formatCount(v.rows),
            `+${v.added}`,
            `-${v.removed}`,
            `~${v.changed}`,
            entry.subject,
          ]
        : [
            entry.commit.slice(0, 10),
            entry.date.slice(0, 10),
            'unreadable',
            '',
            '',
            '',
            '',
            `${entry.subject} (${v.message})`,
          ],
    );
  }
  ctx.stdout.write(`${renderTable(rows, { columns: COLUMNS }).join('\n')}\n`);
  if (log.entries.length === 0)
    ctx.stdout.write(`no commit has touched ${location.displayPath} yet\n`);
  if (log.truncated)
    ctx.stdout.write(`(only the newest ${log.entries.length} commits are shown)\n`);
  return 0;
}
