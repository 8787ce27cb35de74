/**
 * The Action in `actions/checkout`'s default checkout, a shallow clone of one commit
 * (`fetch-depth: 1`): a testset read at a git revision (`ref:`) the clone lacks is refused before
 * anything runs, with an error on the config line saying to fetch the history (`fetch-depth: 0`),
 * and a failed check run saying so (a required check must not wait for good); `baseline: auto`, which needs no history (the base branch's results come
 * from its artifact), compares as in a full clone. The Action from src/ against the fake GitHub.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cliResults, resultsZip, useSourceAction } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace, type Workspace } from './helpers/action-run.ts';
import { writeFiles } from './helpers/cli.ts';
import { commitAll, git, newRepo } from './helpers/git.ts';

/** A pull_request workspace holding a depth-1 clone of a repository of two commits of `files`. */
function shallowCheckout(first: Record<string, string>, second: Record<string, string>): Workspace {
  const origin = newRepo();
  writeFiles(origin, first);
  commitAll(origin, 'one');
  writeFiles(origin, second);
  commitAll(origin, 'two');
  const ws = workspace({});
  git(origin, 'clone', '-q', '--depth', '1', `file://${origin}`, ws.dir);
  return ws;
}

describe('the Action in a shallow checkout (actions/checkout fetch-depth: 1)', () => {
  const fixture = useSourceAction();

  it('a testset ref the clone lacks: an error on the config line that says fetch-depth: 0; nothing runs, a failed check run says why', async () => {
    const files = suiteFiles(ONE_FAILING);
    const pinned = (files['evals.yaml'] ?? '').replace(
      'testset: { path: testsets/qa.csv }',
      'testset: { path: testsets/qa.csv, ref: HEAD~1 }',
    );
    fixture.server.requests.length = 0;
    const r = await fixture.run(shallowCheckout(files, { 'evals.yaml': pinned }));
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.equal(r.outputs['verdict'], 'error');
    // The check run annotates line 4; the step's error says it too, placed on no line of the diff.
    const error = /^::error [^\n]*lacks ref[^\n]*/m.exec(r.stdout)?.[0] ?? '';
    assert.match(error, /is a shallow clone and lacks ref "HEAD~1"/, r.stdout);
    assert.doesNotMatch(error, /\bfile=/);
    assert.match(error, /actions\/checkout `fetch-depth: 0`/);
    const runs = [...fixture.server.state.checkRuns.values()];
    assert.deepEqual(
      runs.map((run) => [run.name, run.conclusion, run.annotations[0]?.['start_line']]),
      [['evals: evals.yaml', 'failure', 4]],
    );
    assert.match(runs[0]?.output.summary ?? '', /lacks ref "HEAD~1"/);
    assert.equal(fixture.server.state.comments.size, 0, 'no comment for a run that did not run');
  });

  it('baseline: auto compares with the base branch artifact: no history needed', async () => {
    const files = suiteFiles(ONE_FAILING);
    const ws = shallowCheckout(files, { 'notes.txt': 'a second commit\n' });
    const base = await cliResults(ws, 'base.json', 1);
    // The base branch's run evaluated its own commit, as `baseline: auto` checks.
    const headSha = (JSON.parse(base) as { git?: { sha?: string } }).git?.sha;
    assert.ok(headSha, 'the results record the shallow checkout commit');
    fixture.server.addArtifact({
      name: 'evals-results',
      branch: 'main',
      zip: resultsZip(base),
      headSha,
    });
    const r = await fixture.run(ws, { baseline: 'auto', report: 'false' });
    assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stdout, /evalgate: comparing with evals-results from main/);
    assert.doesNotMatch(r.stdout, /::warning::/);
    assert.doesNotMatch(r.summary, /Not compared with a baseline/);
  });
});
