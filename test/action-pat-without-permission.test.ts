/**
 * A fine-grained personal access token without the `Pull requests` (or `Issues`) write permission
 * reads a pull request's comments but may not write one: GitHub answers 403 "Resource not
 * accessible by personal access token". The workflow's `permissions:` do not apply to such a
 * token, and a fork has nothing to do with it, so the warning says what to change on the token;
 * so does a refused read (`baseline: auto` with a token lacking `Actions` read).
 * The Action from src/ against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

describe('the Action with a personal access token that may not write comments', () => {
  const fixture = useSourceAction();

  it("names the token's missing permission, not the workflow's permissions or a fork", async () => {
    fixture.server.setUser('alice', { writesComments: false });
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { 'check-run': 'false' });
    fixture.server.setUser(null);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const warning = /^::warning::evalgate: could not create the PR comment[^\n]*/m.exec(
      r.stdout,
    )?.[0];
    assert.ok(warning, r.stdout);
    assert.match(warning, /403 Resource not accessible by personal access token/);
    assert.match(warning, /personal access token of alice/);
    assert.match(warning, /Pull requests: Read and write/);
    assert.doesNotMatch(warning, /fork|`permissions:/);
    assert.equal(fixture.server.state.comments.size, 0);
  });

  it("baseline: auto with a token that may not read the artifacts: names the token's missing permission, not the workflow's", async () => {
    fixture.server.setUser('alice', { readsActions: false });
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), {
      baseline: 'auto',
      'check-run': 'false',
      report: 'false',
    });
    fixture.server.setUser(null);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const warning = /^::warning::evalgate: could not list the artifacts[^\n]*/m.exec(r.stdout)?.[0];
    assert.ok(warning, r.stdout);
    assert.match(warning, /403 Resource not accessible by personal access token/);
    assert.match(warning, /personal access token of alice, which lacks `Actions: Read-only`/);
    assert.match(warning, /the workflow's permissions do not apply to it/);
    assert.doesNotMatch(warning, /fork|`permissions:/);
    assert.equal(fixture.server.state.comments.get(7)?.length, 1, 'the comment still goes out');
  });
});
