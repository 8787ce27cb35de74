/**
 * A `pull_request_target` job that checked out the pull request's test merge commit
 * (`pull_request.merge_commit_sha`): the check run goes on the head, where GitHub shows the pull
 * request's checks, and the log, the job summary, the comment and the check run say the results
 * are for the merge, as on `issue_comment`; the payload names every commit, so GitHub is not
 * asked. The built dist/index.js against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace, pullRequestEvent } from './helpers/action-run.ts';
import { mergeCheckout } from './helpers/git.ts';

describe('pull_request_target with the test merge commit checked out', () => {
  const fixture = useActionFixture();

  it("the check run goes on the pull request's head, and the reports say they are about its merge", async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    // What actions/checkout leaves for ref: merge_commit_sha: the merge commit, detached.
    const { head, base, merge } = mergeCheckout(ws.dir);
    writeFileSync(
      ws.event,
      // Its base (c…c) as the event saw it, older than the one the merge was made on.
      JSON.stringify(pullRequestEvent({ head, merge })),
    );
    const r = await fixture.run(
      ws,
      {},
      { GITHUB_EVENT_NAME: 'pull_request_target', GITHUB_SHA: base, GITHUB_REF: 'refs/heads/main' },
    );
    assert.equal(r.code, 1, r.stdout);

    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.head_sha, head, 'the head GitHub shows the checks of, not the merge');
    assert.doesNotMatch(r.stdout, /::warning::/);
    const said = `pull\\\\_request\\\\_target: these results are for the test merge commit ${merge} of pull request \\\\#7, the merge of its head ${head} into main at ${base}, not for the head alone; the check run goes on the head`;
    const note = new RegExp(`> \\[!NOTE\\]\\n> ${said}`);
    assert.match(r.summary, note);
    assert.match(fixture.server.state.comments.get(7)?.[0]?.body ?? '', note);
    assert.match(posted?.output.summary ?? '', note);
    assert.match(r.stdout, new RegExp(`^evalgate: ${said.replaceAll('\\\\', '')}`, 'm'));
    assert.equal(
      fixture.server.requests.filter((q) => q.path.includes('/pulls/')).length,
      0,
      'the payload names the commits: no call to the pulls API',
    );
  });
});
