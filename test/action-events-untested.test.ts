/**
 * The Action on events no other test ran it on end to end, each with the environment and payload
 * GitHub gives it: a `push` to the default branch (the run that refreshes `baseline: auto`'s
 * results), a `schedule` run, and a pull request from a fork in a private repository whose token
 * GitHub made read-only (the repository does not send write tokens to forks' runs: the payload
 * cannot tell, so the Action tries, and GitHub answers 403 as it does, body and all). None has a
 * pull request to comment on but the last, whose writes are refused: each still writes its job
 * summary and results artifact, puts the check run (when it may) on the commit GitHub reads a
 * required check on, and exits by the verdict. The built dist/index.js against the fake GitHub
 * on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { onlyCheckRun, useActionFixture } from './helpers/action-fixture.ts';
import {
  ALL_PASS,
  fileErrors,
  ONE_FAILING,
  pullRequestEvent,
  REPOSITORY,
  suiteFiles,
  workspace,
  type Workspace,
} from './helpers/action-run.ts';

/** Every wait for GitHub a hundred times shorter. */
const fixture = useActionFixture({ env: { EVALGATE_GITHUB_RETRY_SCALE: '0.01' } });
const PUSHED = '1'.repeat(40);

beforeEach(() => {
  fixture.server.state.checkRuns.clear();
  fixture.server.state.comments.clear();
  fixture.server.requests.length = 0;
});

/** A workspace for `event` whose payload is `payload`. */
function on(rows: readonly { expected: string; answer: string }[], payload: object): Workspace {
  const ws = workspace(suiteFiles([...rows]), 'push');
  writeFileSync(ws.event, JSON.stringify(payload));
  return ws;
}

/** The environment GitHub gives a run on the default branch's commit PUSHED. */
function onMain(event: string): Record<string, string> {
  return { GITHUB_EVENT_NAME: event, GITHUB_SHA: PUSHED, GITHUB_REF: 'refs/heads/main' };
}

/** The results artifact the run wrote, read back. */
function results(ws: Workspace): { verdict?: string } {
  const path = join(ws.dir, 'evals-results.json');
  assert.ok(existsSync(path), 'the results artifact is written');
  return JSON.parse(readFileSync(path, 'utf8')) as { verdict?: string };
}

/** What GitHub answers a write of a token that may not write, as it sends it. */
const NOT_ACCESSIBLE = (path: string) => ({
  message: 'Resource not accessible by integration',
  documentation_url: `https://docs.github.com/rest/${path}`,
  status: '403',
});

describe('push to the default branch (the baseline refresh)', () => {
  it('the check run goes on the pushed commit, no comment is tried, and baseline: auto says why there is none', async () => {
    for (const [rows, code, verdict] of [
      [ONE_FAILING, 1, 'fail'],
      [ALL_PASS, 0, 'pass'],
    ] as const) {
      fixture.server.state.checkRuns.clear();
      const ws = on(rows, {
        ref: 'refs/heads/main',
        before: '0'.repeat(40),
        after: PUSHED,
        head_commit: { id: PUSHED },
        repository: { ...REPOSITORY, default_branch: 'main' },
      });
      const r = await fixture.run(ws, { baseline: 'auto' }, onMain('push'));
      assert.equal(r.code, code, `the verdict decides the step\n${r.stdout}\n${r.stderr}`);
      assert.equal(r.outputs['verdict'], verdict);
      const run = onlyCheckRun(fixture.server, r.stdout);
      assert.equal(run.head_sha, PUSHED);
      assert.equal(run.conclusion, code === 0 ? 'success' : 'failure');
      assert.equal(fixture.server.state.comments.size, 0);
      assert.deepEqual(
        fixture.server.requests.filter((q) => q.path.includes('/issues/')).map((q) => q.path),
        [],
        'no pull request, so no comment is looked for',
      );
      assert.match(r.stdout, /this push event has none, so there is no comparison/);
      assert.doesNotMatch(r.stdout, /::warning::/);
      assert.match(r.summary, /evals: evals\.yaml/);
      assert.doesNotMatch(r.summary, /\[!WARNING\]/, 'everything was posted');
      assert.equal(results(ws).verdict, verdict);
    }
  });
});

