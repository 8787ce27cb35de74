/**
 * The report page's case detail shows the baseline's own warnings where it shows the baseline's
 * result of a changed case (newly failing, fixed), in real chromium: BASE's output held an integer
 * past 2^53 (read as another number), HEAD's did not, so only the baseline's side says so.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { writeFiles } from './helpers/cli.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';

const BIG = '12345678901234567891';
const READ_AS = '12345678901234567000';

/**
 * `{"ok": "yes"|"no", "id": …}`: in BASE row 0 passes and row 1 fails, both answering the big id;
 * in HEAD row 0 fails and row 1 passes, both answering 7.
 */
const SCRIPT = `const fs = require('node:fs');
const mode = fs.readFileSync(require('node:path').join(__dirname, 'mode.txt'), 'utf8').trim();
const n = process.argv[2];
const ok = mode === 'base' ? n !== '1' : n !== '0';
const id = mode === 'base' && n !== '2' ? '${BIG}' : '7';
process.stdout.write('{"ok": "' + (ok ? 'yes' : 'no') + '", "id": ' + id + '}');
`;

let browser: Browser;
let dir = '';
let ids: string[] = [];

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(
    [{ n: 0 }, { n: 1 }, { n: 2 }],
    [
      'hash: [n]',
      'target:',
      '  type: command',
      "  run: [node, m.cjs, '{{ case.n }}']",
      '  output: json',
      'evaluators:',
      "  - { id: ok, use: is-equals, with: { expected: 'yes', actual: '{{ output.ok }}' } }",
      'gate: { minPassRate: 0 }',
    ],
    { 'm.cjs': SCRIPT, 'mode.txt': 'base\n' },
  );
  const base = await runInProcess(['run', '-o', 'base.json', '--no-cache'], dir);
  assert.equal(base.code, 0, base.stderr);
  writeFiles(dir, { 'mode.txt': 'head\n' });
  const args = ['run', '-o', 'head.json', '--no-cache', '--baseline', 'base.json'];
  const head = await runInProcess([...args, '--report', 'run.html'], dir);
  assert.equal(head.code, 0, head.stderr);
  ids = artifactCases(dir, 'head.json')[0]?.cases.map((c) => c.id) ?? [];
});

after(() => browser.close());

async function openCase(id: string): Promise<Page> {
  const page = await openFilePage(browser, join(dir, 'run.html'), '#case-count');
  await page.click(`#case-rows .case[data-id="${id}"]`);
  await page.waitForSelector('#detail:not([hidden])');
  return page;
}

function texts(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (nodes: { textContent: string | null }[]) =>
    nodes.map((n) => n.textContent ?? ''),
  );
}

describe("the baseline's warnings in a changed case's detail", () => {
  for (const [row, what] of [
    [0, 'a newly failing case'],
    [1, 'a fixed case'],
  ] as const) {
    it(`${what} shows the warning BASE's output carried, and none for HEAD's`, async () => {
      const page = await openCase(ids[row] ?? '');
      assert.ok((await page.$('#detail-base')) !== null, 'the baseline part is shown');
      const warnings = await texts(page, '#detail .detail-base-warning');
      assert.equal(warnings.length, 1, warnings.join('\n'));
      assert.match(
        warnings[0] ?? '',
        new RegExp(`^Warning in BASE: the output holds ${BIG}, .* read as ${READ_AS}`),
      );
      // HEAD's output held no big integer: no warning of its own.
      assert.deepEqual(await texts(page, '#detail .detail-warning'), []);
      await page.close();
    });
  }

  it('an unchanged case shows no baseline warning', async () => {
    const page = await openCase(ids[2] ?? '');
    assert.equal(await page.$('#detail .detail-base-warning'), null);
    await page.close();
  });
});
