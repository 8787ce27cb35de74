/**
 * What GitHub answers a report aimed at something the repository does not have, and that the
 * Action survives it: a check run on a commit GitHub lacks gets 422 "No commit found for SHA" (a
 * commit the job made and did not push, a `head-sha` of another repository's), and the comments
 * of an issue number it lacks get 404 (a mistyped `pr-number`). Each is one warning that says so;
 * the job summary, the other report and the step's outcome (the verdict) stay. The Action from
 * src/ against the fake GitHub on 127.0.0.1, told which commits and issues the repository has.
 */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { fileErrors, HEAD_SHA, ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

const fixture = useSourceAction();
afterEach(() => {
  const { server } = fixture;
  server.state.commits = null;
  server.state.issues = null;
  server.state.comments.clear();
  server.state.checkRuns.clear();
  server.requests.length = 0;
});

function requests(method: string, path: RegExp): number {
  return fixture.server.requests.filter((q) => q.method === method && path.test(q.path)).length;
}

describe('a report aimed at what the repository does not have', () => {
  it('a check run on a commit GitHub lacks: one 422, not retried without annotations; a warning that says so, the rows from the log', async () => {
    const missing = 'd'.repeat(40);
    fixture.server.state.commits = new Set([HEAD_SHA]);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'head-sha': missing });
    assert.equal(r.code, 1, `the verdict decides the step\n${r.stdout}\n${r.stderr}`);
    assert.equal(requests('POST', /\/check-runs$/), 1, 'no second create can help');
    assert.equal(fixture.server.state.checkRuns.size, 0);
    const warning = /^::warning::evalgate: could not create the check run[^\n]*/m.exec(r.stdout);
    assert.ok(warning, r.stdout);
    assert.match(warning[0], new RegExp(`422 No commit found for SHA: ${missing}`));
    assert.match(warning[0], /GitHub has no such commit in this repository/);
    assert.doesNotMatch(warning[0], /fork|permissions/);
    assert.equal(fileErrors(r.stdout).length, 1, 'the failing row is annotated from the log');
    assert.match(r.summary, /Blocked|fail/i, 'the job summary is written');
    assert.equal(fixture.server.state.comments.get(7)?.length, 1, 'the comment still goes out');
  });

  it("a lost create on a commit GitHub lacks: the list's 422 No commit found says none was made; sent again, GitHub's own 422 is the warning", async () => {
    const missing = 'd'.repeat(40);
    fixture.server.state.commits = new Set([HEAD_SHA]);
    fixture.server.failNext('POST', /\/check-runs$/, 502, 1);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'head-sha': missing });
    assert.equal(r.code, 1, `the verdict decides the step\n${r.stdout}\n${r.stderr}`);
    assert.equal(requests('GET', /\/commits\/d{40}\/check-runs$/), 1, 'read back once');
    assert.equal(requests('POST', /\/check-runs$/), 2, 'sent again: it cannot have been made');
    const warning = /^::warning::evalgate: could not create the check run[^\n]*/m.exec(r.stdout);
    assert.ok(warning, r.stdout);
    assert.match(warning[0], new RegExp(`422 No commit found for SHA: ${missing}`));
    assert.match(warning[0], /GitHub has no such commit in this repository/);
    assert.doesNotMatch(warning[0], /whether GitHub stored it anyway could not be checked/);
  });

  it('a comment on a pull request number GitHub lacks: a 404 warning naming it; the check run and summary still go out', async () => {
    fixture.server.state.issues = new Set([7]);
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING), 'push'), {
      'pr-number': '99',
    });
    assert.equal(r.code, 1, `the verdict decides the step\n${r.stdout}\n${r.stderr}`);
    assert.equal(requests('POST', /\/issues\/\d+\/comments$/), 0, 'nothing is written blindly');
    assert.equal(fixture.server.state.comments.size, 0);
    const warning = /^::warning::evalgate: could not list the comments of PR #99[^\n]*/m.exec(
      r.stdout,
    );
    assert.ok(warning, r.stdout);
    assert.match(warning[0], /404 Not Found/);
    assert.equal(fixture.server.state.checkRuns.size, 1, r.stdout);
    assert.match(r.summary, /Blocked|fail/i);
  });
});
