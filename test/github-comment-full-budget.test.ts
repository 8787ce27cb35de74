/**
 * The sticky comment's body is rendered up to the Action's comment budget, and then gets the run
 * stamp (`<!-- evalgate-run ID.ATTEMPT -->`) as its second line. A report that filled GitHub's
 * whole 65,536 characters went over it by the stamp, and GitHub refused the comment (422 "Body is
 * too long"): a large failing run lost its PR comment about one time in ten, depending on where
 * its cases happened to be cut. The budget leaves room for the longest stamp. Against the fake
 * GitHub, which refuses a body over 65,536 characters as GitHub does.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMENT_REPORT_MAX_BYTES } from '../src/action/publish.ts';
import { upsertStickyComment } from '../src/github/comment.ts';
import { PR_COMMENT_MAX_CHARS } from '../src/report/github-limits.ts';
import { MARKER, target, useGitHubFixture } from './helpers/github-fixture.ts';

const github = useGitHubFixture();

describe('a comment rendered to the whole comment budget', () => {
  it('is accepted by GitHub with the longest run stamp, and keeps every character', async () => {
    assert.ok(COMMENT_REPORT_MAX_BYTES > 60_000, `${COMMENT_REPORT_MAX_BYTES}`);
    // What the Action hands upsertStickyComment at worst: the marker line and a report filling
    // the rest of the budget (ASCII: a character a byte).
    const head = `${MARKER}\n`;
    const body = head + 'x'.repeat(COMMENT_REPORT_MAX_BYTES - head.length);
    // Run ids and attempts as large as the Action accepts (safe integers).
    const run = { id: Number.MAX_SAFE_INTEGER, attempt: Number.MAX_SAFE_INTEGER };
    const result = await upsertStickyComment(github.octokit, target, MARKER, body, run);
    assert.equal(result.ok && result.action, 'created', JSON.stringify(result));
    const [stored] = github.server.state.comments.get(target.issueNumber) ?? [];
    assert.ok(stored !== undefined && stored.body.length <= PR_COMMENT_MAX_CHARS);
    assert.equal(stored.body.replace(/^[^\n]*\n<!-- evalgate-run [\d.]+ -->\n/, head), body);
  });
});
