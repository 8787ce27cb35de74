/**
 * Reads a GitHub Actions log of progress back, as GitHub folds it: groups do not nest, so a
 * `::group::` inside an open group, or a stray `::endgroup::`, garbles the log.
 */

/** A periodic progress line, `  LABEL  3/10  ✓ …  ETA 4s`; its label is group 1 (may be empty). */
export const PROGRESS_LINE = /^ {2}(?:(.*?) {2})?[\d,]+\/[\d,]+ {2}✓ [\d,]+ passed .* ETA \S+$/;

/**
 * What is wrong with the groups of `log` (empty: nothing): a group opened inside another, an
 * `::endgroup::` with none open, a group left open, a progress line outside a group, any other
 * line inside one (a `done` line, a summary), a line in a group titled for another run.
 */
export function actionsLogIssues(log: string): string[] {
  const issues: string[] = [];
  // The open group's title, `undefined` when none is open.
  let open: string | undefined;
  const lines = log.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, i) => {
    const where = `line ${i + 1} ${JSON.stringify(line)}`;
    if (line.startsWith('::group::')) {
      if (open !== undefined) issues.push(`${where}: opens a group inside "${open}"`);
      open = line.slice('::group::'.length);
      return;
    }
    if (line === '::endgroup::') {
      if (open === undefined) issues.push(`${where}: closes no group`);
      open = undefined;
      return;
    }
    const progress = PROGRESS_LINE.exec(line);
    if (open === undefined) {
      if (progress !== null) issues.push(`${where}: progress outside a group`);
      return;
    }
    if (progress === null) {
      issues.push(`${where}: not progress, inside "${open}"`);
      return;
    }
    const titled = /^evals progress: (.*)$/.exec(open)?.[1];
    if (titled !== undefined && titled !== (progress[1] ?? '')) {
      issues.push(`${where}: in the group titled for another run, "${open}"`);
    }
  });
  if (open !== undefined) issues.push(`the group "${open}" is never closed`);
  return issues;
}
