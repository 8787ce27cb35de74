/**
 * Which commit the Action reports on, and what it refuses to report as the whole config's
 * verdict (QA pass 8): a `workflow_run` report without `head-sha` goes on the triggering run's
 * commit, not the default branch's tip; `mode: report` refuses one shard's artifact, and a shard
 * run by the Action itself says so; on `pull_request_target` (and `workflow_run`) in `mode: run`
 * a checkout of another commit than the event's gets the check run, with a warning. Unit tests of
 * `event.ts`, then the committed dist/index.js end to end against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkRunCommit, eventSubject, workflowRunMismatch } from '../src/action/event.ts';
import { useActionFixture } from './helpers/action-fixture.ts';
import {
  HEAD_SHA,
  ONE_FAILING,
  REPOSITORY,
  suiteFiles,
  workspace,
  type Workspace,
} from './helpers/action-run.ts';
import { commitAll, git } from './helpers/git.ts';

const MAIN_TIP = 'f'.repeat(40);
const PR_HEAD = 'd'.repeat(40);
const BASE = 'c'.repeat(40);
const MERGE = '9'.repeat(40);

// The triggering run is an earlier run than the report's own (GITHUB_RUN_ID 42 in every run
// here): its id is what the comment's run line names.
const workflowRun = (headSha?: string) => ({
  eventName: 'workflow_run',
  sha: MAIN_TIP,
  payload: {
    action: 'completed',
    workflow_run: { id: 41, event: 'pull_request', pull_requests: [], head_sha: headSha },
  },
});

const pullRequestTarget = {
  eventName: 'pull_request_target',
  sha: BASE,
  payload: {
    pull_request: {
      number: 7,
      head: { sha: PR_HEAD },
      base: { sha: BASE, ref: 'main' },
      merge_commit_sha: MERGE,
    },
  },
};

describe('workflow_run: the check run goes on the triggering run’s commit', () => {
  it('without head-sha, eventSubject names workflow_run.head_sha, not GITHUB_SHA', () => {
    assert.equal(eventSubject(workflowRun(PR_HEAD), {}).headSha, PR_HEAD);
    // Other events keep GITHUB_SHA, even with a workflow_run-like field in the payload.
    const push = { ...workflowRun(PR_HEAD), eventName: 'push' };
    assert.equal(eventSubject(push, {}).headSha, MAIN_TIP);
  });

  it('the guard: an agreeing or empty head-sha passes, another commit or none at all is refused', () => {
    assert.equal(workflowRunMismatch({ headSha: null }, workflowRun(PR_HEAD)), null);
    assert.equal(
      workflowRunMismatch({ headSha: PR_HEAD.toUpperCase() }, workflowRun(PR_HEAD)),
      null,
    );
    assert.match(
      workflowRunMismatch({ headSha: 'e'.repeat(40) }, workflowRun(PR_HEAD)) ?? '',
      /^input head-sha: e{40} is not the commit of the workflow run that triggered this one \(d{40}\); refusing/,
    );
    // No commit in the payload and none given: GITHUB_SHA would be the default branch's tip.
    assert.match(
      workflowRunMismatch({ headSha: null }, workflowRun()) ?? '',
      /names no workflow_run\.head_sha.*pass head-sha: \$\{\{ github\.event\.workflow_run\.head_sha \}\}/,
    );
    assert.equal(
      workflowRunMismatch({ headSha: null }, { ...workflowRun(), eventName: 'push' }),
      null,
    );
  });
});

describe('checkRunCommit: the commit whose code ran', () => {
  it('pull_request_target with the base branch checked out: the check run goes on it, with a warning', () => {
    const commit = checkRunCommit(pullRequestTarget, PR_HEAD, BASE);
    assert.equal(commit.sha, BASE);
    assert.match(
      commit.warning ?? '',
      /^pull_request_target: the evals ran the checked-out commit c{40} \(the base branch: .*\), not the pull request's head d{40}: this verdict is about that code, not the pull request's changes, so the check run goes on c{40}, not on d{40}/,
    );
  });

  it("pull_request_target with the PR's head or its test merge commit checked out: the PR head", () => {
    for (const checkedOut of [PR_HEAD, PR_HEAD.toUpperCase(), MERGE]) {
      assert.deepEqual(checkRunCommit(pullRequestTarget, PR_HEAD, checkedOut), {
        sha: PR_HEAD,
        warning: null,
      });
    }
    // An unknown checkout (no .git, or mode: report) changes nothing.
    assert.deepEqual(checkRunCommit(pullRequestTarget, PR_HEAD, null), {
      sha: PR_HEAD,
      warning: null,
    });
  });

  it('pull_request runs the merge commit by design: its check run stays on the PR head', () => {
    const pr = { ...pullRequestTarget, eventName: 'pull_request' };
    assert.deepEqual(checkRunCommit(pr, PR_HEAD, '8'.repeat(40)), { sha: PR_HEAD, warning: null });
  });

  it('workflow_run in mode: run with the default branch checked out: the check run goes there', () => {
    const commit = checkRunCommit(workflowRun(PR_HEAD), PR_HEAD, MAIN_TIP);
    assert.equal(commit.sha, MAIN_TIP);
    assert.match(
      commit.warning ?? '',
      /^workflow_run: .*f{40} \(GITHUB_SHA, the default branch's latest commit\), not d{40}/,
    );
  });
});

describe('checkRunCommit on the other events: the check run follows the code that ran', () => {
  it('issue_comment with the pull request checked out: the check run goes on it, not on GITHUB_SHA', () => {
    const chatOps = {
      ...pullRequestTarget,
      eventName: 'issue_comment',
      sha: MAIN_TIP,
      payload: {},
    };
    const commit = checkRunCommit(chatOps, MAIN_TIP, PR_HEAD);
    assert.equal(commit.sha, PR_HEAD);
    assert.match(
      commit.warning ?? '',
      /^issue_comment: the evals ran the checked-out commit d{40}, not GITHUB_SHA f{40}: this verdict is about that code, so the check run goes on d{40}, not on f{40}/,
    );
  });

  it('workflow_dispatch or schedule checking out another ref: that ref; the same commit: no warning', () => {
    for (const eventName of ['workflow_dispatch', 'schedule', 'push']) {
      const event = { ...pullRequestTarget, eventName, sha: MAIN_TIP, payload: {} };
      assert.equal(checkRunCommit(event, MAIN_TIP, BASE).sha, BASE, eventName);
      assert.deepEqual(checkRunCommit(event, MAIN_TIP, MAIN_TIP), { sha: MAIN_TIP, warning: null });
      assert.deepEqual(checkRunCommit(event, MAIN_TIP, null), { sha: MAIN_TIP, warning: null });
    }
  });

  it("a pull request's review events run the merge commit by design: the PR head, no warning", () => {
    for (const eventName of ['pull_request_review', 'pull_request_review_comment']) {
      const event = { ...pullRequestTarget, eventName };
      assert.deepEqual(checkRunCommit(event, PR_HEAD, MERGE), { sha: PR_HEAD, warning: null });
    }
  });
});

describe('the Action end to end', () => {
  const fixture = useActionFixture();

  /** The results of ONE_FAILING made by an earlier job that posted nothing. */
  async function produced(args = ''): Promise<Workspace> {
    const ws = workspace(suiteFiles(ONE_FAILING), 'push');
    const made = await fixture.run(ws, {
      comment: 'false',
      'check-run': 'false',
      'fail-on': 'never',
      args,
    });
    assert.equal(made.code, 0, made.stdout);
    return ws;
  }

  function setEvent(ws: Workspace, payload: object): void {
    writeFileSync(ws.event, JSON.stringify({ ...payload, repository: REPOSITORY }));
  }

  const checkRuns = () => [...fixture.server.state.checkRuns.values()];
  /** PR 7's comment of the report without args (the shard test has its own). */
  const plainComment = (): string =>
    fixture.server.state.comments
      .get(7)
      ?.find((c) => c.body.startsWith('<!-- evalgate-report config="evals.yaml" job="evals" -->'))
      ?.body ?? '';

  it('workflow_run + mode: report without head-sha: the check run goes on workflow_run.head_sha', async () => {
    const ws = await produced();
    setEvent(ws, workflowRun(PR_HEAD).payload);
    const before = checkRuns().length;
    const r = await fixture.run(
      ws,
      { mode: 'report', 'pr-number': '7' },
      { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_SHA: MAIN_TIP, GITHUB_REF: 'refs/heads/main' },
    );
    assert.equal(r.code, 1, r.stdout);
    const posted = checkRuns().slice(before);
    assert.equal(posted.length, 1);
    assert.equal(posted[0]?.head_sha, PR_HEAD, 'not on the default branch tip');
    assert.equal(posted[0]?.name, 'evals: evals.yaml');
  });

  it('a working-directory that is not there is said to be missing, as an invalid input', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING), 'push');
    const r = await fixture.run(ws, { 'working-directory': 'no/such/dir' });
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.outputs.verdict, 'error');
    assert.match(
      r.stdout,
      /^::error::input working-directory: there is no folder .*no\/such\/dir$/m,
    );
    assert.doesNotMatch(r.stdout, /config file not found/);
  });

  it('a baseline file that is not there is warned about once, and the run goes on', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING), 'push');
    const r = await fixture.run(ws, { baseline: 'base/none.json', 'fail-on': 'never' });
    assert.equal(r.code, 0, r.stdout);
    const warnings = r.stdout.split('\n').filter((line) => /^::warning::.*baseline/.test(line));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.match(
      warnings[0] ?? '',
      /base\/none\.json does not exist; running without a comparison/,
    );
  });

  it('mode: report refuses one shard of a run: verdict error, the reason, a failed check run and no comment', async () => {
    const ws = await produced('--shard 2/2');
    copyFileSync(join(ws.dir, 'evals-results.json'), join(ws.dir, 'r2.json'));
    const before = fixture.server.requests.length;
    const r = await fixture.run(ws, { mode: 'report', results: 'r2.json', 'pr-number': '7' });
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.outputs.verdict, 'error');
    assert.match(
      r.stdout,
      /^::error::evalgate \(mode: report\): r2\.json is shard 2 of 2: merge the shards with evals merge first/m,
    );
    assert.doesNotMatch(r.stdout + r.stderr, /\n\s+at /, 'no stack trace');
    // A required check of the report's name must not wait for good: it fails, saying why.
    // An earlier report's comment is updated to say so; none is created.
    const writes = fixture.server.requests.slice(before).filter((q) => q.method === 'POST');
    assert.deepEqual(
      writes.map((q) => q.path),
      ['/repos/octo/repo/check-runs'],
      'a check run, no new comment',
    );
    const [run] = checkRuns().slice(-1);
    assert.equal(run?.conclusion, 'failure');
    assert.match(run?.output.summary ?? '', /r2\.json is shard 2 of 2/);
  });

  it('mode: run with args --shard 1/2: its own check run name, and "shard 1 of 2" everywhere', async () => {
    const ws = workspace(suiteFiles(ONE_FAILING));
    const before = checkRuns().length;
    const r = await fixture.run(ws, { args: '--shard 1/2' });
    assert.ok(r.code === 0 || r.code === 1, r.stdout);
    const [run] = checkRuns().slice(before);
    assert.equal(run?.name, 'evals: evals.yaml --shard 1/2', 'never the plain required check');
    assert.match(run?.output.title ?? '', /^shard 1 of 2 · /);
    assert.match(run?.output.summary ?? '', /Shard 1 of 2 .*cover only this shard's cases/);
    const marker = '<!-- evalgate-report config="evals.yaml" args="--shard 1/2" job="evals" -->';
    const comment =
      fixture.server.state.comments.get(7)?.find((c) => c.body.startsWith(marker))?.body ?? '';
    // The marker and the run's stamp stay the first two lines, so the next run finds the comment.
    assert.match(
      comment,
      /^<!-- evalgate-report [^\n]*\n<!-- evalgate-run 42\.1 -->\n> \[!NOTE\]\n> Shard 1 of 2 .*cover only this shard's cases/,
    );
    assert.match(r.summary, /Shard 1 of 2 /);
  });

  /** A workspace that is a git checkout of one commit; returns it and the commit. */
  function checkout(): { ws: Workspace; sha: string } {
    const ws = workspace(suiteFiles(ONE_FAILING));
    git(ws.dir, 'init', '-q', '-b', 'main');
    return { ws, sha: commitAll(ws.dir, 'base') };
  }

  const prTargetPayload = (head: string, base: string) => ({
    action: 'synchronize',
    number: 7,
    pull_request: {
      number: 7,
      head: { sha: head, ref: 'feature', repo: { full_name: 'fork/repo' } },
      base: { sha: base, ref: 'main', repo: { full_name: 'octo/repo' } },
    },
  });

  it('pull_request_target with the base branch checked out: warns, and the check run goes on it', async () => {
    const { ws, sha } = checkout();
    setEvent(ws, prTargetPayload(HEAD_SHA, sha));
    const before = checkRuns().length;
    const r = await fixture.run(
      ws,
      {},
      { GITHUB_EVENT_NAME: 'pull_request_target', GITHUB_SHA: sha, GITHUB_REF: 'refs/heads/main' },
    );
    assert.equal(r.code, 1, r.stdout);
    const posted = checkRuns().slice(before);
    assert.equal(posted.length, 1);
    assert.equal(posted[0]?.head_sha, sha, 'the commit whose code ran');
    assert.notEqual(posted[0]?.head_sha, HEAD_SHA);
    const said = `the evals ran the checked-out commit ${sha} \\(the base branch`;
    assert.match(r.stdout, new RegExp(`^::warning::evalgate: pull_request_target: ${said}`, 'm'));
    assert.match(r.summary, /^> \[!WARNING\]\n> pull\\_request\\_target: the evals ran/);
    const comment = plainComment();
    assert.match(
      comment,
      /\n> \[!WARNING\]\n> pull\\_request\\_target: the evals ran the checked-out commit/,
    );
  });

  it("pull_request_target with the PR's head checked out: the check run goes on the PR head, no warning", async () => {
    const { ws, sha } = checkout();
    setEvent(ws, prTargetPayload(sha, BASE));
    const before = checkRuns().length;
    const r = await fixture.run(
      ws,
      {},
      { GITHUB_EVENT_NAME: 'pull_request_target', GITHUB_SHA: BASE },
    );
    assert.equal(r.code, 1, r.stdout);
    assert.equal(checkRuns().slice(before)[0]?.head_sha, sha);
    assert.doesNotMatch(r.stdout, /::warning::evalgate: pull_request_target/);
    assert.doesNotMatch(r.summary, /\[!WARNING\]/);
    assert.doesNotMatch(plainComment(), /\[!WARNING\]/, 'the updated comment drops the warning');
  });
});
