/**
 * A model call retried (a 500, then an answer) is why a case was slow; the artifact records it
 * as the usage's `retries`, and the summary, `evals show` and the HTML report's case detail say
 * so beside the calls (`model calls: 1 · retries: 1 · …`), for a case that passed and one that
 * failed after its last attempt alike. A real loopback server, the page in real chromium.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage, textNow } from './helpers/browser.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/** Requests seen per question: `a` fails once then answers, `b` always fails. */
const seen = new Map<string, number>();

const server = useLoopbackServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString()));
  req.on('end', () => {
    const q = body.includes('question a') ? 'a' : 'b';
    const n = (seen.get(q) ?? 0) + 1;
    seen.set(q, n);
    if (q === 'b' || n === 1) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"busy"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        choices: [{ message: { role: 'assistant', content: 'Paris' } }],
        usage: { prompt_tokens: 5, completion_tokens: 1 },
      }),
    );
  });
});

let browser: Browser;
let dir = '';
let summary = '';

before(async () => {
  browser = await launchBrowser();
  dir = jsonlProject(
    [{ q: 'a' }, { q: 'b' }],
    [
      'target:',
      '  type: model',
      '  model: m',
      `  baseUrl: ${server.base}/v1`,
      '  apiKey: local',
      '  maxRetries: 1',
      '  prompt: "question {{ case.q }}"',
    ],
  );
  const r = await runInProcess(['run', '--no-cache', '-o', 'r.json', '--report', 'r.html'], dir);
  assert.equal(r.code, 1, r.stderr + r.stdout);
  summary = r.stdout;
});

after(() => browser.close());

describe('retried model calls', () => {
  it('the summary counts them beside the calls', () => {
    assert.match(summary, /model calls: 2 · retries: 2 · tokens: 5 prompt \+ 1 completion · /);
  });

  it('evals show says so for the case that passed after one, and the one that failed after one', async () => {
    const shown = await runInProcess(['show', 'r.json'], dir);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(
      shown.stdout,
      /\n {2}model calls: 1 · retries: 1 · tokens: 5 prompt \+ 1 completion · /,
    );
    assert.match(shown.stdout, /\n {2}model calls: 1 · retries: 1 · tokens: none reported · /);
  });

  it("the page's case detail says so", async () => {
    const passed = artifactCases(dir, 'r.json')[0]?.cases.find((c) => c.passed);
    assert.ok(passed !== undefined);
    const page = await openFilePage(browser, join(dir, 'r.html'), '#case-count');
    await page.click(`#case-rows .case[data-id="${passed.id}"]`);
    await page.waitForSelector('#detail:not([hidden])');
    assert.match(
      await textNow(page, '#detail-usage'),
      /^model calls: 1 · retries: 1 · tokens: 5 prompt/,
    );
    await page.close();
  });
});
