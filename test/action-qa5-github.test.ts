/**
 * QA round 5, the Action against a GitHub that misbehaves, end to end on the built Action
 * (`helpers/action-run.ts`) through a proxy in front of the fake (`helpers/github-fake-qa5.ts`):
 * the sticky comment converges on one (#2, #3); an unanswered request is bounded and logged as
 * what it is (#6); a GITHUB_TOKEN's and a PAT's check-run 403 say what is true of each (#7).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ALL_PASS, ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';
import { ACTIONS_BOT } from './helpers/github-server.ts';

const MARKER = '<!-- evalgate-report config="evals.yaml" job="evals" -->';
/** Every wait for GitHub a hundred times shorter: the one-minute budget is 0.6 s. */
const FAST = { EVALGATE_GITHUB_RETRY_SCALE: '0.01' };

describe('the Action against a GitHub that loses answers or never gives them (QA5)', () => {
  // Every run talks to GitHub through the proxy, with the waits shortened.
  const fixture = useActionFixture({ proxy: true, env: FAST });

  it('#2: a comment GitHub stored but answered 502 is not duplicated, and says the latest verdict', async () => {
    fixture.server.state.comments.delete(7);
    fixture.proxy.intercept('POST', /\/issues\/7\/comments$/, 'store-then-502');
    const first = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(first.code, 1, first.stdout);
    const afterFirst = fixture.server.state.comments.get(7) ?? [];
    assert.equal(afterFirst.length, 1, `one comment\n${first.stdout}`);
    assert.match(afterFirst[0]?.body ?? '', /Blocked/);

    const second = await fixture.run(workspace(suiteFiles(ALL_PASS)));
    assert.equal(second.code, 0, second.stdout);
    const comments = fixture.server.state.comments.get(7) ?? [];
    assert.equal(comments.length, 1);
    assert.match(comments[0]?.body ?? '', /Passed/);
  });

  it('#3: duplicates left by racing runs are collapsed to the newest, which is updated', async () => {
    fixture.server.state.comments.delete(7);
    const bot = { login: ACTIONS_BOT.login, type: 'Bot' as const };
    fixture.server.addComment(7, { ...bot, body: `${MARKER}\n**❌ Blocked** run=101` });
    const newest = fixture.server.addComment(7, {
      ...bot,
      body: `${MARKER}\n**❌ Blocked** run=102`,
    });
    const other = fixture.server.addComment(7, { body: 'a human reply', login: 'octocat' });
    const r = await fixture.run(workspace(suiteFiles(ALL_PASS)));
    assert.equal(r.code, 0, r.stdout);
    const comments = fixture.server.state.comments.get(7) ?? [];
    assert.deepEqual(
      comments.map((c) => c.id),
      [newest.id, other.id],
      'the older duplicate is gone, the human reply stays',
    );
    assert.match(comments[0]?.body ?? '', /Passed/);
  });

  it('#6: a request GitHub never answers is bounded by the budget and logged as a timeout', async () => {
    fixture.server.state.comments.delete(7);
    fixture.proxy.intercept('POST', /\/check-runs$/, 'hang', 10);
    const started = Date.now();
    const r = await fixture.run(workspace(suiteFiles(ALL_PASS)));
    const seconds = (Date.now() - started) / 1000;
    assert.equal(r.code, 0, `the verdict is pass; reporting never changes it\n${r.stdout}`);
    assert.ok(seconds < 30, `bounded (took ${seconds} s)`);
    assert.match(
      r.stdout,
      /GitHub did not answer within 20 s: POST \/repos\/octo\/repo\/check-runs/,
    );
    assert.doesNotMatch(r.stdout, /GitHub answered 500/);
    assert.match(r.stdout, /::warning::.*could not create the check run/);
    assert.equal(r.outputs['verdict'], 'pass');
    fixture.proxy.reset();
  });

  it('#7: a check-run 403 says missing checks: write or personal access token, never check-run: false', async () => {
    for (const user of [null, 'octocat']) {
      fixture.server.setUser(user);
      // A personal access token is refused by the fake itself, as by GitHub ("You must
      // authenticate via a GitHub App."); a GITHUB_TOKEN's refusal is a fork's or a missing
      // `checks: write`.
      if (user === null) {
        fixture.server.failNext('POST', /\/check-runs$/, 403, 1, {
          message: 'Resource not accessible by integration',
          documentation_url: 'https://docs.github.com/rest',
        });
      }
      const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
      const warning = /::warning::[^\n]*could not create the check run[^\n]*/.exec(r.stdout)?.[0];
      assert.ok(warning, r.stdout);
      assert.doesNotMatch(warning, /check-run: false/);
      // The pull request's head is the repository itself: no fork, so only the permission.
      if (user === null) assert.match(warning, /the workflow's token lacks `checks: write`/);
      else
        assert.match(
          warning,
          /403 You must authenticate via a GitHub App\. \(the github-token is a personal access token of octocat/,
        );
      assert.ok(r.stdout.match(/^::error [^\n]*file=/gm), 'the fallback annotations are emitted');
    }
    fixture.server.setUser(null);
  });
});
