/**
 * QA round 5, in the HTML report in real chromium: each run's judge agreement (κ, accuracy) and
 * the κ row of the comparison are shown (D2), an evaluator row that lost scores in HEAD says so
 * with a warning (D1), and a partial shard merge is named so in the banner, not "interrupted" (D10).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, watchedPage } from './helpers/browser.ts';
import { agreementProject } from './helpers/agreement-project.ts';
import { runInProcess } from './helpers/in-process.ts';

let browser: Browser;

before(async () => {
  browser = await launchBrowser();
});

after(() => browser.close());

/**
 * 100 labelled rows; the judge agrees with the label on 95 of them with SIDE=base and 60 with
 * SIDE=head. With SIDE=head, rows 0..14 (`lose`) make it throw.
 */
function project(lose: boolean): string {
  return agreementProject({
    rows: 100,
    baseWrong: (i) => i < 5,
    headWrong: (i) => i >= 60,
    headThrows: (i) => lose && i < 15,
  });
}

async function reportPage(dir: string): Promise<Page> {
  for (const side of ['base', 'head']) {
    const run = await runInProcess(['run', '-o', `${side}.json`], dir, { SIDE: side });
    assert.ok(run.code === 0 || run.code === 1, run.stderr);
  }
  const written = await runInProcess(
    ['report', 'head.json', '--baseline', 'base.json', '-o', 'rep.html'],
    dir,
  );
  assert.equal(written.code, 0, written.stderr);
  const { page, errors } = await watchedPage(browser);
  await page.goto(pathToFileURL(join(dir, 'rep.html')).href);
  await page.waitForSelector('#comparison');
  assert.deepEqual(errors, []);
  return page;
}

describe('judge agreement in the page (D2)', () => {
  it("shows each run's κ and accuracy, and the comparison's κ row regressed", async () => {
    const page = await reportPage(project(false));
    const lines = await page.locator('#agreement li').allTextContents();
    assert.equal(lines.length, 1);
    assert.match(
      lines[0] ?? '',
      /judge vs human labels \(column human\): κ 0\.200 .*accuracy 60\.0%/,
    );
    const rows = await page.locator('#comparison tbody tr').allInnerTexts();
    const kappa = rows.find((row) => row.includes('judge agreement (κ)'));
    assert.ok(kappa !== undefined, rows.join('\n'));
    assert.match(kappa, /0\.900\s+0\.200\s+-0\.700/);
    assert.match(kappa, /regressed/);
    await page.close();
  });
});

describe('lost scores in the page (D1)', () => {
  it('the evaluator row says how many cases it paired and a warning counts the lost scores', async () => {
    const page = await reportPage(project(true));
    const rows = await page.locator('#comparison tbody tr').allInnerTexts();
    const judge = rows.find((row) => /\tjudge /.test(row));
    assert.ok(judge !== undefined, rows.join('\n'));
    assert.match(judge, /85 of 100 scored on both sides; 15 lost in HEAD: error or no score/);
    // First, that the verdict is the run's own: no suite here gates on regressions.
    const [verdict, ...warnings] = await page.locator('#comparison .warning').allTextContents();
    assert.match(verdict ?? '', /^The verdict is the run's own:/);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0] ?? '', /^HEAD lost scores .*15 scores BASE had are missing in HEAD/);
    await page.close();
  });
});

describe('a partial merge in the banner (D10)', () => {
  it('is called a partial merge, naming the shards merged', async () => {
    const dir = project(false);
    const shard = await runInProcess(['run', '--shard', '1/2', '-o', 's1.json'], dir, {
      SIDE: 'base',
    });
    assert.ok(shard.code === 0 || shard.code === 1, shard.stderr);
    const merged = await runInProcess(['merge', 's1.json', '--allow-partial', '-o', 'p.json'], dir);
    assert.equal(merged.code, 1, merged.stderr);
    const written = await runInProcess(['report', 'p.json', '-o', 'p.html'], dir);
    assert.equal(written.code, 0, written.stderr);
    const { page, errors } = await watchedPage(browser);
    await page.goto(pathToFileURL(join(dir, 'p.html')).href);
    const sentence = await page.locator('#verdict .sentence').textContent();
    assert.deepEqual(errors, []);
    assert.equal(
      sentence,
      'A partial merge: only shard 1 of 2 was merged, so the verdict is FAIL.',
    );
    await page.close();
  });
});
