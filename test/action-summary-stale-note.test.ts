/**
 * The job summary holds the report, rendered to GitHub's 1 MiB a step less a KiB
 * (`REPORT_MAX_BYTES.jobSummary`), then the note on stale reports another identity left, appended
 * once the comment is posted. Past 1 MiB the runner drops the whole summary ("$GITHUB_STEP_SUMMARY
 * upload aborted, supports content up to a size of 1024k"), so the note must fit the KiB kept for
 * it, whatever GitHub's URLs and logins are.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { staleSummaryNote } from '../src/action/summary-notes.ts';
import type { StaleComment } from '../src/github/comment.ts';
import { JOB_SUMMARY_MAX_BYTES, REPORT_MAX_BYTES } from '../src/report/github-limits.ts';

/** What the job summary keeps beside the report for notes appended after it. */
const ROOM = JOB_SUMMARY_MAX_BYTES - REPORT_MAX_BYTES.jobSummary;

/** A comment URL as long as GitHub makes them: a 39-character owner, a 100-character repository. */
function longUrl(id: number): string {
  return `https://github.com/${'o'.repeat(39)}/${'r'.repeat(100)}/pull/12345#issuecomment-${2_000_000_000 + id}`;
}

describe('the job summary note on stale reports', () => {
  it('fits the room kept for it with five stale reports at the longest URLs and logins', () => {
    const stale: StaleComment[] = Array.from({ length: 5 }, (_, i) => ({
      url: longUrl(i),
      // A GitHub App's name is at most 34 characters; its bot writes as `<slug>[bot]`.
      author: `${String(i).repeat(34)}[bot]`,
      hidden: i % 2 === 0,
    }));
    const note = staleSummaryNote(stale, longUrl(9));
    assert.ok(
      Buffer.byteLength(note, 'utf8') <= ROOM,
      `${Buffer.byteLength(note, 'utf8')} bytes, over the ${ROOM} kept for it`,
    );
    assert.match(note, new RegExp(`The current PR comment is ${longUrl(9)}\\.`));
    assert.match(
      note,
      new RegExp(`> ${longUrl(0)} \\(by 0{34}\\\\\\[bot\\\\\\], hidden as outdated\\)`),
    );
    assert.match(note, /and \d+ more, named in the job log/);
  });

  it('names every stale report when they fit', () => {
    const stale: StaleComment[] = [
      {
        url: 'https://github.com/o/r/pull/7#issuecomment-1',
        author: 'github-actions[bot]',
        hidden: true,
      },
    ];
    const note = staleSummaryNote(stale, 'https://github.com/o/r/pull/7#issuecomment-2');
    assert.match(
      note,
      /> https:\/\/github\.com\/o\/r\/pull\/7#issuecomment-1 \(by github-actions\\\[bot\\\], hidden as outdated\)\n$/,
    );
    assert.doesNotMatch(note, /more, named in the job log/);
  });
});
