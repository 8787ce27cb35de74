/**
 * A pull request that renames a suite of a one-suite config whose baseline gate says
 * `regressions: block`: the run shares no case with the base branch's results. It was a passing
 * check with a "not compared" note; the suite gone from the config now fails the check run, and
 * the PR comment, the job summary and the check run say which suite and how to accept it
 * (`removedSuites`). The Action's verdict is the artifact's: this checks it reaches GitHub.
 *
 * The Action runs from src/ (through tsx) in a child process, against the fake GitHub on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { onlyCheckRun, useSourceAction } from './helpers/action-fixture.ts';
import { workspace, type Workspace } from './helpers/action-run.ts';
import { runInProcess } from './helpers/in-process.ts';
import { passingSuite, reports } from './helpers/uncompared-baseline.ts';

describe('the Action when a suite of the baseline is gone from the config', () => {
  const fixture = useSourceAction();
  let base = '';
  before(async () => {
    const old = workspace(passingSuite({ suite: 'qa' }));
    const made = await runInProcess(['run', '-o', 'base.json'], old.dir);
    assert.equal(made.code, 0, made.stderr);
    base = readFileSync(join(old.dir, 'base.json'), 'utf8');
  });

  it('a renamed suite fails the check run, and every report says which and how to accept it', async () => {
    const ws: Workspace = workspace({ ...passingSuite({ suite: 'qa2' }), 'base.json': base });
    const run = await fixture.run(ws, { baseline: 'base.json', report: 'false' });
    assert.equal(run.code, 1, run.stdout);
    assert.equal(run.outputs['verdict'], 'fail');
    const check = onlyCheckRun(fixture.server, run.stdout);
    assert.equal(check.conclusion, 'failure');
    assert.match(check.output.title ?? '', /^fail: 1 suite of the baseline gone · 0 of 1 runs/);
    for (const [where, text] of Object.entries(reports(fixture.server, run))) {
      assert.match(
        text,
        /❌ \*\*Suite qa of the baseline is gone \(its gate there: regressions: block\):\*\* suite "qa" of the baseline is not in the config any more \("qa2" is new in the config: renamed\?\)/,
        `${where}:\n${text}`,
      );
      assert.match(text, /top-level removedSuites/, where);
      assert.doesNotMatch(text, /Not compared with a baseline/, where);
    }
  });

  // Under the baseline's regressions: warn the suite gone is a warning (goneSuiteWarnings):
  // beside the verdict in the comment, the job summary and the check run's output alike.
  it("under the baseline's warn, every report, the check run's too, says the suite gone", async () => {
    const files = passingSuite({ suite: 'qa' });
    const warn = (yaml: string | undefined): string =>
      (yaml ?? '').replace('regressions: block', 'regressions: warn');
    const old = workspace({ ...files, 'evals.yaml': warn(files['evals.yaml']) });
    const made = await runInProcess(['run', '-o', 'base.json'], old.dir);
    assert.equal(made.code, 0, made.stderr);
    const warnBase = readFileSync(join(old.dir, 'base.json'), 'utf8');
    const ws = workspace({ ...passingSuite({ suite: 'qa2' }), 'base.json': warnBase });
    const run = await fixture.run(ws, { baseline: 'base.json', report: 'false' });
    assert.equal(run.code, 0, run.stdout);
    for (const [where, text] of Object.entries(reports(fixture.server, run))) {
      assert.match(
        text,
        /⚠️ \*\*Suite qa of the baseline is gone \(a warning here\):\*\* suite "qa" of the baseline is not in the config any more/,
        `${where}:\n${text}`,
      );
    }
  });

  it('listed in removedSuites, the check run passes', async () => {
    const ws = workspace({
      ...passingSuite({ suite: 'qa2', top: 'removedSuites: [qa]\n' }),
      'base.json': base,
    });
    const run = await fixture.run(ws, { baseline: 'base.json', report: 'false' });
    assert.equal(run.code, 0, run.stdout);
    assert.equal(run.outputs['verdict'], 'pass');
  });
});
