/**
 * Bidirectional controls (U+202A-U+202E, U+2066-U+2069) in a case's inputs and output reorder
 * the text around them, so raw on the page an output could read as something it is not. The HTML
 * report shows each as `<U+202E>`; the artifact and the data the page embeds keep them as they are.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const RLO = '\u202e';
const QUESTION = `rename ${RLO}gpj.exe`;
const OUTPUT = `done: \u2066x\u2069 ${RLO}txt.exe`;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(
    [
      { __dedup_id__: 'c0', question: QUESTION, expected: 'done', output: OUTPUT },
      { __dedup_id__: 'c1', question: 'plain', expected: 'done', output: 'done' },
    ],
    ['evaluators:', "  - { id: exact, use: is-equals, with: { expected: '{{case.expected}}' } }"],
  );
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.equal(run.code, 1, run.stderr);
});

after(() => browser.close());

describe('bidirectional controls in the HTML report', () => {
  it('are shown as <U+XXXX> in the case detail, never raw', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
    await page.click('#case-rows .case[data-id="c0"]');
    await page.waitForSelector('#detail:not([hidden])');
    const output = (await page.textContent('#detail-output')) ?? '';
    assert.equal(output, 'done: <U+2066>x<U+2069> <U+202E>txt.exe');
    const diff = (await page.textContent('#detail-diff')) ?? '';
    assert.match(diff, /<U\+202E>txt\.exe/);
    const inputs = (await page.textContent('#detail .block pre')) ?? '';
    assert.match(inputs, /rename <U\+202E>gpj\.exe/);
    const shown = await page.innerText('body');
    assert.equal(BIDI.exec(shown)?.[0], undefined, 'a bidirectional control is shown raw');
    // The page searches the text as the artifact holds it.
    await page.fill('#filter-search', `${RLO}txt`);
    assert.equal(await page.textContent('#case-count'), '1 of 2 cases');
    await page.close();
  });

  it('leave the artifact and the data the page embeds unchanged', () => {
    const artifact = readFileSync(join(dir, 'results.json'), 'utf8');
    assert.ok(artifact.includes(OUTPUT), 'the artifact holds the output as the target gave it');
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    assert.doesNotMatch(html, /<U\+202E>/);
  });
});
