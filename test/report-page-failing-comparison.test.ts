/**
 * The HTML report as a reviewer reads it after a pull request broke things: a real run against
 * a baseline where three answers turned wrong (an LLM judge, on a loopback server, says why in
 * its reason), two cases now error (their function throws, quoting the judge's API key), and one
 * case failed on both sides. Read in Chromium:
 * - the alarm's reasons are a list under a short lead, as the PR comment lists them;
 * - each newly failing case says why beside its name (the judge's reason, the error) and the
 *   key is nowhere in the page, its source included;
 * - a case's detail says it is newly failing (it passed in the baseline), which it did not: opened
 *   from the comparison's list, the detail read as any failure of the run; a case failing on
 *   both sides says nothing of the kind;
 * - in the list only a case's name is underlined as a link, not the dash and reason after it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openFilePage } from './helpers/browser.ts';
import { writeFiles } from './helpers/cli.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import {
  startOpenAiServer,
  type OpenAiServer,
  type RecordedRequest,
} from './helpers/openai-server.ts';

const KEY = 'sk-test-Qm4xR7vT2wP9sK3nL8dF6hJ1';
/** The function of each side: HEAD answers rows 0..2 wrong and throws on rows 3..4. */
const fn = (head: boolean): string =>
  [
    'export function fn({ testCase }) {',
    // Row 5 is wrong on both sides: failing, but not news.
    "  if (testCase.n === 5) return 'Nowhere';",
    head
      ? `  if (testCase.n === 3 || testCase.n === 4) throw new Error('upstream answered 503 (Authorization: Bearer ${KEY})');`
      : '',
    head ? "  if (testCase.n < 3) return 'Lyon';" : '',
    "  return 'Paris';",
    '}',
    '',
  ].join('\n');

let server: OpenAiServer | undefined;

/** The judge: `no` for a wrong answer, with a reason that quotes the key it was sent. */
function judge(request: RecordedRequest): { toolArguments: Record<string, unknown> } {
  const body = request.body as { messages: { content: string }[] };
  const prompt = body.messages.map((m) => m.content).join('\n');
  const sent = String(request.headers.authorization ?? '');
  return /Answer: Paris/.test(prompt)
    ? { toolArguments: { choice: 'yes', reason: 'Correct.' } }
    : {
        toolArguments: {
          choice: 'no',
          reason: `The answer names the wrong city, not the capital (${sent}).`,
        },
      };
}

let browser: Browser;
let dir = '';

before(async () => {
  server = await startOpenAiServer();
  server.setResponder(judge);
  browser = await launchBrowser();
  const rows = Array.from({ length: 12 }, (_, n) => ({ n, q: `capital ${n}` }));
  const suite = [
    'function: ./m.mjs#fn',
    'hash: [n]',
    'evaluators:',
    '  - { id: exact, use: is-equals, with: { expected: Paris } }',
    '  - id: helpful',
    '    use: llm-judge',
    '    with:',
    '      prompt: "Question: {{case.q}}\\nAnswer: {{output}}\\nRight?"',
    '      choices: { "yes": 1, "no": 0 }',
    '    threshold: { gte: 1 }',
    'gate: { minPassRate: 0.9 }',
  ];
  const top = [
    'defaults:',
    `  judge: { model: judge-model, baseUrl: "${server.url}", apiKey: ${KEY} }`,
  ];
  dir = jsonlProject(rows, suite, { 'm.mjs': fn(false) }, top);
  const base = await runInProcess(['run', '-o', 'base.json'], dir);
  assert.equal(base.code, 0, base.stderr);
  // A module of its own: this process imported m.mjs already, and would keep BASE's.
  const config = readFileSync(join(dir, 'evals.yaml'), 'utf8');
  writeFiles(dir, {
    'head.mjs': fn(true),
    'evals.yaml': config.replace('./m.mjs#fn', './head.mjs#fn'),
  });
  const head = await runInProcess(['run', '-o', 'head.json'], dir);
  assert.equal(head.code, 1, head.stderr);
  const report = await runInProcess(
    ['report', 'head.json', '--baseline', 'base.json', '-o', 'report.html'],
    dir,
  );
  assert.equal(report.code, 0, report.stderr);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

function openReport(): Promise<Page> {
  return openFilePage(browser, join(dir, 'report.html'), '#comparison', '#case-rows .case');
}

describe('a failing run against its baseline, read in the page', () => {
  it('lists the alarm, each case with why beside it, and the key nowhere', async () => {
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    assert.ok(!html.includes(KEY.slice(8)), 'the key is not in the page source');
    const page = await openReport();
    const part = page.locator('#comparison .newly-failing');
    assert.equal((await part.locator('h3').textContent())?.trim(), 'Newly failing (5)');
    assert.equal(await part.locator('.alarm-lead').textContent(), 's: an alarm because:');
    // Five flips of twelve are no significant drop: the gate is the one reason, an item.
    assert.deepEqual(await part.locator('.alarm-reasons li').allTextContents(), [
      'the grid point passed its gate in BASE and fails it now',
    ]);
    const items = await part.locator(':scope > ul > li').allTextContents();
    assert.equal(items.length, 5, JSON.stringify(items));
    const judged = items.filter((item) => item.includes('helpful 0 (needs'));
    assert.equal(judged.length, 3, JSON.stringify(items));
    for (const item of judged) assert.match(item, /The answer names the wrong city/);
    const errored = items.filter((item) => item.includes('error: upstream answered 503'));
    assert.equal(errored.length, 2, JSON.stringify(items));
    const text = (await page.textContent('body')) ?? '';
    assert.ok(!text.includes(KEY.slice(8)), 'the key is not in the page text');
    await page.close();
  });

  it('only the name of a listed case is underlined as a link', async () => {
    const page = await openReport();
    type Styled = { querySelector(s: string): Styled | null };
    type Styles = { getComputedStyle(node: Styled): { textDecorationLine: string } };
    const lines = await page
      .locator('#comparison .newly-failing .case-link >> nth=0')
      .evaluate((node: Styled) => {
        const styles = globalThis as unknown as Styles;
        const name = node.querySelector('.listed-name');
        return {
          item: styles.getComputedStyle(node).textDecorationLine,
          name: name === null ? '' : styles.getComputedStyle(name).textDecorationLine,
        };
      });
    assert.deepEqual(lines, { item: 'none', name: 'underline' });
    await page.close();
  });

  it("a newly failing case's detail says it passed in the baseline; one failing on both sides does not", async () => {
    const page = await openReport();
    const listed = page.locator('#comparison .newly-failing .case-link');
    // A failed one (a judge's reason) and an errored one.
    for (const [match, now] of [
      ['helpful 0', 'failed'],
      ['error: upstream', 'errored'],
    ] as const) {
      await listed.filter({ hasText: match }).first().click();
      await page.waitForSelector('#detail:not([hidden])');
      assert.equal(
        await page.textContent('#detail-newly-failing'),
        `Newly failing: passed in the baseline, ${now} now.`,
      );
      await page.keyboard.press('Escape');
    }
    // Row 5 failed in BASE too: its detail has no such line.
    await page.fill('#filter-search', 'capital 5');
    await page.locator('#case-rows .case.failed').first().click();
    await page.waitForSelector('#detail:not([hidden])');
    assert.match((await page.textContent('#detail')) ?? '', /capital 5/);
    assert.equal(await page.locator('#detail-newly-failing').count(), 0);
    await page.close();
  });
});
