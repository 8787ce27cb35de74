/**
 * The HTML report's case table says why a case did not pass in its row, without a click: the
 * case's error for one that errored, the failing evaluation with what it said for one that
 * failed, in the terminal summary's words; nothing for one that passed. A reason longer than the
 * cell is cut there, whole in the cell's tooltip and the detail, and the search finds it. The
 * rows keep their fixed height, which the virtualised table places them by, and a secret in a
 * reason stays scrubbed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';

let browser: Browser;
let dir = '';
let secretDir = '';
/** A secret by its variable's name, which an error and a reason both echo. */
const SECRET = 'sk-why-test-0123456789abcdefghij';
/** What the custom evaluator says of the `long` row: longer than the cell shows. */
const LONG_REASON = `the answer cites ${'a source that does not exist, '.repeat(8)}ending in zanzibar`;

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(
    [{ q: 'fine' }, { q: 'wrong' }, { q: 'throw' }, { q: 'long' }],
    [
      'function: ./m.mjs#fn',
      'evaluators:',
      '  - { id: exact, use: is-equals, with: { expected: ok } }',
      '  - { id: cites, use: ./ev.mjs#cites, threshold: { gte: 1 } }',
    ],
    {
      'm.mjs': [
        'export function fn({ testCase }) {',
        "  if (testCase.q === 'throw') throw new Error('upstream answered 503');",
        "  return testCase.q === 'wrong' ? 'nope' : 'ok';",
        '}',
        '',
      ].join('\n'),
      'ev.mjs': `export const cites = ({ testCase }) => testCase.q === 'long' ? { score: 0, metadata: { reason: ${JSON.stringify(LONG_REASON)} } } : { score: 1 };\n`,
    },
  );
  const run = await runInProcess(['run', '-o', 'results.json', '--report', 'report.html'], dir);
  assert.equal(run.code, 1, run.stderr);
  secretDir = jsonlProject(
    [{ q: 'throw' }, { q: 'judge' }],
    [
      'function: ./m.mjs#fn',
      'evaluators:',
      '  - { id: judge, use: ./ev.mjs#judge, threshold: { gte: 1 } }',
    ],
    {
      'm.mjs': `export function fn({ testCase }) { if (testCase.q === 'throw') throw new Error('key ${SECRET} refused'); return 'ok'; }\n`,
      // The secret past the 160 columns the row shows, so that the row's cut falls inside it.
      'ev.mjs': `export const judge = () => ({ score: 0, metadata: { reason: ${JSON.stringify(`${'x'.repeat(150)} ${SECRET} was echoed`)} } });\n`,
    },
  );
  const leaky = await runInProcess(
    ['run', '-o', 'results.json', '--report', 'report.html'],
    secretDir,
    { OPENAI_API_KEY: SECRET },
  );
  assert.equal(leaky.code, 1, leaky.stderr);
});

after(() => browser.close());

/** The report with the search set to `query`, which must leave one row. */
async function oneRow(query: string): Promise<Page> {
  const page = await openFilePage(browser, join(dir, 'report.html'), '#case-count');
  await page.fill('#filter-search', query);
  await page.waitForFunction(
    `document.getElementById('case-count').textContent.startsWith('1 of ')`,
  );
  return page;
}

describe('why a case did not pass, in its row', () => {
  it('shows a failed row its failing evaluation and what it said, without a click', async () => {
    const page = await oneRow('rows.jsonl:2');
    const cell = page.locator('#case-rows .case .why');
    assert.equal(await cell.textContent(), 'exact 0 (needs \u2265 1): expected "ok", got "nope"');
    assert.equal(await cell.getAttribute('title'), await cell.textContent());
    assert.equal(await page.locator('#detail:not([hidden])').count(), 0);
    await page.close();
  });

  it("shows an errored row the case's error, without a click", async () => {
    const page = await oneRow('rows.jsonl:3');
    const cell = page.locator('#case-rows .case .why');
    assert.equal(await cell.textContent(), 'error: upstream answered 503');
    assert.equal(await cell.getAttribute('title'), 'error: upstream answered 503');
    await page.close();
  });

  it('shows a passed row no reason', async () => {
    const page = await oneRow('rows.jsonl:1');
    const cell = page.locator('#case-rows .case .why');
    assert.equal(await cell.textContent(), '');
    assert.equal(await cell.getAttribute('title'), null);
    await page.close();
  });

  it('cuts a long reason in the row, keeps it whole in the tooltip and the detail, and finds it', async () => {
    // The search finds a word only the reason has.
    const page = await oneRow('zanzibar');
    const cell = page.locator('#case-rows .case .why');
    const whole = `cites 0 (needs \u2265 1): ${LONG_REASON}`;
    const shown = (await cell.textContent()) ?? '';
    assert.ok(shown.length < whole.length && shown.includes('\u2026'), shown);
    assert.ok(shown.startsWith('cites 0 (needs \u2265 1): the answer cites'), shown);
    assert.equal(await cell.getAttribute('title'), whole);
    // One line in a row of the table's fixed height.
    const row = await page.locator('#case-rows .case').boundingBox();
    const box = await cell.boundingBox();
    assert.equal(row?.height, 30);
    assert.ok(box !== null && box.height <= 30, JSON.stringify(box));
    await page.click('#case-rows .case >> nth=0');
    await page.waitForSelector('#detail:not([hidden])');
    assert.equal(await page.textContent('#detail-why'), whole);
    await page.close();
  });

  it('sorts by why, the rows that passed last', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#case-rows .case');
    await page.click('button[data-key="why"]');
    const whys = await page.locator('#case-rows .case .why').allTextContents();
    assert.deepEqual(
      whys.map((why) => why.split(' ')[0]),
      ['cites', 'error:', 'exact', ''],
    );
    await page.close();
  });

  it('keeps a secret in an error or a reason scrubbed, in the row, its tooltip and the page', async () => {
    assert.ok(!readFileSync(join(secretDir, 'report.html'), 'utf8').includes(SECRET));
    const page = await openFilePage(browser, join(secretDir, 'report.html'), '#case-rows .case');
    const cells = page.locator('#case-rows .case .why');
    assert.equal(await cells.count(), 2);
    for (const cell of await cells.all()) {
      const text = `${await cell.textContent()} ${await cell.getAttribute('title')}`;
      assert.ok(!text.includes(SECRET) && !text.includes(SECRET.slice(0, 12)), text);
    }
    const titles = await Promise.all(
      (await cells.all()).map(async (cell) => (await cell.getAttribute('title')) ?? ''),
    );
    assert.ok(titles.includes('error: key [redacted] refused'), titles.join(' | '));
    assert.ok(
      titles.some((title) => title.endsWith('[redacted] was echoed')),
      titles.join(' | '),
    );
    await page.close();
  });
});
