/**
 * A workflow whose `permissions:` leave out `checks: write`: GitHub refuses the check run with
 * 403 "Resource not accessible by integration". The run still writes its results and job
 * summary, annotates the failing rows from the log, ends on its verdict, and the warning says
 * how to fix it. On an event that cannot be a fork's pull request (a pull request from the
 * repository itself, a push) the cause is certain, and the warning names only it; on a pull
 * request from another repository (a private repository's fork, which the Action cannot tell from
 * a write token beforehand) it names the read-only token as well. The Action from src/ against
 * the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace, pullRequestEvent } from './helpers/action-run.ts';

const fixture = useSourceAction();
const CHECK_RUNS = /^\/repos\/octo\/repo\/check-runs$/;
const REFUSED = {
  message: 'Resource not accessible by integration',
  documentation_url: 'https://docs.github.com/rest/checks/runs#create-a-check-run',
  status: '403',
};

beforeEach(() => {
  fixture.server.state.checkRuns.clear();
  fixture.server.state.comments.clear();
  fixture.server.setUser(null);
});

function warning(stdout: string): string {
  const said = /^::warning::evalgate: could not create the check run[^\n]*/m.exec(stdout)?.[0];
  assert.ok(said, stdout);
  return said;
}

describe('a GITHUB_TOKEN without checks: write', () => {
  it('a pull request from the repository itself: the results and summary are written, and the warning says to add checks: write', async () => {
    fixture.server.failNext('POST', CHECK_RUNS, 403, 1, REFUSED);
    const ws = workspace(suiteFiles(ONE_FAILING));
    const r = await fixture.run(ws);
    assert.equal(r.code, 1, 'the verdict (fail), not the refusal, ends the step');
    assert.equal(r.outputs['verdict'], 'fail');
    assert.ok(existsSync(join(ws.dir, 'evals-results.json')), 'the results artifact');
    assert.match(r.summary, /evals: evals\.yaml/, 'the job summary');
    assert.ok(
      r.stdout.match(/^::error [^\n]*file=testsets\/qa\.csv/m),
      'rows annotated from the log',
    );
    const said = warning(r.stdout);
    assert.match(said, /403 Resource not accessible by integration/);
    assert.match(
      said,
      /the workflow's token lacks `checks: write`: add `permissions: checks: write`/,
    );
    assert.doesNotMatch(said, /fork/, 'not a fork: the repository is its own head');
  });

  it('a pull request from another repository (a private fork): the read-only token is named as well', async () => {
    fixture.server.failNext('POST', CHECK_RUNS, 403, 1, REFUSED);
    const ws = workspace(suiteFiles(ONE_FAILING));
    writeFileSync(
      ws.event,
      JSON.stringify(
        pullRequestEvent({
          headRepo: 'someone/repo',
          repository: { full_name: 'octo/repo', name: 'repo', private: true },
        }),
      ),
    );
    const r = await fixture.run(ws);
    assert.equal(r.code, 1, r.stdout);
    assert.match(warning(r.stdout), /fork the workflow's token is read-only/);
  });
});
