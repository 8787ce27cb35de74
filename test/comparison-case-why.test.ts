/**
 * The comparison's case lists say why each case fails now, beside it: a reviewer no longer opens
 * each newly failing case to learn what went wrong. The same short reason in every form: the
 * terminal summary's words (`e 0 (needs ≥ 1): contains none of "answer"`), cut as the HTML case
 * table's rows cut it; in `evals compare`'s text, its markdown (the PR comment's tables, checked
 * on cmark-gfm's render) and the HTML page. A secret a reason echoed stays scrubbed: the reasons
 * are read from the artifact, scrubbed when it was written, and only cut after that.
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

const SECRET = 'sk-cmpwhy-0123456789abcdefghijkl';
/** What the custom evaluator says of row 2 in HEAD: the secret past the 160 columns shown. */
const LONG = `${'x'.repeat(150)} ${SECRET} was echoed`;
const WHY = 'e 0 (needs \u2265 1): contains none of "answer"';

const rows = (head: boolean): Record<string, unknown>[] =>
  Array.from({ length: 12 }, (_, n) => ({
    n,
    output: head && n < 2 ? 'no idea' : head && n === 2 ? 'answer, long' : `answer ${n}`,
  }));

const SUITE = [
  'hash: [n]',
  'evaluators:',
  '  - { id: e, use: contains, with: { values: [answer] } }',
  '  - { id: judge, use: ./ev.mjs#judge, threshold: { gte: 1 } }',
];

let browser: Browser;
let dir = '';
let text = '';
let markdown = '';

before(async () => {
  browser = await launchBrowser();
  const files = {
    'ev.mjs': `export const judge = ({ output }) => output === 'answer, long' ? { score: 0, metadata: { reason: ${JSON.stringify(LONG)} } } : { score: 1 };\n`,
  };
  const env = { OPENAI_API_KEY: SECRET };
  dir = jsonlProject(rows(false), SUITE, files);
  assert.equal((await runInProcess(['run', '-o', 'base.json'], dir, env)).code, 0);
  writeFiles(dir, {
    'rows.jsonl': `${rows(true)
      .map((row) => JSON.stringify(row))
      .join('\n')}\n`,
  });
  assert.equal((await runInProcess(['run', '-o', 'head.json'], dir, env)).code, 1);
  const compared = await runInProcess(['compare', 'base.json', 'head.json'], dir, {
    COLUMNS: '200',
  });
  text = compared.stdout;
  markdown = (await runInProcess(['compare', 'base.json', 'head.json', '--format', 'md'], dir))
    .stdout;
  const report = await runInProcess(
    ['report', 'head.json', '--baseline', 'base.json', '-o', 'report.html'],
    dir,
  );
  assert.equal(report.code, 0, report.stderr);
});

after(() => browser.close());

/** No part of the secret that a cut before the scrub could have left. */
function noSecret(shown: string): void {
  assert.ok(!shown.includes(SECRET.slice(0, 10)), shown);
}

describe('why each listed case fails now', () => {
  it('evals compare says it beside each newly failing case, the long one cut', () => {
    const lines = text.split('\n');
    const heading = lines.findIndex((line) => line.trim().startsWith('newly failing (3'));
    assert.ok(heading !== -1, text);
    const listed = lines.slice(heading + 1).filter((line) => /rows\.jsonl:\d/.test(line));
    assert.match(
      listed[0] ?? '',
      / rows\.jsonl:1 {2}e 0 \(needs ≥ 1\): contains none of "answer"$/,
    );
    assert.match(
      listed[1] ?? '',
      / rows\.jsonl:2 {2}e 0 \(needs ≥ 1\): contains none of "answer"$/,
    );
    const long = listed[2] ?? '';
    assert.match(long, / rows\.jsonl:3 {2}judge 0 \(needs ≥ 1\): x+…/);
    // Within the terminal: COLUMNS=200.
    assert.ok(long.length <= 200, long);
    noSecret(text);
  });

  it('in a narrow terminal, says it on the line under the case, cut to the width', async () => {
    const narrow = await runInProcess(['compare', 'base.json', 'head.json'], dir, {
      COLUMNS: '60',
    });
    const lines = narrow.stdout.split('\n');
    const at = lines.findIndex((line) => / rows\.jsonl:1$/.test(line));
    assert.ok(at !== -1, narrow.stdout);
    assert.equal(lines[at + 1], `      ${WHY}`);
    const long = lines[lines.findIndex((line) => / rows\.jsonl:3$/.test(line)) + 1] ?? '';
    // No quoted value in it: cut in its middle, as the summary cuts such a reason.
    assert.ok(long.startsWith('      judge 0') && long.includes('…') && long.length <= 60, long);
    noSecret(narrow.stdout);
  });

  it('the PR comment says it in the same words, in its table, within the cell', () => {
    const html = renderGfm(markdown);
    const cells = [...html.matchAll(/<td align="left">([^<]*)<\/td>\n<\/tr>/g)].map(
      (m) => m[1] ?? '',
    );
    assert.ok(cells.includes(WHY.replace('"', '&quot;').replace('"', '&quot;')), html);
    const long = cells.find((cell) => cell.startsWith('judge 0 (needs ≥ 1): x'));
    assert.ok(long !== undefined && long.includes('…'), html);
    // Cut as the page's rows cut it: 160 columns at most.
    assert.ok(long.length <= 160, long);
    noSecret(markdown);
  });

  it('the HTML page says it beside each listed case, whole in its tooltip', async () => {
    const page = await openFilePage(browser, join(dir, 'report.html'), '#comparison');
    const whys = page.locator('#comparison li .why');
    const shown = await whys.allTextContents();
    assert.deepEqual(shown.slice(0, 2), [WHY, WHY]);
    const long = shown[2] ?? '';
    assert.ok(long.startsWith('judge 0 (needs ≥ 1): x') && long.includes('…'), long);
    const title = (await whys.nth(2).getAttribute('title')) ?? '';
    assert.equal(title, `judge 0 (needs ≥ 1): ${LONG.replace(SECRET, '[redacted]')}`);
    noSecret(readFileSync(join(dir, 'report.html'), 'utf8'));
    await page.close();
  });
});
