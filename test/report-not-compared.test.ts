/**
 * A baseline was given and the run was not compared with it (it shares no case with the run, or
 * the Action's `baseline: auto` found none): the run passes, so the terminal summary and the HTML
 * report must say, next to their verdict, that regressions were not checked and why, as the
 * Action's comment, job summary and check run do. A run that was compared says nothing of it.
 * The page is read in a real headless Chromium.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { runAction, sourceCheckout } from './helpers/action-run.ts';
import { launchBrowser, openFilePage, textNow } from './helpers/browser.ts';
import { startGitHubServer } from './helpers/github-server.ts';
import { runInProcess } from './helpers/in-process.ts';
import { notComparedNote, renamedRows, reports } from './helpers/uncompared-baseline.ts';

/** The report model a page carries. */
function model(file: string): { verdict: string; notCompared: string | null } {
  const html = readFileSync(file, 'utf8');
  const data = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html);
  assert.ok(data?.[1], 'the page holds its model');
  return JSON.parse(data[1]) as { verdict: string; notCompared: string | null };
}

describe('reports of a run not compared with the baseline it was given', () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(() => browser.close());

  it('evals run --baseline sharing no case: the summary and the page say so under the verdict', async () => {
    const { ws } = await renamedRows();
    const run = await runInProcess(
      ['run', '--baseline', 'base.json', '--report', 'r.html', '-o', 'head.json'],
      ws.dir,
    );
    assert.equal(run.code, 0, `a pass, not a block on an empty comparison\n${run.stderr}`);
    const verdictAt = run.stdout.indexOf('PASS  1 run passed');
    const noteAt = run.stdout.indexOf(
      'warning: not compared with a baseline, so regressions were not checked: no common cases between base.json and this run',
    );
    assert.ok(verdictAt >= 0 && noteAt > verdictAt, `the note follows the verdict:\n${run.stdout}`);

    const file = join(ws.dir, 'r.html');
    const { verdict, notCompared } = model(file);
    assert.equal(verdict, 'pass');
    assert.match(
      notCompared ?? '',
      /^Not compared with a baseline, so regressions were not checked: no common cases between base\.json and this run: .*shares no case id\.$/,
    );

    const page = await openFilePage(browser, file, '#verdict', '#not-compared');
    const shown = await textNow(page, '#not-compared');
    assert.match(
      shown,
      /Not compared with a baseline, so regressions were not checked: no common cases/,
    );
    assert.ok(await page.isVisible('#not-compared'));
    // Right under the verdict, before the grid: where the eye goes after PASS.
    const order = await page.$$eval('#app > *', (nodes: { id: string }[]) =>
      nodes.slice(0, 2).map((node) => node.id),
    );
    assert.deepEqual(order, ['verdict', 'not-compared']);
    await page.close();

    // The artifact records it (valid: `evals report` reads it back), so later reports say it too.
    const artifact = JSON.parse(readFileSync(join(ws.dir, 'head.json'), 'utf8')) as {
      notCompared?: { baseline: string; why: string };
    };
    assert.equal(artifact.notCompared?.baseline, 'base.json');
    assert.match(
      artifact.notCompared?.why ?? '',
      /^no common cases between base\.json and this run/,
    );
    const later = await runInProcess(['report', 'head.json', '-o', 'later.html'], ws.dir);
    assert.equal(later.code, 0, later.stderr);
    assert.equal(model(join(ws.dir, 'later.html')).notCompared, notCompared);
    // Compared now, with a baseline that shares its cases: the old news is not repeated.
    assert.equal((await runInProcess(['run', '-o', 'same.json'], ws.dir)).code, 0);
    const compared = await runInProcess(
      ['report', 'head.json', '--baseline', 'same.json', '-o', 'compared.html'],
      ws.dir,
    );
    assert.equal(compared.code, 0, compared.stderr);
    assert.equal(model(join(ws.dir, 'compared.html')).notCompared, null);
  });

  it('evals merge --baseline sharing no case: its summary says so under the verdict', async () => {
    const { ws } = await renamedRows();
    for (const shard of ['1/2', '2/2']) {
      const run = await runInProcess(['run', '--shard', shard, '-o', `s${shard[0]}.json`], ws.dir);
      assert.equal(run.code, 0, run.stderr);
    }
    const merge = await runInProcess(
      ['merge', 's1.json', 's2.json', '-o', 'm.json', '--baseline', 'base.json'],
      ws.dir,
    );
    assert.equal(merge.code, 0, merge.stderr);
    const verdictAt = merge.stdout.indexOf('PASS  1 run passed');
    const noteAt = merge.stdout.indexOf(
      'warning: not compared with a baseline, so regressions were not checked: no common cases between base.json',
    );
    assert.ok(
      verdictAt >= 0 && noteAt > verdictAt,
      `the note follows the verdict:\n${merge.stdout}`,
    );
    const merged = JSON.parse(readFileSync(join(ws.dir, 'm.json'), 'utf8')) as {
      notCompared?: { baseline: string };
    };
    assert.equal(merged.notCompared?.baseline, 'base.json');
  });

  it('a run compared with its baseline: no such note anywhere', async () => {
    const { ws } = await renamedRows();
    assert.equal((await runInProcess(['run', '-o', 'first.json'], ws.dir)).code, 0);
    const run = await runInProcess(
      ['run', '--baseline', 'first.json', '--report', 'r.html', '-o', 'head.json'],
      ws.dir,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout + run.stderr, /not compared/i);
    assert.equal(model(join(ws.dir, 'r.html')).notCompared, null);
    const page = await openFilePage(browser, join(ws.dir, 'r.html'), '#verdict', '#cases');
    assert.equal(await page.$('#not-compared'), null);
    await page.close();
  });

  it('no --baseline at all: nothing was asked, nothing is said', async () => {
    const { ws } = await renamedRows();
    const run = await runInProcess(['run', '--report', 'r.html', '-o', 'head.json'], ws.dir);
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stdout + run.stderr, /not compared/i);
    assert.equal(model(join(ws.dir, 'r.html')).notCompared, null);
  });

  it("the Action's mode: report of results that were not compared: the comment says so", async () => {
    const server = await startGitHubServer();
    try {
      const { ws } = await renamedRows();
      const made = await runInProcess(
        ['run', '--baseline', 'base.json', '-o', 'evals-results.json'],
        ws.dir,
      );
      assert.equal(made.code, 0, made.stderr);
      const run = await runAction(sourceCheckout(), ws, server, {
        mode: 'report',
        results: 'evals-results.json',
      });
      assert.equal(run.code, 0, run.stdout);
      for (const [where, text] of Object.entries(reports(server, run))) {
        assert.match(
          notComparedNote(text),
          /regressions were not checked: no common cases between base\.json and this run/,
          `${where}:\n${text}`,
        );
      }
    } finally {
      await server.close();
    }
  });

  it("the Action's baseline: auto finding no artifact: its HTML report says so too", async () => {
    const server = await startGitHubServer();
    try {
      const { ws } = await renamedRows();
      const run = await runAction(sourceCheckout(), ws, server, { baseline: 'auto' });
      assert.equal(run.code, 0, run.stdout);
      const file = join(ws.dir, 'evals-report.html');
      assert.ok(existsSync(file), run.stdout);
      assert.match(
        model(file).notCompared ?? '',
        /^Not compared with a baseline, so regressions were not checked: .*no results artifact named evals-results from main yet/,
      );
      assert.match(run.stdout, /warning: not compared with a baseline/);
    } finally {
      await server.close();
    }
  });
});
