/**
 * The HTML report cuts long values (an output in the case detail, inputs, the expected value and
 * what an evaluation compared) at 20,000 characters; a cut that falls inside an emoji (a
 * surrogate pair) keeps the emoji out whole, so the page never shows half of one as `�`.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

/** `a` then emoji, longer than 20,000 characters: the cut falls among emoji (two UTF-16 units each). */
const EMOJI = `a${'😀'.repeat(25_000)}`;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(
    [{ n: 1, question: EMOJI, expected: EMOJI, output: `${EMOJI}!` }],
    [
      'hash: [n]',
      'evaluators:',
      "  - { id: exact, use: is-equals, with: { expected: '{{case.expected}}' } }",
    ],
  );
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.equal(run.code, 1, run.stderr);
});

after(() => browser.close());

describe('a long value cut in the HTML report', () => {
  it('never splits an emoji: no half of a surrogate pair in the case detail', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
    await page.click('#case-rows .case >> nth=0');
    await page.waitForSelector('#detail:not([hidden])');
    for (const id of ['#detail-output', '#detail-expected', '#detail-diff']) {
      const text = (await page.textContent(id)) ?? '';
      assert.match(text, /more characters/, `${id} is cut`);
      assert.equal(LONE_SURROGATE.exec(text)?.index, undefined, `${id} has a lone surrogate`);
    }
    const inputs = (await page.textContent('#detail .block pre')) ?? '';
    assert.match(inputs, /more characters/);
    assert.equal(LONE_SURROGATE.exec(inputs)?.index, undefined, 'the inputs have a lone surrogate');
    await page.close();
  });
});
