/**
 * A case records what its target sent (`sent`), scrubbed, and `evals show` and the HTML report
 * show it beside what came back: a model target's messages as rendered, an http target's request
 * line and body (not its headers), a command's arguments; for an errored case too. Real loopback
 * servers (an OpenAI-compatible one and a plain HTTP one), a real command, the page in chromium.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFilePage, textNow } from './helpers/browser.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { artifactCases, runInProcess } from './helpers/in-process.ts';
import { startOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

const MODEL_KEY = 'sk-model-Q7w8e9r0t1y2u3';
const HTTP_KEY = 'tok-http-Z1x2c3v4b5n6m7';
const ENV = { MODEL_KEY, HTTP_KEY };

let ai: OpenAiServer;
let http: Server;
let browser: Browser;
let dir = '';
let httpUrl = '';
let run = { code: -1, stdout: '', stderr: '' };

before(async () => {
  browser = await launchBrowser();
  ai = await startOpenAiServer();
  // France answered wrong, Spain a 500 (retried once, then the case errors), the rest right.
  ai.setResponder((request) => {
    if (request.text.includes('Spain'))
      return { status: 500, body: { error: { message: 'down' } } };
    return { content: request.text.includes('France') ? 'Lyon' : 'Berlin' };
  });
  http = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { answer: body.includes('France') ? 'Lyon' : 'Berlin' } }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  httpUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/ask`;
  dir = scratch();
  const evaluators = [
    '    evaluators:',
    '      - { id: exact, use: is-equals, with: { expected: "{{ case.expected }}" } }',
  ];
  writeFiles(dir, {
    'q.csv': 'country,expected\nFrance,Paris\nGermany,Berlin\nSpain,Madrid\n',
    'agent.cjs':
      "process.stdout.write(process.argv[2] === 'France' ? 'Lyon' : process.argv[2] === 'Germany' ? 'Berlin' : 'Madrid');\n",
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: model',
      '    testset: { path: q.csv }',
      '    target:',
      '      type: model',
      '      model: m1',
      `      baseUrl: ${ai.url}`,
      '      apiKey: "${MODEL_KEY}"',
      '      maxRetries: 1',
      '      messages:',
      '        - { role: system, content: "Answer with a city. (key ${MODEL_KEY})" }',
      '        - { role: user, content: "What is the capital of {{ case.country }}?" }',
      ...evaluators,
      '  - id: http',
      '    testset: { path: q.csv }',
      '    target:',
      '      type: http',
      `      url: ${httpUrl}`,
      '      headers: { Authorization: "Bearer ${HTTP_KEY}" }',
      '      body: { q: "capital of {{ case.country }}" }',
      '      output: data.answer',
      ...evaluators,
      '  - id: cmd',
      '    testset: { path: q.csv }',
      '    target:',
      '      type: command',
      "      run: [node, agent.cjs, '{{ case.country }}']",
      ...evaluators,
    ].join('\n'),
  });
  run = await runInProcess(['run', '--no-cache', '--report', 'page.html'], dir, ENV);
});

after(async () => {
  await browser.close();
  await ai.close();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

/** `sent` of each case of the run of `suite`, by country. */
function sentBySuite(suite: number): Record<string, unknown> {
  const cases = artifactCases(dir, 'evals-results.json')[suite]?.cases ?? [];
  return Object.fromEntries(
    cases.map((c) => [String(c.data.country), (c as { sent?: unknown }).sent]),
  );
}

describe('what a case sent', () => {
  it('the artifact records it per target, scrubbed, for an errored case too', () => {
    assert.equal(run.code, 1, run.stderr);
    const model = sentBySuite(0);
    assert.equal(
      model.France,
      'model: m1\n\n[system]\nAnswer with a city. (key [redacted])\n\n[user]\nWhat is the capital of France?',
    );
    // The 500 errored the case: what it asked is still there.
    assert.match(String(model.Spain), /\[user\]\nWhat is the capital of Spain\?$/);
    assert.deepEqual(sentBySuite(1), {
      France: `POST ${httpUrl}\n\n{"q":"capital of France"}`,
      Germany: `POST ${httpUrl}\n\n{"q":"capital of Germany"}`,
      Spain: `POST ${httpUrl}\n\n{"q":"capital of Spain"}`,
    });
    assert.deepEqual(sentBySuite(2), {
      France: 'node agent.cjs France',
      Germany: 'node agent.cjs Germany',
      Spain: 'node agent.cjs Spain',
    });
    const text = readFileSync(join(dir, 'evals-results.json'), 'utf8');
    assert.ok(!text.includes(MODEL_KEY) && !text.includes(HTTP_KEY), 'a secret is in the artifact');
  });

  it('evals show --failed prints it before the output, and before the error', async () => {
    const r = await runInProcess(
      ['show', 'evals-results.json', '--failed', '--suite', 'model'],
      dir,
      ENV,
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /\n {2}sent:\n {4}model: m1\n {4}\n {4}\[system\]\n {4}Answer with a city\. \(key \[redacted\]\)\n {4}\n {4}\[user\]\n {4}What is the capital of France\?\n {2}output {4}Lyon\n/,
    );
    assert.match(r.stdout, /\[user\]\n {4}What is the capital of Spain\?\n {2}error:\n {4}POST /);
  });

  it("the page shows it in a failing case's detail, and not for a passing case", async () => {
    const cases = artifactCases(dir, 'evals-results.json');
    const failing = cases[1]?.cases.find((c) => c.data.country === 'France');
    const passing = cases[1]?.cases.find((c) => c.data.country === 'Germany');
    assert.ok(failing !== undefined && passing !== undefined);
    const page = await openFilePage(browser, join(dir, 'page.html'), '#case-count');
    // The http suite's run only: the three suites share their case ids.
    await page.selectOption('#filter-run', '1');
    await page.click(`#case-rows .case[data-id="${failing.id}"]`);
    await page.waitForSelector('#detail:not([hidden])');
    assert.match(await textNow(page, '#detail h2'), /FAILED/);
    const sent = await textNow(page, '#detail-sent');
    assert.ok(sent.includes('capital of France'), sent);
    await page.close();
    const html = readFileSync(join(dir, 'page.html'), 'utf8');
    assert.ok(!html.includes(MODEL_KEY) && !html.includes(HTTP_KEY), 'a secret is in the page');
    // Sent only for the cases that did not pass: the passing ones' prompts stay out of the page.
    assert.ok(!html.includes('capital of Germany'), 'a passing case carries what it sent');
  });
});