describe('schedule', () => {
  it('the check run goes on GITHUB_SHA, no comment, and the step ends by the verdict', async () => {
    const ws = on(ONE_FAILING, { schedule: '17 3 * * *', repository: REPOSITORY });
    const r = await fixture.run(ws, {}, onMain('schedule'));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'fail');
    const run = onlyCheckRun(fixture.server, r.stdout);
    assert.equal(run.head_sha, PUSHED);
    assert.equal(run.conclusion, 'failure');
    assert.equal(fixture.server.state.comments.size, 0);
    assert.doesNotMatch(r.stdout, /::warning::/);
    assert.match(r.summary, /evals: evals\.yaml/);
    assert.equal(results(ws).verdict, 'fail');
  });
});

describe("a fork's pull request in a private repository that sends forks read-only tokens", () => {
  /** PR 7 from someone/repo into the private octo/repo. */
  function fromFork(rows: readonly { expected: string; answer: string }[]): Workspace {
    return on(
      rows,
      pullRequestEvent({ headRepo: 'someone/repo', repository: { ...REPOSITORY, private: true } }),
    );
  }

  function refuseWrites(): void {
    fixture.server.failNext(
      'POST',
      /\/issues\/7\/comments$/,
      403,
      1,
      NOT_ACCESSIBLE('issues/comments#create-an-issue-comment'),
    );
    fixture.server.failNext(
      'POST',
      /\/check-runs$/,
      403,
      1,
      NOT_ACCESSIBLE('checks/runs#create-a-check-run'),
    );
  }

  it("the 403s are said as a fork's read-only token; summary, artifact and annotations remain; the verdict decides", async () => {
    for (const [rows, code, verdict] of [
      [ONE_FAILING, 1, 'fail'],
      [ALL_PASS, 0, 'pass'],
    ] as const) {
      fixture.server.state.comments.clear();
      fixture.server.state.checkRuns.clear();
      refuseWrites();
      const ws = fromFork(rows);
      const r = await fixture.run(ws);
      assert.equal(r.code, code, `the verdict decides, not the 403\n${r.stdout}\n${r.stderr}`);
      assert.equal(r.outputs['verdict'], verdict);
      assert.equal(fixture.server.state.comments.size, 0);
      assert.equal(fixture.server.state.checkRuns.size, 0);
      const warnings = r.stdout.split('\n').filter((line) => line.startsWith('::warning::'));
      const checkRun = warnings.filter((line) => /check run/i.test(line));
      const comment = warnings.filter((line) => /comment/i.test(line) && !/check run/i.test(line));
      assert.equal(checkRun.length, 1, r.stdout);
      assert.match(checkRun[0] ?? '', /403/);
      assert.match(checkRun[0] ?? '', /from a fork the workflow's token is read-only/);
      assert.equal(comment.length, 1, r.stdout);
      assert.match(comment[0] ?? '', /403/);
      assert.match(comment[0] ?? '', /a pull request from a fork gets a read-only token/);
      assert.match(r.summary, /evals: evals\.yaml/);
      // The summary, where the report is read now, does not look posted: it says why.
      assert.match(
        r.summary,
        /\n> \[!WARNING\]\n> 2 writes of this report to GitHub failed \(the job log's warnings say which, and why\): a pull request from a fork gets a read-only token, which GitHub refuses every write\. This summary, the job log and the results file carry the report; the verdict decides the step\.\n$/,
      );
      assert.equal(results(ws).verdict, verdict);
      assert.equal(
        fileErrors(r.stdout).length,
        code === 1 ? 1 : 0,
        'the failing row, from the log',
      );
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    }
  });
});
