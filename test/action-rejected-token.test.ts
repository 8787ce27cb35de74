/**
 * A github-token GitHub does not know (revoked, expired, a mistyped secret) gets 401 "Bad
 * credentials" on every request, reads as much as writes. The Action still ends on the eval
 * verdict, says for each thing it could not post that the token was rejected (not a missing
 * permission, not a fork), sends nothing twice, and annotates the failing rows from the log. The
 * Action from src/ against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

describe('the Action with a token GitHub rejects', () => {
  const fixture = useSourceAction();

  it('keeps the verdict and says the token was rejected for each report it could not post', async () => {
    fixture.server.rejectToken();
    const r = await fixture.run(workspace(suiteFiles(ONE_FAILING)), { baseline: 'auto' });
    fixture.server.rejectToken(false);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'fail');
    const warnings = r.stdout.match(/^::warning::.*$/gm) ?? [];
    const rejected = warnings.filter((w) => /401 Bad credentials \(the token was rejected/.test(w));
    assert.ok(
      rejected.some((w) => /PR comment|which user the token writes as/.test(w)),
      r.stdout,
    );
    assert.ok(
      rejected.some((w) => /check run/.test(w)),
      r.stdout,
    );
    assert.ok(
      rejected.some((w) => /baseline|artifacts/.test(w)),
      r.stdout,
    );
    for (const warning of warnings) assert.doesNotMatch(warning, /fork|permissions:/, warning);
    assert.ok(
      r.stdout.match(/^::error [^\n]*file=/gm),
      'the failing rows are annotated from the log',
    );
    const sent = fixture.server.requests.map((q) => `${q.method} ${q.path}`);
    assert.equal(new Set(sent).size, sent.length, `nothing sent twice: ${sent.join(', ')}`);
    assert.equal(fixture.server.state.comments.size, 0);
    assert.equal(fixture.server.state.checkRuns.size, 0);
  });
});
