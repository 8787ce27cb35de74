/**
 * A GraphQL secondary rate limit told by its structured fields, not its wording: a 200 whose
 * error says only "Please slow down." and carries `extensions.code: SECONDARY_RATE_LIMITED` (and
 * `retry-after`) is waited out and the query sent again, so the stale report is hidden, where
 * matching the text "secondary rate" took it for a refusal. The Action from src/ against the fake
 * GitHub on 127.0.0.1, every wait twenty times shorter (the one-minute budget lasts 3 s).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

const MARKER = '<!-- evalgate-report config="evals.yaml" job="evals" -->';

const fixture = useSourceAction({ env: { EVALGATE_GITHUB_RETRY_SCALE: '0.05' } });

describe('a GraphQL secondary rate limit named only in extensions.code', () => {
  it('is waited out, then the stale report is hidden', async () => {
    fixture.server.setUser('alice');
    // An earlier report of the Actions bot's, which alice's token (a PAT) may not edit: stale.
    const old = fixture.server.addComment(7, {
      body: `${MARKER}\n<!-- evalgate-run 41.1 -->\n## evals: evals.yaml\npass (an old verdict)`,
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    fixture.server.failNext(
      'POST',
      /^\/graphql$/,
      200,
      1,
      {
        data: null,
        errors: [{ message: 'Please slow down.', extensions: { code: 'SECONDARY_RATE_LIMITED' } }],
      },
      { 'retry-after': '1' },
    );
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'check-run': 'false' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /secondary rate limit on POST \/graphql[^\n]*: retrying in \d+ s/);
    assert.equal(old.minimized, 'OUTDATED', r.stdout);
  });
});
