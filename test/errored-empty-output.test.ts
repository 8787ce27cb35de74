/**
 * A command that fails before writing to stdout errors its case and keeps its (empty) stdout as
 * the output. `evals show` and the HTML report's case detail say the output is empty rather than
 * leaving a blank, and the page draws no diff of what was expected against it: the evaluators
 * never ran. A real command; the page in real chromium.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage, textNow } from './helpers/browser.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(
    [{ q: 'a', expected: 'Paris' }],
    [
      'target:',
      '  type: command',
      '  run: [node, fail.cjs]',
      'evaluators:',
      '  - { id: exact, use: is-equals, with: { expected: "{{ case.expected }}" } }',
    ],
    { 'fail.cjs': "console.error('KeyError: paris');\nprocess.exit(3);\n" },
  );
  const r = await runInProcess(['run', '-o', 'r.json', '--report', 'r.html'], dir);
  assert.equal(r.code, 1, r.stderr + r.stdout);
  assert.equal(artifactCases(dir, 'r.json')[0]?.cases[0]?.output, '');
});

after(() => browser.close());

describe('an errored case whose output is empty', () => {
  it('evals show says the output is empty', async () => {
    const shown = await runInProcess(['show', 'r.json'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /\n {2}output {4}empty \(no characters\)\n {2}error:\n/);
  });

  it('the page says so, and draws no diff against what was expected', async () => {
    const id = artifactCases(dir, 'r.json')[0]?.cases[0]?.id ?? '';
    const page = await openFilePage(browser, join(dir, 'r.html'), '#case-count');
    await page.click(`#case-rows .case[data-id="${id}"]`);
    await page.waitForSelector('#detail:not([hidden])');
    assert.equal(await textNow(page, '#detail-output'), 'empty (no characters)');
    assert.equal(await textNow(page, '#detail-expected'), 'Paris');
    assert.equal(await page.$('#detail-diff'), null);
    await page.close();
  });
});
