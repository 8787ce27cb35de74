/**
 * The sticky comment says which workflow run wrote it, so a run started for an older push that
 * finishes after a later run leaves the later run's report on the pull request instead of
 * putting its stale one over it. Against the fake GitHub.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { upsertStickyComment, type RunStamp } from '../src/github/comment.ts';
import type { StoredComment } from './helpers/github-server.ts';
import { MARKER, target, useGitHubFixture } from './helpers/github-fixture.ts';

const github = useGitHubFixture();

function comments(): StoredComment[] {
  return github.server.state.comments.get(target.issueNumber) ?? [];
}

/** A comment as `run` wrote it (an Actions bot's, as GITHUB_TOKEN writes). */
function writtenBy(run: RunStamp | null, report: string): StoredComment {
  const stamp = run === null ? '' : `<!-- evalgate-run ${run.id}.${run.attempt} -->\n`;
  return github.server.addComment(target.issueNumber, {
    body: `${MARKER}\n${stamp}${report}`,
    login: 'github-actions[bot]',
    type: 'Bot',
  });
}

function post(report: string, run: RunStamp): ReturnType<typeof upsertStickyComment> {
  return upsertStickyComment(github.octokit, target, MARKER, `${MARKER}\n${report}`, run);
}

/** What upsertStickyComment answers when it leaves `comment`, run 101's report, as it is. */
function keptRun101(comment: StoredComment): unknown {
  return { ok: true, url: comment.html_url, action: 'kept-newer', newer: { id: 101, attempt: 1 } };
}

describe('the sticky comment and the run that wrote it', () => {
  it('writes the run on its second line, under the marker', async () => {
    const result = await post('report', { id: 500, attempt: 2 });
    assert.equal(result.ok && result.action, 'created');
    assert.equal(comments()[0]?.body, `${MARKER}\n<!-- evalgate-run 500.2 -->\nreport`);
  });

  it("a later run's report replaces an earlier run's", async () => {
    const earlier = writtenBy({ id: 100, attempt: 1 }, 'old push');
    const result = await post('new push', { id: 101, attempt: 1 });
    assert.deepEqual(result, { ok: true, url: earlier.html_url, action: 'updated' });
    assert.equal(earlier.body, `${MARKER}\n<!-- evalgate-run 101.1 -->\nnew push`);
  });

  it("an earlier run that finishes last leaves the later run's report as it is", async () => {
    const later = writtenBy({ id: 101, attempt: 1 }, 'new push');
    const before = later.body;
    const result = await post('old push', { id: 100, attempt: 1 });
    assert.deepEqual(result, keptRun101(later));
    assert.equal(later.body, before);
    assert.equal(comments().length, 1);
    assert.equal(github.calls('PATCH', /\/issues\/comments\/\d+$/).length, 0);
    assert.equal(github.calls('POST', /\/comments$/).length, 0);
  });

  it('a re-run of the same run replaces its first attempt, and not the other way round', async () => {
    const first = writtenBy({ id: 100, attempt: 1 }, 'attempt 1');
    const rerun = await post('attempt 2', { id: 100, attempt: 2 });
    assert.equal(rerun.ok && rerun.action, 'updated');
    const late = await post('attempt 1 again', { id: 100, attempt: 1 });
    assert.equal(late.ok && late.action, 'kept-newer');
    assert.equal(first.body, `${MARKER}\n<!-- evalgate-run 100.2 -->\nattempt 2`);
  });

  it('the same run writing twice updates its own comment', async () => {
    const own = writtenBy({ id: 100, attempt: 1 }, 'first');
    const again = await post('second', { id: 100, attempt: 1 });
    assert.equal(again.ok && again.action, 'updated');
    assert.equal(own.body, `${MARKER}\n<!-- evalgate-run 100.1 -->\nsecond`);
  });

  it('replaces a comment an earlier evalgate wrote without a run line', async () => {
    const unstamped = writtenBy(null, 'from before');
    const result = await post('now', { id: 7, attempt: 1 });
    assert.equal(result.ok && result.action, 'updated');
    assert.equal(unstamped.body, `${MARKER}\n<!-- evalgate-run 7.1 -->\nnow`);
  });

  it("keeps the later run's comment, not the newest by id, among duplicates", async () => {
    // The later run's report was written first; an earlier run's stale copy came after it.
    const later = writtenBy({ id: 101, attempt: 1 }, 'new push');
    const stale = writtenBy({ id: 99, attempt: 1 }, 'older push');
    const result = await post('old push', { id: 100, attempt: 1 });
    assert.equal(result.ok && result.action, 'kept-newer');
    assert.equal(result.ok && result.url, later.html_url);
    assert.equal(later.body, `${MARKER}\n<!-- evalgate-run 101.1 -->\nnew push`);
    assert.equal(stale.body, `${MARKER}\n<!-- evalgate-run 99.1 -->\nolder push`);
  });

  it('a later run that commented while this one created its comment keeps its report', async () => {
    const later = writtenBy({ id: 101, attempt: 1 }, 'new push');
    // The first listing is read before the later run's comment is stored: this run creates one.
    github.server.failNext('GET', /\/issues\/7\/comments$/, 200, 1, []);
    const result = await post('old push', { id: 100, attempt: 1 });
    assert.deepEqual(result, keptRun101(later));
    assert.equal(github.calls('POST', /\/comments$/).length, 1);
    // This run's copy is deleted again: one comment, the later run's.
    assert.deepEqual(
      comments().map((c) => c.body),
      [`${MARKER}\n<!-- evalgate-run 101.1 -->\nnew push`],
    );
  });
});
