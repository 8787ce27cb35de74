/**
 * A monorepo: two packages, each with its own evals.yaml, run as two steps of one job with
 * `working-directory`. Each step's report is its own (the check run is named by the config's
 * repository-relative path, and the comment's marker too), its results and HTML report are
 * written inside its package (the `results` output names where, for the upload step), and its
 * annotations sit on the rows' repository paths. The Action from src/ against the fake GitHub on
 * 127.0.0.1, in a real git checkout.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { useSourceAction } from './helpers/action-fixture.ts';
import { ONE_FAILING, suiteFiles, workspace } from './helpers/action-run.ts';
import { commitAll, git } from './helpers/git.ts';

const fixture = useSourceAction();

describe('a monorepo with a config in each package', () => {
  it('each working-directory gets its own check run, comment, results and annotations', async () => {
    const files = suiteFiles(ONE_FAILING);
    const ws = workspace(
      Object.fromEntries(
        ['a', 'b'].flatMap((pkg) =>
          Object.entries(files).map(([path, text]) => [`packages/${pkg}/${path}`, text]),
        ),
      ),
    );
    git(ws.dir, 'init', '-q', '-b', 'main');
    commitAll(ws.dir, 'packages');
    for (const pkg of ['a', 'b']) {
      const r = await fixture.run(ws, { 'working-directory': `packages/${pkg}` });
      assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
      assert.equal(r.outputs['results'], join(ws.dir, 'packages', pkg, 'evals-results.json'));
      assert.ok(existsSync(join(ws.dir, 'packages', pkg, 'evals-report.html')));
    }
    const runs = [...fixture.server.state.checkRuns.values()];
    assert.deepEqual(
      runs.map((run) => run.name),
      ['evals: packages/a/evals.yaml', 'evals: packages/b/evals.yaml'],
    );
    for (const [i, pkg] of ['a', 'b'].entries()) {
      const paths = new Set(runs[i]?.annotations.map((a) => a['path']));
      assert.deepEqual([...paths], [`packages/${pkg}/testsets/qa.csv`]);
    }
    const comments = fixture.server.state.comments.get(7) ?? [];
    assert.equal(comments.length, 2, 'one comment per package');
    assert.match(
      comments[0]?.body ?? '',
      /^<!-- evalgate-report config="packages\/a\/evals\.yaml"/,
    );
    assert.match(
      comments[1]?.body ?? '',
      /^<!-- evalgate-report config="packages\/b\/evals\.yaml"/,
    );
  });
});
