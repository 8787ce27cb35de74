/**
 * The HTML report's `<title>` (`evalgate report: CONFIG`) shows a bidirectional control in the
 * config's name as `<U+202E>`, as the rest of the page does: raw in the tab and the window list
 * it would reorder the name around it. Real CLI processes and a real Chromium.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';

const CONFIG = 'evals\u202elmay.yaml';
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = scratch();
  writeFiles(dir, {
    [CONFIG]: [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset:',
      '      cases:',
      '        - { __dedup_id__: c0, output: done }',
      '    evaluators:',
      '      - { id: exact, use: is-equals, with: { expected: done } }',
      '',
    ].join('\n'),
  });
  const run = await runCli(['run', CONFIG, '-o', 'results.json', '--report', 'report.html'], {
    cwd: dir,
  });
  assert.equal(run.code, 0, run.stderr);
});

after(() => browser.close());

describe('a bidirectional control in the HTML report title', () => {
  it('is shown as <U+XXXX>, never raw', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
    const title = await page.evaluate<string>('document.title');
    assert.equal(title, 'evalgate report: evals<U+202E>lmay.yaml');
    assert.equal(BIDI.exec(title)?.[0], undefined, 'a bidirectional control is in the title raw');
    await page.close();
  });
});
