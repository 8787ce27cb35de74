/**
 * On `pull_request_target` the check run goes on the commit whose code ran: the one checked out
 * where the config is. With actions/checkout's `path:` the workspace itself is no repository, so
 * the commit is read from the config's folder, not only from `working-directory`. The built
 * dist/index.js against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace, pullRequestEvent } from './helpers/action-run.ts';
import { commitAll, git } from './helpers/git.ts';

describe('pull_request_target with the repository checked out in a subfolder', () => {
  const fixture = useActionFixture();

  it('config: repo/evals.yaml with the base branch checked out: the check run goes on it, with a warning', async () => {
    const files = suiteFiles(ONE_FAILING);
    const ws = workspace(
      Object.fromEntries(Object.entries(files).map(([path, text]) => [`repo/${path}`, text])),
    );
    const repo = join(ws.dir, 'repo');
    git(repo, 'init', '-q', '-b', 'main');
    const base = commitAll(repo, 'base');
    writeFileSync(ws.event, JSON.stringify(pullRequestEvent({ headRepo: 'fork/repo', base })));
    const r = await fixture.run(
      ws,
      { config: 'repo/evals.yaml' },
      { GITHUB_EVENT_NAME: 'pull_request_target', GITHUB_SHA: base, GITHUB_REF: 'refs/heads/main' },
    );
    assert.equal(r.code, 1, r.stdout);
    const posted = [...fixture.server.state.checkRuns.values()].at(-1);
    assert.equal(posted?.head_sha, base, 'the commit whose code ran, not the PR head');
    assert.match(
      r.stdout,
      /^::warning::evalgate: pull_request_target: the evals ran the checked-out commit/m,
    );
  });
});
