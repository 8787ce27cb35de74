/**
 * In the fork-safe pattern each push's results are reported by a `workflow_run` job that starts
 * when that push's run completes, so the report jobs' own run ids follow the order the runs
 * finished in, not the order of the pushes. The sticky comment must still end on the later
 * push's report: its run line names the run that made the results (`workflow_run.id`). The
 * built dist/index.js against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { useActionFixture } from './helpers/action-fixture.ts';
import {
  ALL_PASS,
  ONE_FAILING,
  REPOSITORY,
  suiteFiles,
  workspace,
  type Workspace,
} from './helpers/action-run.ts';

const OLDER_PUSH = '1'.repeat(40);
const LATER_PUSH = '2'.repeat(40);

describe('workflow_run reports that finish out of order', () => {
  const fixture = useActionFixture();

  /** An earlier job's results for `rows`, reported on the completion of run `runId`. */
  async function resultsOf(
    rows: { expected: string; answer: string }[],
    runId: number,
    headSha: string,
  ): Promise<Workspace> {
    const ws = workspace(suiteFiles(rows), 'push');
    const made = await fixture.run(ws, {
      comment: 'false',
      'check-run': 'false',
      'fail-on': 'never',
    });
    assert.equal(made.code, 0, made.stdout);
    const workflowRun = { id: runId, run_attempt: 1, event: 'pull_request', head_sha: headSha };
    writeFileSync(
      ws.event,
      JSON.stringify({ action: 'completed', workflow_run: workflowRun, repository: REPOSITORY }),
    );
    return ws;
  }

  const report = (ws: Workspace, reportRunId: string) =>
    fixture.run(
      ws,
      { mode: 'report', 'pr-number': '7', 'fail-on': 'never' },
      { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_SHA: 'f'.repeat(40), GITHUB_RUN_ID: reportRunId },
    );

  it("the older push's report, posted last, leaves the later push's in the comment", async () => {
    const older = await resultsOf(ONE_FAILING, 200, OLDER_PUSH);
    const later = await resultsOf(ALL_PASS, 201, LATER_PUSH);
    // The later push's run finished first: its report job is made first.
    const first = await report(later, '300');
    assert.equal(first.outputs.verdict, 'pass', first.stdout);
    const second = await report(older, '301');
    assert.equal(second.outputs.verdict, 'fail', second.stdout);
    const comments = fixture.server.state.comments.get(7) ?? [];
    assert.equal(comments.length, 1);
    assert.match(comments[0]?.body ?? '', /✅/, 'the later push is reported');
    assert.doesNotMatch(comments[0]?.body ?? '', /Blocked/);
    assert.match(
      second.stdout,
      /left the PR comment .* as it is: a later workflow run \(201, attempt 1\)/,
    );
    // Each check run is on its own commit either way.
    const checkRuns = [...fixture.server.state.checkRuns.values()];
    assert.deepEqual(
      checkRuns.map((run) => [run.head_sha, run.conclusion]),
      [
        [LATER_PUSH, 'success'],
        [OLDER_PUSH, 'failure'],
      ],
    );
  });
});
