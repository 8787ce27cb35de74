/**
 * The Action on an invalid config (what `evals run` exits 2 on): nothing runs, the step fails with
 * an error on the config line, and a required check named `evals: evals.yaml` must not wait for
 * good. So a completed check run of that name says `failure`, with the problem in its title and
 * summary and an annotation at its line, and the job summary says the same; the step's own error
 * then keeps its message but not its place (GitHub would show it on the diff beside the check
 * run's). No PR comment is created, but an earlier report's comment is updated so that a stale
 * green one does not stay up.
 * A fork's read-only run posts nothing and still fails the step with the summary. The Action
 * from src/ against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import {
  HEAD_SHA,
  ONE_FAILING,
  suiteFiles,
  workspace,
  type Workspace,
  pullRequestEvent,
} from './helpers/action-run.ts';

/** ONE_FAILING's suite with an unknown key on line 6, `colour: blue`. */
function badConfig(extra: Record<string, string> = {}): Record<string, string> {
  const files = suiteFiles(ONE_FAILING, extra);
  const config = (files['evals.yaml'] ?? '').replace(
    '    function: ./app/answer.mjs\n',
    '    function: ./app/answer.mjs\n    colour: blue\n',
  );
  return { ...files, 'evals.yaml': config };
}

const MARKER = '<!-- evalgate-report config="evals.yaml" job="evals" -->';

describe('the Action on an invalid config', () => {
  const fixture = useSourceAction();

  it('posts a failed check run of the usual name with the problem at its line, and a job summary', async () => {
    const r = await fixture.run(workspace(badConfig()));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'error');
    // The check run annotates line 6: the step's error says the same without a place, so the
    // pull request's diff shows the problem once, and the log still has it.
    const errors = r.stdout.split('\n').filter((line) => line.startsWith('::error'));
    const colour = errors.filter((line) => line.includes('colour'));
    assert.equal(colour.length, 2, errors.join('\n'));
    assert.match(
      colour[0] ?? '',
      /^::error title=evalgate%3A invalid input::suites\[0\]: unknown key "colour"/,
    );
    assert.ok(
      errors.every((line) => !/\bfile=|\bline=/.test(line)),
      `no step error is placed on the diff:\n${errors.join('\n')}`,
    );
    assert.match(colour[1] ?? '', /^::error::evalgate could not run:%0Aevals\.yaml:6:5/);
    const runs = [...fixture.server.state.checkRuns.values()];
    assert.equal(runs.length, 1, r.stdout);
    const [run] = runs;
    assert.equal(run?.name, 'evals: evals.yaml');
    assert.equal(run?.head_sha, HEAD_SHA);
    assert.equal(run?.status, 'completed');
    assert.equal(run?.conclusion, 'failure');
    assert.match(
      run?.output.title ?? '',
      /^could not start: the config .* is invalid \(1 problem\)$/,
    );
    assert.match(run?.output.summary ?? '', /evals\.yaml:6:5 +suites\[0\]: unknown key "colour"/);
    assert.equal(run?.annotations.length, 1);
    assert.deepEqual(
      {
        path: run?.annotations[0]?.['path'],
        line: run?.annotations[0]?.['start_line'],
        level: run?.annotations[0]?.['annotation_level'],
      },
      { path: 'evals.yaml', line: 6, level: 'failure' },
    );
    assert.match(r.summary, /could not start/);
    assert.match(r.summary, /No case ran, so there is no verdict/);
    assert.match(r.summary, /evals\.yaml:6:5 +suites\[0\]: unknown key "colour"/);
    assert.equal(fixture.server.state.comments.size, 0, 'no comment is created for it');
  });

  it('updates an earlier report comment to say the run could not start, and creates none', async () => {
    fixture.server.state.checkRuns.clear();
    fixture.server.addComment(7, {
      body: `${MARKER}\n### evals: evals.yaml\n**Passed** 3 of 3`,
      login: 'github-actions[bot]',
      type: 'Bot',
    });
    const r = await fixture.run(workspace(badConfig()));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const comments = fixture.server.state.comments.get(7) ?? [];
    assert.equal(comments.length, 1, 'the earlier comment, no new one');
    const body = comments[0]?.body ?? '';
    assert.ok(body.startsWith(`${MARKER}\n`), body);
    assert.match(body, /could not start/);
    assert.doesNotMatch(body, /Passed/);
    assert.equal(fixture.server.state.checkRuns.size, 1);
    fixture.server.state.comments.clear();
  });

  it('keeps a secret the config reads out of the check run, the summary and the log', async () => {
    fixture.server.state.checkRuns.clear();
    const secret = 'sk-config-secret-0123456789';
    const files = suiteFiles(ONE_FAILING);
    const config = (files['evals.yaml'] ?? '').replace(
      '    function: ./app/answer.mjs\n',
      '    function: ./app/answer.mjs\n    concurrency: "${DEPLOY_PAT}"\n',
    );
    const r = await fixture.run(
      workspace({ ...files, 'evals.yaml': config }),
      {},
      { DEPLOY_PAT: secret },
    );
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    const [run] = [...fixture.server.state.checkRuns.values()];
    assert.equal(run?.conclusion, 'failure', r.stdout);
    const posted = JSON.stringify(run) + r.summary;
    assert.ok(!posted.includes(secret), posted);
    assert.match(run?.output.summary ?? '', /concurrency.*\[redacted\]/, 'the problem is said');
    // The runner masks what follows `::add-mask::`; no other line of the log may hold it.
    const log = r.stdout.replace(/^::add-mask::.*$/gm, '');
    assert.ok(!log.includes(secret), 'masked in the log');
  });

  it('with a personal access token, which GitHub refuses check runs: a warning says so, the step error stays', async () => {
    fixture.server.state.checkRuns.clear();
    fixture.server.setUser('octocat');
    const r = await fixture.run(workspace(badConfig()));
    fixture.server.setUser(null);
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'error');
    assert.match(r.stdout, /^::error [^\n]*file=evals\.yaml,line=6/m);
    assert.match(
      r.stdout,
      /^::warning::evalgate: could not create the check run "evals: evals\.yaml": 403 You must authenticate via a GitHub App\. \(the github-token is a personal access token of octocat/m,
    );
    assert.match(r.summary, /could not start/);
    assert.match(
      r.summary,
      /\n> \[!WARNING\]\n> One write of this report to GitHub failed \(the job log's warnings say which, and why\)\. This summary and the job log say why the run could not start; the step fails\.\n$/,
    );
    assert.equal(fixture.server.state.checkRuns.size, 0);
    assert.equal(fixture.server.state.comments.size, 0);
  });

  it("on a fork's read-only run: the step error and the job summary, nothing posted", async () => {
    fixture.server.state.checkRuns.clear();
    fixture.server.requests.length = 0;
    const r = await fixture.run(forked(workspace(badConfig())));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'error');
    assert.match(r.stdout, /^::error [^\n]*file=evals\.yaml,line=6/m);
    assert.match(r.summary, /could not start/);
    assert.match(r.summary, /comes from the fork someone\/repo/);
    const writes = fixture.server.requests.filter((q) => q.method !== 'GET');
    assert.deepEqual(writes, [], 'nothing is written with a read-only token');
    assert.doesNotMatch(r.stdout, /::warning::/);
  });
});

/** `ws` with its event turned into a pull request from the fork someone/repo. */
function forked(ws: Workspace): Workspace {
  writeFileSync(ws.event, JSON.stringify(pullRequestEvent({ headRepo: 'someone/repo' })));
  return ws;
}
