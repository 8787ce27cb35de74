/**
 * The case detail's diff and the case search, in the HTML report in real chromium:
 * - the diff sets the expected value against what the evaluation compared (a field of the
 *   output, `actual: "{{output.answer}}"`), whole even when the evaluator's record of it was cut,
 *   and its heading says which; without such a record it is against the whole output, and says so
 *   (QA D3);
 * - the search covers the whole output, also past what the detail shows, and the page says so
 *   by the search box (QA D6).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openFilePage, textNow } from './helpers/browser.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

const REASONING = 'Because the question names a country, I looked up its capital city.';
/** Past the 500 characters an evaluator keeps of a value in its metadata. */
const LONG_ANSWER = `${'The capital is not in doubt. '.repeat(25)}It is Lyon.`;
/** Far past the 20,000 characters the detail shows and the 4,000 the search once read. */
const LATE_WORD = 'zanzibarite';
const LONG_OUTPUT = `${'filler text that says nothing. '.repeat(1200)}${LATE_WORD}`;

const rows = [
  { n: 1, expected: 'Paris', output: { answer: 'Lyon', reasoning: REASONING } },
  { n: 2, expected: 'Paris', output: { answer: 'Paris', reasoning: REASONING } },
  { n: 3, expected: 'Paris', output: { answer: LONG_ANSWER, reasoning: REASONING } },
  { n: 4, expected: 'Rome', output: { answer: LONG_OUTPUT, reasoning: REASONING } },
];

let browser: Browser;
let dir = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(rows, [
    'hash: [n]',
    'evaluators:',
    '  - id: exact',
    '    use: is-equals',
    "    with: { expected: '{{case.expected}}', actual: '{{output.answer}}' }",
  ]);
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.equal(run.code, 1, run.stderr);
});

after(() => browser.close());

function openReport(): Promise<Page> {
  return openFilePage(browser, join(dir, 'report.html'), '#case-count');
}

/** Opens the detail of the case at source line `line` (rows.jsonl:line). */
async function openCase(page: Page, line: number): Promise<void> {
  await page.fill('#filter-search', `rows.jsonl:${line}`);
  assert.equal(await page.textContent('#case-count'), '1 of 4 cases');
  await page.click('#case-rows .case >> nth=0');
  await page.waitForSelector('#detail:not([hidden])');
}

describe('the diff of a case (D3)', () => {
  it('is against the output field the evaluation compared, and says so', async () => {
    const page = await openReport();
    await openCase(page, 1);
    assert.equal(await page.textContent('#detail-diff'), 'ParisLyon');
    assert.equal(await page.textContent('#detail-diff del'), 'Paris');
    assert.equal(await page.textContent('#detail-diff ins'), 'Lyon');
    assert.equal(
      await textNow(page, '#detail-diff-title'),
      'Expected vs output.answer (what exact compared)',
    );
    // The whole output is still shown above, reasoning and all.
    assert.match((await page.textContent('#detail-output')) ?? '', /looked up its capital/);
    await page.close();
  });

  it('uses the whole field when the evaluation recorded only its first 500 characters', async () => {
    const page = await openReport();
    await openCase(page, 3);
    const diff = (await page.textContent('#detail-diff')) ?? '';
    assert.doesNotMatch(diff, /reasoning|looked up/);
    assert.ok(diff.endsWith('It is Lyon.'), diff.slice(-80));
    assert.doesNotMatch(diff, /more characters/);
    assert.equal(
      await textNow(page, '#detail-diff-title'),
      'Expected vs output.answer (what exact compared)',
    );
    await page.close();
  });

  it('is against the whole output when no evaluation recorded what it compared', async () => {
    // Case 2 passed: is-equals records nothing, so the data's `expected` is set against the output.
    const page = await openReport();
    await openCase(page, 2);
    assert.equal(await textNow(page, '#detail-diff-title'), 'Expected vs the whole output');
    assert.equal(await page.textContent('#detail-expected'), 'Paris');
    await page.close();
  });
});

describe('the case search (D6)', () => {
  it('finds a word past the first 20,000 characters of an output', async () => {
    const page = await openReport();
    await page.fill('#filter-search', LATE_WORD);
    assert.equal(await page.textContent('#case-count'), '1 of 4 cases');
    await page.click('#case-rows .case >> nth=0');
    await page.waitForSelector('#detail:not([hidden])');
    // The detail shows the start, and says the rest is there for the search.
    const output = (await page.textContent('#detail-output')) ?? '';
    assert.ok(output.length < LONG_OUTPUT.length);
    assert.match(output, /more characters, which the search covers/);
    // By the search box, the page says what the search reads.
    assert.match(
      (await page.textContent('#cases')) ?? '',
      /The search covers the id, label, source line, error, why it did not pass and the whole output of each case\./,
    );
    await page.close();
  });
});
