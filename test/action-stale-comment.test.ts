/**
 * A workflow that switched tokens (GITHUB_TOKEN → a GitHub App's): the earlier report, the
 * Actions bot's, cannot be edited by the app (GitHub answers 403), so the Action posts the app's
 * own comment, hides the old one as outdated, and says in the log and the job summary which
 * comment is current. The Action from src/ (through tsx), against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';
import { useSourceAction } from './helpers/action-fixture.ts';

const MARKER = '<!-- evalgate-report config="evals.yaml" job="evals" -->';

describe('the Action after the workflow switched to a GitHub App token', () => {
  const fixture = useSourceAction();

  it('posts a new comment, hides the stale one, and names the current one', async () => {
    const old = fixture.server.addComment(7, {
      body: `${MARKER}\n<!-- evalgate-run 41.1 -->\n## evals: evals.yaml\npass (an old verdict)`,
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    fixture.server.setAppToken('evalgate-ci');
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const comments = fixture.server.state.comments.get(7) ?? [];
    assert.equal(comments.length, 2);
    const current = comments[1];
    assert.equal(current?.user.login, 'evalgate-ci[bot]');
    assert.equal(r.outputs['comment-url'], current?.html_url);
    assert.equal(old.minimized, 'OUTDATED');
    assert.match(old.body, /an old verdict/);
    assert.match(
      r.stdout,
      new RegExp(
        `::warning::evalgate: an earlier report on this pull request, ${old.html_url}, was written by another identity \\(github-actions\\[bot\\]\\).*hidden it as outdated\\. The current report is ${current?.html_url}`,
      ),
    );
    assert.match(r.summary, /The current PR comment is .*hidden as outdated/s);
  });
});

describe('the Action on every push after the workflow switched to a personal access token', () => {
  const fixture = useSourceAction();

  // A personal access token after GITHUB_TOKEN: the Actions bot's report is another identity's
  // on every run. Hidden once, it is not hidden again, nor warned about on every push.
  it('warns about a stale comment once: the next run finds it hidden and says nothing', async () => {
    const old = fixture.server.addComment(7, {
      body: `${MARKER}\n<!-- evalgate-run 41.1 -->\n## evals: evals.yaml\npass (an old verdict)`,
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    fixture.server.setUser('alice');
    const stale = /::warning::evalgate: an earlier report on this pull request/;
    const first = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(first.code, 1, `${first.stdout}\n${first.stderr}`);
    assert.match(first.stdout, stale);
    assert.equal(old.minimized, 'OUTDATED');
    const minimizes = () =>
      fixture.server.requests.filter((r) =>
        /minimizeComment/.test((r.body as { query?: string } | undefined)?.query ?? ''),
      ).length;
    assert.equal(minimizes(), 1);
    const second = await fixture.run(workspace(suiteFiles(ONE_FAILING)));
    assert.equal(second.code, 1, `${second.stdout}\n${second.stderr}`);
    assert.doesNotMatch(second.stdout, stale);
    assert.doesNotMatch(second.summary, /earlier report with the same marker/);
    assert.equal(minimizes(), 1, 'not hidden again');
    assert.equal(fixture.server.state.comments.get(7)?.length, 2);
  });
});
