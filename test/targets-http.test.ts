/**
 * The `http` target against a real server on loopback: templates in the URL, headers and body,
 * an output path into the JSON answer, retries on 429 and 5xx, non-2xx answers as case errors
 * with secrets scrubbed, and a request to a hanging server dropped at the suite's timeout.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { beforeEach, describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';
import { waitUntil } from './helpers/wait-until.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const seen: Seen[] = [];
/** Requests whose connection closed before their answer was sent: the client gave up on them. */
let dropped = 0;
let flakyLeft = 0;
const served = useLoopbackServer((req, res) => {
  res.on('close', () => {
    if (!res.writableFinished) dropped++;
  });
  let body = '';
  req.setEncoding('utf8').on('data', (d: string) => (body += d));
  req.on('end', () => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    answer(req, res, body);
  });
});

function answer(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const json = (status: number, value: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  };
  switch (url.pathname) {
    case '/answer': {
      const question = (JSON.parse(body) as { question: string }).question;
      json(200, { data: { answer: question.toUpperCase(), items: ['first', 'second'] } });
      return;
    }
    case '/text':
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`you asked: ${url.searchParams.get('q')}`);
      return;
    case '/flaky':
      if (flakyLeft-- > 0) {
        res.writeHead(flakyLeft % 2 === 0 ? 503 : 429, { 'retry-after': '0' }).end('busy');
        return;
      }
      json(200, { ok: true });
      return;
    case '/broken':
      // Echoes the caller's credentials back, as a careless error page might.
      res.writeHead(500).end(`failed for ${String(req.headers.authorization)} ${'x'.repeat(2000)}`);
      return;
    case '/forbidden':
      res.writeHead(403).end(`key ${String(req.headers['x-api-key'])} is not allowed`);
      return;
    case '/hang':
      return; // never answers
    default:
      res.writeHead(404).end('no such route');
  }
}

beforeEach(() => {
  seen.length = 0;
  dropped = 0;
  flakyLeft = 0;
});

/** A one-row project posting its question to /answer and reading `output` from the answer. */
const answerProject = (output: string): string =>
  jsonlProject(
    [{ question: 'q' }],
    [
      'target:',
      '  type: http',
      `  url: ${served.base}/answer`,
      '  body: { question: "{{case.question}}" }',
      `  output: ${output}`,
    ],
  );

const SECRET = 'sk-test-0123456789abcdef';

describe('http target', () => {
  it('sends the templated body and headers and reads the output path of the JSON answer', async () => {
    const dir = jsonlProject(
      [{ question: 'why?', expected: 'WHY?' }],
      [
        'target:',
        '  type: http',
        `  url: ${served.base}/answer`,
        '  method: POST',
        '  headers: { Authorization: "Bearer ${API_TOKEN}", X-Case: "{{case.question}}" }',
        '  body: { question: "{{case.question}}", meta: { n: 1 } }',
        '  output: data.answer',
        'evaluators:',
        '  - use: is-equals',
        '    with: { expected: "{{case.expected}}" }',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir, { API_TOKEN: SECRET });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.output, 'WHY?');
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.headers.authorization, `Bearer ${SECRET}`);
    assert.equal(seen[0]!.headers['x-case'], 'why?');
    assert.equal(seen[0]!.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(seen[0]!.body), { question: 'why?', meta: { n: 1 } });
  });

  it('percent-encodes template values in the URL and keeps a text answer as text', async () => {
    const dir = jsonlProject(
      [{ q: 'a&b=c d/é' }],
      ['target:', '  type: http', `  url: "${served.base}/text?q={{case.q}}"`],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stdout);
    assert.equal(seen[0]!.url, `/text?q=${encodeURIComponent('a&b=c d/é')}`);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.output, 'you asked: a&b=c d/é');
  });

  it('an output path into an array by index', async () => {
    const dir = answerProject('data.items.1');
    await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.output, 'second');
  });

  it('retries 429 and 503 answers and then succeeds', async () => {
    flakyLeft = 2;
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: http', `  url: ${served.base}/flaky`, '  maxRetries: 3'],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stdout);
    assert.equal(seen.length, 3);
    assert.deepEqual(artifactCases(dir)[0]!.cases[0]!.output, { ok: true });
  });

  it('a 5xx after the retries is a case error with the status and 500 characters of the body, secrets scrubbed', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'target:',
        '  type: http',
        `  url: ${served.base}/broken`,
        '  maxRetries: 1',
        '  headers: { Authorization: "Bearer ${API_TOKEN}" }',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir, { API_TOKEN: SECRET });
    assert.equal(result.code, 1);
    assert.equal(seen.length, 2);
    const error = artifactCases(dir)[0]!.cases[0]!.error ?? '';
    // 500 characters of the body on one line, cut in the middle: its start and its end kept;
    // then how many requests it took, so a failure retries could have hidden is not one request.
    assert.match(
      error,
      /^GET http:\/\/127\.0\.0\.1:\d+\/broken answered 500: failed for \[redacted\] x+ … x+; after 2 attempts$/,
    );
    const body = error.slice(0, -'; after 2 attempts'.length);
    assert.equal(body.split(': ').slice(1).join(': ').length, 500 + ' … '.length);
    assert.equal(error.includes(SECRET), false);
    assert.equal(result.stdout.includes(SECRET), false);
  });

  it('a 4xx is not retried and is a case error', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'target:',
        '  type: http',
        `  url: ${served.base}/forbidden`,
        '  headers: { X-Api-Key: "${API_TOKEN}" }',
      ],
    );
    await runInProcess(['run', '-o', 'results.json'], dir, { API_TOKEN: SECRET });
    assert.equal(seen.length, 1);
    assert.match(
      artifactCases(dir)[0]!.cases[0]!.error ?? '',
      /answered 403: key \[redacted\] is not allowed/,
    );
  });

  it('a request to a server that never answers is dropped at the suite timeout; the artifact is written', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }, { q: 'b' }],
      ['timeout: 300ms', 'target:', '  type: http', `  url: ${served.base}/hang`],
    );
    const result = await runInProcess(['run', '-o', 'results.json'], dir);
    assert.equal(result.code, 1);
    for (const c of artifactCases(dir)[0]!.cases) {
      assert.equal(c.error, `timed out after 300 ms while waiting for GET ${served.base}/hang`);
    }
    // One request per case, not retried, each closed by the client while the server held it
    // open (the server itself would wait minutes: its request timeout).
    assert.equal(seen.length, 2);
    assert.ok(await waitUntil(() => dropped === 2), `the client dropped ${dropped} of 2 requests`);
  });

  it('a missing output path is a case error that keeps the answer', async () => {
    const dir = answerProject('data.nothing');
    await runInProcess(['run', '-o', 'results.json'], dir);
    const c = artifactCases(dir)[0]!.cases[0]!;
    assert.match(c.error ?? '', /the answer has no data\.nothing/);
    assert.deepEqual(c.output, { data: { answer: 'Q', items: ['first', 'second'] } });
  });

  it('a URL that cannot be http(s) is refused at validate time', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: http', '  url: "ftp://example.com/{{case.q}}"'],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /evals\.yaml:\d+:\d+ .*expected an http:\/\/ or https:\/\/ URL/);
  });
});
