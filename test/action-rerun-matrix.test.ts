/**
 * Two real set-ups, end to end: a re-run of a workflow run (`GITHUB_RUN_ATTEMPT` 2) updates the
 * sticky comment its first attempt wrote, never a second comment, and gives the commit a check
 * run of its own; and the legs of a matrix job, running at once on one pull request, each keep
 * their own comment and check run (the `name` input), on the first push and the next. The Action
 * from src/ against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { HEAD_SHA, ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';

const fixture = useSourceAction();
beforeEach(() => {
  fixture.server.state.comments.clear();
  fixture.server.state.checkRuns.clear();
});

describe('a re-run and a matrix on one pull request', () => {
  it('a re-run (attempt 2) updates the first attempt’s comment; each attempt has its check run', async () => {
    const first = await fixture.run(
      workspace(suiteFiles(ONE_FAILING)),
      {},
      {
        GITHUB_RUN_ATTEMPT: '1',
      },
    );
    assert.equal(first.code, 1, `${first.stdout}\n${first.stderr}`);
    const rerun = await fixture.run(
      workspace(suiteFiles(ONE_FAILING)),
      {},
      {
        GITHUB_RUN_ATTEMPT: '2',
      },
    );
    assert.equal(rerun.code, 1, `${rerun.stdout}\n${rerun.stderr}`);
    const comments = fixture.server.state.comments.get(7) ?? [];
    assert.equal(comments.length, 1, 'updated, not duplicated');
    assert.equal(comments[0]?.body.split('\n')[1], '<!-- evalgate-run 42.2 -->');
    assert.match(rerun.stdout, /evalgate: updated the PR comment /);
    assert.equal(rerun.outputs['comment-url'], first.outputs['comment-url']);
    const runs = [...fixture.server.state.checkRuns.values()];
    assert.deepEqual(
      runs.map((run) => [run.name, run.head_sha]),
      [
        ['evals: evals.yaml', HEAD_SHA],
        ['evals: evals.yaml', HEAD_SHA],
      ],
      'GitHub shows the newest check run of a name: the re-run’s',
    );
  });

  it('matrix legs running at once keep their own comment and check run, push after push', async () => {
    const legs = ['model small', 'model large'];
    const push = (runId: string) =>
      Promise.all(
        legs.map((name) =>
          fixture.run(workspace(suiteFiles(ONE_FAILING)), { name }, { GITHUB_RUN_ID: runId }),
        ),
      );
    for (const runId of ['42', '43']) {
      for (const r of await push(runId)) assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
      const comments = fixture.server.state.comments.get(7) ?? [];
      assert.deepEqual(
        comments.map((comment) => comment.body.split('\n').slice(0, 2)).sort(),
        legs
          .map((name) => [
            `<!-- evalgate-report name="${name}" job="evals" -->`,
            `<!-- evalgate-run ${runId}.1 -->`,
          ])
          .sort(),
        'one comment per leg, each with its own report of this push',
      );
    }
    const names = [...fixture.server.state.checkRuns.values()].map((run) => run.name).sort();
    assert.deepEqual(names, [
      'evals: model large',
      'evals: model large',
      'evals: model small',
      'evals: model small',
    ]);
  });
});
