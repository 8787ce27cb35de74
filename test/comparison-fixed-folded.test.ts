/**
 * Fixed cases beside an alarm of newly failing ones, in the PR comment (and the job summary, the
 * same markdown) as cmark-gfm renders it and in the HTML report in real chromium: the newly
 * failing cases are listed open, bad news first; the fixed ones are good news a reviewer needs
 * counted, not read first, so every form shows their count open and folds their list under it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { writeFiles } from './helpers/cli.ts';
import { renderGfm } from './helpers/gfm.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { render } from './helpers/markdown-report.ts';

/** 40 rows: rows 0 and 1 fail in BASE and pass in HEAD; rows 2..16 pass in BASE and fail in HEAD. */
function rows(head: boolean): { n: number; output: string }[] {
  return Array.from({ length: 40 }, (_, n) => {
    const fails = head ? n >= 2 && n < 17 : n < 2;
    return { n, output: fails ? 'no idea' : `answer ${n}` };
  });
}

const SUITE = [
  'hash: [n]',
  'evaluators:',
  '  - { id: has-answer, use: contains, with: { values: [answer] } }',
  'gate: { minPassRate: 0 }',
];

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(rows(false), SUITE);
  assert.equal((await runInProcess(['run', '-o', 'base.json'], dir)).code, 0);
  writeFiles(dir, {
    'rows.jsonl': rows(true)
      .map((row) => JSON.stringify(row))
      .join('\n'),
  });
  const args = ['run', '-o', 'head.json', '--baseline', 'base.json', '--report', 'report.html'];
  const head = await runInProcess(args, dir);
  assert.equal(head.code, 0, head.stderr);
});

after(() => browser.close());

describe('fixed cases beside newly failing ones', () => {
  it('the PR comment lists the newly failing open and the fixed folded under their count', () => {
    const artifact = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as Parameters<
      typeof render
    >[0];
    const html = renderGfm(render(artifact));
    const newly = html.indexOf('<strong>Newly failing (15):</strong>');
    const folded = html.indexOf('<details><summary>Other case changes: 2 fixed</summary>');
    assert.ok(newly !== -1, html);
    assert.ok(folded !== -1, html);
    // The newly failing cases' table comes before any fold, outside it.
    const firstFold = html.indexOf('<details>');
    assert.ok(newly < firstFold, html);
    assert.ok(html.slice(newly, firstFold).includes('<code>rows.jsonl:3</code>'), html);
    // The fixed cases' table is inside the fold whose summary counts them.
    const end = html.indexOf('</details>', folded);
    const inside = html.slice(folded, end);
    assert.match(inside, /<p>Fixed \(2\):<\/p>/);
    assert.ok(inside.includes('<code>rows.jsonl:1</code>'), inside);
    assert.ok(inside.includes('<code>rows.jsonl:2</code>'), inside);
    assert.ok(!html.slice(0, folded).includes('Fixed (2)'), html);
  });

  it('the page lists the newly failing open and folds the fixed under their count', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#comparison');
    assert.equal(await page.locator('#comparison .newly-failing li').first().isVisible(), true);
    const fixed = page.locator('#comparison-changes .case-list[data-title="fixed"]');
    assert.equal(await fixed.evaluate((node: { tagName: string }) => node.tagName), 'DETAILS');
    assert.equal(await fixed.getAttribute('open'), null);
    assert.equal(await fixed.locator('summary').isVisible(), true);
    assert.equal((await fixed.locator('summary').textContent())?.trim(), 'fixed (2)');
    assert.equal(await fixed.locator('li').first().isVisible(), false);
    await fixed.locator('summary').click();
    const items = await fixed.locator('li').allTextContents();
    assert.deepEqual(
      items.map((item) => item.replace(/^.* · (rows\.jsonl:\d+)$/, '$1')),
      ['rows.jsonl:1', 'rows.jsonl:2'],
    );
    assert.equal(await fixed.locator('li').first().isVisible(), true);
    await page.close();
  });
});
