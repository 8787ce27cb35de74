/**
 * The case search of the HTML report finds text of an output that is an object (a JSON answer)
 * as it is written, quotes and backslashes included: the page holds such an output as JSON, where
 * `Use "Forgot password"` reads `Use \"Forgot password\"`, so searching for the text itself found
 * nothing although the output holds it. An output that is a string is still searched as written.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const rows = [
  { n: 1, output: { reply: 'Use "Forgot password" and we will email you.' } },
  { n: 2, output: { path: 'C:\\Users\\me\\notes.txt' } },
  { n: 3, output: 'She said "hello" to C:\\temp' },
  { n: 4, output: { reply: 'Nothing to see here.' } },
];

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(rows, [
    'hash: [n]',
    'evaluators:',
    '  - { id: any, use: length, with: { min: 1 } }',
  ]);
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.notEqual(run.code, 2, run.stderr);
});

after(() => browser.close());

describe('the report search finds quoted text in an output', () => {
  it('matches the text of an object output, not only its JSON escaping', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
    const found = async (query: string): Promise<string | null> => {
      await page.fill('#filter-search', query);
      return page.textContent('#case-count');
    };
    assert.equal(await found('Use "Forgot password"'), '1 of 4 cases');
    assert.equal(await found('C:\\Users\\me'), '1 of 4 cases');
    assert.equal(await found('said "hello" to C:\\temp'), '1 of 4 cases');
    // What the detail shows of an object output still matches, escapes and all.
    assert.equal(await found('Use \\"Forgot'), '1 of 4 cases');
    assert.equal(await found('"reply"'), '2 of 4 cases');
    await page.close();
  });
});
