/**
 * GitHub Enterprise Server serves the REST API below `/api/v3` (`GITHUB_API_URL` is
 * `https://HOST/api/v3`) and the site at `GITHUB_SERVER_URL`: every request, page link and
 * download goes there, and every link in the comment, the job summary and the check run names
 * the server (none names github.com). The built dist/index.js
 * against the fake GitHub behind a proxy that answers only below `/api/v3`.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addResultsArtifact, cliResults, useActionFixture } from './helpers/action-fixture.ts';
import { suiteFiles, workspace } from './helpers/action-run.ts';

describe('the Action on GitHub Enterprise Server', () => {
  const fixture = useActionFixture({ proxy: true, proxyBasePath: '/api/v3' });
  const SERVER = 'https://ghe.example.com';

  it('comments (found again past 100 comments), checks with 70 annotations, compares with baseline: auto', async () => {
    const rows = Array.from({ length: 70 }, (_, i) => ({ expected: `e${i}`, answer: `a${i}` }));
    // The base branch's results of the same rows: a baseline sharing no case is not compared.
    const base = workspace(suiteFiles(rows));
    addResultsArtifact(fixture.server, 'main', await cliResults(base, 'evals-results.json', 1));
    for (let i = 0; i < 130; i++) fixture.server.addComment(7, { body: `comment ${i}` });
    const ws = workspace(suiteFiles(rows));
    assert.match(fixture.proxy.url, /\/api\/v3$/);
    for (const runId of ['42', '43']) {
      const r = await fixture.run(
        ws,
        { baseline: 'auto' },
        { GITHUB_SERVER_URL: SERVER, GITHUB_RUN_ID: runId },
      );
      assert.equal(r.code, 1, r.stdout);
      assert.doesNotMatch(r.stdout, /::warning::/, r.stdout);
      assert.match(r.stdout, /evalgate: comparing with evals-results from main/);
      assert.match(r.summary, new RegExp(`\\(${SERVER}/octo/repo/actions/runs/${runId}\\)`));
      assert.match(r.summary, /against the baseline/, 'the report shows the comparison');
      assert.doesNotMatch(r.summary, /https?:\/\/(api\.)?github\.com/);
    }
    const ours = (fixture.server.state.comments.get(7) ?? []).filter((c) =>
      c.body.startsWith('<!-- evalgate-report'),
    );
    assert.equal(ours.length, 1, 'one sticky comment, updated');
    assert.match(ours[0]?.body ?? '', /<!-- evalgate-run 43\.1 -->/);
    // Every link of the comment names the server, never github.com.
    assert.match(ours[0]?.body ?? '', new RegExp(`\\(${SERVER}/octo/repo/actions/runs/43\\)`));
    const checkRuns = [...fixture.server.state.checkRuns.values()];
    const texts = checkRuns.flatMap((run) => [run.output.summary ?? '', run.output.text ?? '']);
    for (const text of [ours[0]?.body ?? '', ...texts]) {
      assert.doesNotMatch(text, /https?:\/\/(api\.)?github\.com/);
    }
    assert.deepEqual(
      checkRuns.map((run) => [run.annotations.length, run.details_url]),
      [
        [70, `${SERVER}/octo/repo/actions/runs/42`],
        [70, `${SERVER}/octo/repo/actions/runs/43`],
      ],
    );
  });
});
