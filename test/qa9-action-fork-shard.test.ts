/**
 * QA9 (L8): on a fork's `pull_request` run, whose token GitHub makes read-only, the Action says
 * so once (log and job summary), makes no write, and gives the rows as workflow-command
 * annotations and the report in the job summary; the step still ends on the verdict. On
 * `pull_request_target`, and in a private repository (which may send fork runs a write token),
 * it posts as before. And the line that fails the step names the shard the Action ran. The built
 * dist/index.js, end to end against the fake GitHub on 127.0.0.1, which answers writes 403 as
 * GitHub does a fork's token.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { beforeEach, describe, it } from 'node:test';
import { useActionFixture, type ActionFixture } from './helpers/action-fixture.ts';
import {
  ALL_PASS,
  fileErrors,
  ONE_FAILING,
  REPOSITORY,
  suiteFiles,
  workspace,
  type Workspace,
  pullRequestEvent,
} from './helpers/action-run.ts';

/** Every wait for GitHub a hundred times shorter. */
const FAST = { EVALGATE_GITHUB_RETRY_SCALE: '0.01' };

/** What GitHub answers a fork's read-only token on every write. */
function refuseWrites(fixture: ActionFixture): void {
  const readOnly = {
    message: 'Resource not accessible by integration',
    documentation_url: 'https://docs.github.com/rest',
  };
  fixture.server.failNext('POST', /\/issues\/7\/comments$/, 403, 5, readOnly);
  fixture.server.failNext('POST', /\/check-runs$/, 403, 5, readOnly);
}

/** A workspace for PR 7 from `head` (a fork's full name, or null for a deleted fork). */
function fromFork(
  rows: { expected: string; answer: string }[],
  head: string | null,
  repository: Record<string, unknown> = REPOSITORY,
): Workspace {
  const ws = workspace(suiteFiles(rows));
  writeFileSync(ws.event, JSON.stringify(pullRequestEvent({ headRepo: head, repository })));
  return ws;
}

function writes(fixture: ActionFixture): string[] {
  return fixture.server.requests
    .filter((q) => q.method !== 'GET')
    .map((q) => `${q.method} ${q.path}`);
}

describe('a pull request from a fork (L8)', () => {
  // A fake of its own: the writes it refuses are not all used up here, by design.
  const fixture = useActionFixture({ env: FAST });
  beforeEach(() => {
    fixture.server.requests.length = 0;
  });

  it('says once that its token cannot write, writes nothing, and still reports and decides', async () => {
    for (const [rows, code] of [
      [ONE_FAILING, 1],
      [ALL_PASS, 0],
    ] as const) {
      fixture.server.requests.length = 0;
      refuseWrites(fixture);
      const r = await fixture.run(fromFork([...rows], 'someone/repo'));
      assert.equal(r.code, code, `the verdict decides the step\n${r.stdout}`);
      assert.deepEqual(writes(fixture), [], 'no comment, no check run');
      assert.doesNotMatch(r.stdout, /::warning::/, 'no 403 warnings');
      const said = r.stdout.match(/comes from the fork someone\/repo, not octo\/repo[^\n]*/g) ?? [];
      assert.equal(said.length, 1, r.stdout);
      assert.match(said[0] ?? '', /read-only token, so no PR comment or check run is posted/);
      assert.match(said[0] ?? '', /docs\/action\.md#pull-requests-from-forks-safely/);
      assert.match(
        r.summary,
        /^> \[!NOTE\]\n> This pull request comes from the fork someone\/repo/,
      );
      assert.equal(
        fileErrors(r.stdout).length,
        code === 1 ? 1 : 0,
        'the failing row, from the log',
      );
      assert.equal(r.outputs['verdict'], code === 1 ? 'fail' : 'pass');
    }
  });

  it('from a fork deleted since: the same', async () => {
    refuseWrites(fixture);
    const r = await fixture.run(fromFork([...ONE_FAILING], null));
    assert.equal(r.code, 1);
    assert.deepEqual(writes(fixture), []);
    assert.doesNotMatch(r.stdout, /::warning::/);
    assert.match(r.stdout, /comes from a fork of octo\/repo that has since been deleted/);
    assert.equal(fileErrors(r.stdout).length, 1);
  });
});

describe("a fork's pull request reviewed or commented on in its diff", () => {
  const fixture = useActionFixture({ env: FAST });

  it('pull_request_review and pull_request_review_comment get the same read-only token: no write, said once', async () => {
    for (const event of ['pull_request_review', 'pull_request_review_comment']) {
      fixture.server.requests.length = 0;
      refuseWrites(fixture);
      const r = await fixture.run(
        fromFork([...ONE_FAILING], 'someone/repo'),
        {},
        { GITHUB_EVENT_NAME: event },
      );
      assert.equal(r.code, 1, r.stdout);
      assert.deepEqual(writes(fixture), [], `${event}: no comment, no check run`);
      assert.doesNotMatch(r.stdout, /::warning::/, `${event}: no 403 warnings`);
      const said = r.stdout.match(/comes from the fork someone\/repo[^\n]*/g) ?? [];
      assert.equal(said.length, 1, r.stdout);
      assert.match(said[0] ?? '', new RegExp(`a fork's ${event} run a read-only token`));
      assert.equal(fileErrors(r.stdout).length, 1, 'the failing row, from the log');
    }
  });
});

describe('a pull request from a fork whose token may write (L8)', () => {
  const fixture = useActionFixture({ env: FAST });

  it('on pull_request_target, or in a private repository: it posts', async () => {
    const target = await fixture.run(
      fromFork([...ONE_FAILING], 'someone/repo'),
      {},
      { GITHUB_EVENT_NAME: 'pull_request_target' },
    );
    assert.equal(target.code, 1);
    assert.equal(fixture.server.state.comments.get(7)?.length, 1, target.stdout);
    assert.equal(fixture.server.state.checkRuns.size, 1);
    assert.doesNotMatch(target.stdout, /comes from the fork/);

    fixture.server.state.comments.clear();
    fixture.server.state.checkRuns.clear();
    const secret = await fixture.run(
      fromFork([...ONE_FAILING], 'someone/repo', { ...REPOSITORY, private: true }),
    );
    assert.equal(secret.code, 1);
    assert.equal(fixture.server.state.comments.get(7)?.length, 1, secret.stdout);
    assert.equal(fixture.server.state.checkRuns.size, 1);
    assert.doesNotMatch(secret.stdout, /comes from the fork/);
  });
});

describe('the line that fails the step of one shard', () => {
  const fixture = useActionFixture({ env: FAST });

  it('names the shard, as the title, comment and summary do', async () => {
    const failing = Array.from({ length: 6 }, (_, i) => ({ expected: `e${i}`, answer: `x${i}` }));
    const r = await fixture.run(workspace(suiteFiles(failing)), { args: '--shard 1/2' });
    assert.equal(r.code, 1, r.stdout);
    const last = r.stdout.trimEnd().split('\n').at(-1) ?? '';
    assert.match(
      last,
      /^::error::evals: shard 1 of 2 · fail: 1 of 1 runs failed · 0 passed, \d+ failed, 0 errored$/,
    );
  });
});
