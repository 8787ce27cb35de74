/**
 * GitHub Enterprise Server serves GraphQL at `https://HOST/api/graphql`, beside the REST API at
 * `/api/v3`, not below it: octokit derives the one from the other. The Action hides a stale
 * report (another identity's, after the workflow switched tokens) through GraphQL, so on GHES that
 * request must reach `/api/graphql`. The Action from src/ against the fake GitHub behind a proxy
 * that serves GHES's paths.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

const MARKER = '<!-- evalgate-report config="evals.yaml" job="evals" -->';

describe('the Action on GitHub Enterprise Server after the workflow switched tokens', () => {
  const fixture = useSourceAction({ proxy: true, proxyBasePath: '/api/v3' });

  it('hides the stale report through /api/graphql', async () => {
    const old = fixture.server.addComment(7, {
      body: `${MARKER}\n<!-- evalgate-run 41.1 -->\n## evals: evals.yaml\npass (an old verdict)`,
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    fixture.server.setAppToken('evalgate-ci');
    const r = await fixture.run(
      workspace(suiteFiles(ONE_FAILING)),
      {},
      {
        GITHUB_SERVER_URL: 'https://ghe.example.com',
      },
    );
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(old.minimized, 'OUTDATED', r.stdout);
    assert.match(r.stdout, /this run hidden it as outdated/);
    assert.ok(
      fixture.server.requests.some((q) => q.method === 'POST' && q.path === '/graphql'),
      'GraphQL reached GitHub',
    );
  });
});
