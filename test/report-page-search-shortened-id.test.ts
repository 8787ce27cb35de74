/**
 * The case search of the HTML report finds a case by its id as the summary, the PR comment and
 * the page's own rows shorten it (`77f519fbc5f…`): pasted with its `…`, it found nothing.
 * Real chromium.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(
    [{ q: 'a' }, { q: 'b' }, { q: 'c' }],
    ['evaluators:', '  - { id: e, use: is-equals, with: { expected: a } }'],
  );
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.equal(run.code, 1, run.stderr);
});

after(() => browser.close());

describe('searching for a shortened case id', () => {
  it('an id with its … finds that case alone', async () => {
    const id = artifactCases(dir)[0]!.cases[2]!.id;
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
    await page.fill('#filter-search', `${id.slice(0, 12)}…`);
    await page.waitForFunction("document.querySelectorAll('#case-rows .case').length === 1", null, {
      timeout: 5000,
    });
    assert.equal(await page.getAttribute('#case-rows .case', 'data-id'), id);
    assert.equal(await page.textContent('#case-count'), '1 of 3 cases');
    await page.close();
  });
});
