/**
 * Notes the Action adds to the job summary around the report: one-line messages as blockquotes,
 * and the closing note naming the stale reports another identity left on the pull request.
 */
import type { StaleComment } from '../github/comment.ts';
import { JOB_SUMMARY_MAX_BYTES, REPORT_MAX_BYTES } from '../report/github-limits.ts';

/** A one-line message as the text of a blockquote: no line breaks, no markup of its own. */
export function escapeNote(message: string): string {
  return message.replace(/\s+/g, ' ').replace(/[\\`*_[\]<>|#]/g, (char) => `\\${char}`);
}

/**
 * What the job summary keeps beside the report for the notes appended after it: GitHub's 1 MiB a
 * step less what the report is rendered to. Past 1 MiB the runner drops the whole summary.
 */
export const SUMMARY_NOTE_MAX_BYTES = JOB_SUMMARY_MAX_BYTES - REPORT_MAX_BYTES.jobSummary;

/**
 * The note appended to the job summary after the report when earlier reports with this report's
 * marker, written by another identity, could not be edited: which comment is current, and each
 * stale one, within `maxBytes` of UTF-8. Five stale comments with GitHub's longest URLs take more
 * than the room the summary keeps, so those past it are counted, not listed (each has its warning
 * in the log); '' when not even the current comment fits.
 */
export function staleSummaryNote(
  stale: readonly StaleComment[],
  current: string,
  maxBytes = SUMMARY_NOTE_MAX_BYTES,
): string {
  const head = `\n\n> [!NOTE]\n> The current PR comment is ${current}. An earlier report with the same marker, written by another identity (the workflow's token changed), could not be edited and is out of date:\n`;
  const lines = stale.map(
    (c) =>
      `> ${c.url} (by ${escapeNote(c.author)}${c.hidden ? ', hidden as outdated' : ', still shown'})\n`,
  );
  const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
  const rest = (left: number): string =>
    left === 0 ? '' : `> \u2026 and ${left} more, named in the job log\n`;
  let listed = lines.length;
  let note = head + lines.join('');
  while (bytes(note) > maxBytes && listed > 0) {
    listed -= 1;
    note = head + lines.slice(0, listed).join('') + rest(lines.length - listed);
  }
  return bytes(note) <= maxBytes ? note : '';
}

/**
 * The note appended to the job summary after the report when some of it could not be posted to
 * GitHub (`failures`: refused, or no token): the summary is then where the report is read, and
 * should not look posted. Short and fixed (the log's warnings say which write failed and why), so
 * that it fits the room {@link SUMMARY_NOTE_MAX_BYTES} keeps beside another note. `forkPossible`:
 * the run may have a fork's read-only token, which GitHub refuses every write. `started`: false
 * for a run that could not start, which has no results file nor verdict to point to.
 */
export function unpostedSummaryNote(
  failures: readonly { code: string; message: string }[],
  forkPossible: boolean,
  started = true,
): string {
  if (failures.length === 0) return '';
  const noToken = failures.some((failure) => failure.message.startsWith('no github-token'));
  const what = noToken
    ? 'No github-token was given, so this report was not posted to GitHub'
    : `${failures.length === 1 ? 'One write' : `${failures.length} writes`} of this report to GitHub failed (the job log's warnings say which, and why)`;
  const fork =
    forkPossible && !noToken
      ? ': a pull request from a fork gets a read-only token, which GitHub refuses every write'
      : '';
  const rest = started
    ? 'This summary, the job log and the results file carry the report; the verdict decides the step.'
    : 'This summary and the job log say why the run could not start; the step fails.';
  return `\n\n> [!WARNING]\n> ${what}${fork}. ${rest}\n`;
}
