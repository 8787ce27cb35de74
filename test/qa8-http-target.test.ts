/**
 * QA round 8 on the http target (and the model target's requests): a URL made by a template
 * (`{{ case.url }}`, a host and port from a case), the `output:` path checked when the config
 * loads, header names and values checked at their line and named at run time, and redirects
 * followed only within the request's origin, so secret headers never reach another server.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { beforeEach, describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What each server received, in order. */
const seenByA: Seen[] = [];
const seenByB: Seen[] = [];

const SECRET = 'tok-http-SECRET-55555555';

/**
 * Server A answers `/echo` with what it got, redirects `/to-b` to server B, `/same-307` and
 * `/same-302` to its own `/echo`, and `/loop` to itself for ever.
 */
const a = useLoopbackServer((req, res) => {
  let body = '';
  req.setEncoding('utf8').on('data', (d: string) => (body += d));
  req.on('end', () => {
    seenByA.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const redirect = (status: number, location: string): void => {
      res.writeHead(status, { location }).end();
    };
    if (path === '/to-b') return redirect(302, `${b.base}/echo`);
    if (path.startsWith('/to-b-307')) return redirect(307, `${b.base}/v1/chat/completions`);
    if (path === '/same-307') return redirect(307, '/echo?from=307');
    if (path === '/same-302') return redirect(302, '/echo?from=302');
    if (path === '/loop') return redirect(302, '/loop');
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ method: req.method, url: req.url, body, data: { items: ['x', 'y'] } }));
  });
});

/** Server B, another origin (another port): it records, and answers like A's `/echo`. */
const b = useLoopbackServer((req, res) => {
  let body = '';
  req.setEncoding('utf8').on('data', (d: string) => (body += d));
  req.on('end', () => {
    seenByB.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"from":"b"}');
  });
});

beforeEach(() => {
  seenByA.length = 0;
  seenByB.length = 0;
});

/** A one-suite project over `rows` whose target is the http `target` lines. */
const httpProject = (rows: Record<string, unknown>[], target: string[]): string =>
  jsonlProject(rows, ['target:', '  type: http', ...target.map((line) => `  ${line}`)]);

const run = (dir: string, env: Record<string, string> = {}) =>
  runInProcess(['run', '-o', 'results.json'], dir, env);

describe('a URL made by templates', () => {
  it('a URL that is one template is sent as the case gives it, query and all', async () => {
    const dir = httpProject([{ u: `${a.base}/echo?x=1&y=a%20b` }], ['url: "{{case.u}}"']);
    const result = await run(dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(seenByA[0]?.url, '/echo?x=1&y=a%20b');
  });

  it('a host and port from a template are put as they are; a template in the query is still percent-encoded', async () => {
    const host = a.base.replace('http://', '');
    const dir = httpProject(
      [{ host, q: 'a&b c' }],
      ['url: "http://{{case.host}}/echo?q={{case.q}}"'],
    );
    const result = await run(dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(seenByA[0]?.url, '/echo?q=a%26b%20c');
  });

  it('a URL that starts with a template passes validate and is joined with its path', async () => {
    const dir = httpProject([{ base: a.base, q: 'é/x' }], ['url: "{{case.base}}/echo/{{case.q}}"']);
    const checked = await runInProcess(['validate'], dir);
    assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    await run(dir);
    assert.equal(seenByA[0]?.url, `/echo/${encodeURIComponent('é/x')}`);
  });

  it('a case whose URL is not one is a case error that quotes the URL and says what is wrong', async () => {
    const dir = httpProject(
      [{ u: 'not a url' }, { u: 'ftp://127.0.0.1/file' }],
      ['url: "{{case.u}}"'],
    );
    const result = await run(dir);
    assert.equal(result.code, 1);
    const [first, second] = artifactCases(dir)[0]!.cases;
    assert.equal(
      first?.error,
      'GET "not a url": not a valid URL: it has no scheme; expected http://… or https://…',
    );
    assert.equal(
      second?.error,
      'GET "ftp://127.0.0.1/file": not an http:// or https:// URL (its scheme is ftp:)',
    );
  });

  it('a case URL with credentials is refused with them masked', async () => {
    const dir = httpProject(
      [{ u: `http://admin:${SECRET}@127.0.0.1:1/echo` }],
      ['url: "{{case.u}}"'],
    );
    const result = await run(dir);
    const error = artifactCases(dir)[0]!.cases[0]!.error ?? '';
    // The case's own data holds it (and the artifact keeps the data); the error does not.
    assert.equal(error.includes(SECRET), false);
    assert.equal(result.code, 1);
    assert.match(error, /^GET "http:\/\/\*\*\*@127\.0\.0\.1:1\/echo": the URL has credentials/);
  });
});

describe('output: checked when the config loads', () => {
  it('a template in output: is exit 2 at its line and column', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'grid: { path: [data.items.1] }',
        'target:',
        '  type: http',
        `  url: ${a.base}/echo`,
        '  output: "{{params.path}}"',
      ],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr + result.stdout,
      /evals\.yaml:9:15 +suites\[0\]\.target\.output: output: is a path read as written, not a template/,
    );
  });

  it('a path that is no path is exit 2 with the forms it may take', async () => {
    const dir = httpProject([{ q: 'a' }], [`url: ${a.base}/echo`, 'output: "data..items"']);
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(
      result.stderr + result.stdout,
      /evals\.yaml:8:15 +suites\[0\]\.target\.output: expected a path into the JSON answer, such as .*data\.items\[1\]\.text.*found "data\.\.items"/,
    );
  });

  it('[n] indexes an array, as in templates', async () => {
    const dir = httpProject([{ q: 'a' }], [`url: ${a.base}/echo`, 'output: "data.items[1]"']);
    const result = await run(dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.output, 'y');
  });

  it('a quoted key in brackets, as in templates', async () => {
    const dir = httpProject([{ q: 'a' }], [`url: ${a.base}/echo`, `output: 'data["items"][0]'`]);
    const result = await run(dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(artifactCases(dir)[0]!.cases[0]!.output, 'x');
  });
});

describe('headers', () => {
  it('validate refuses a bad header name, a line break and a non-Latin-1 value, each at its place, without the value', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'target:',
        '  type: http',
        `  url: ${a.base}/echo`,
        '  headers:',
        '    bad name: v',
        '    x-a: "line1\\nline2-SECRET-VALUE"',
        '    x-u: "café-日本"',
      ],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    const out = result.stderr + result.stdout;
    assert.match(
      out,
      /evals\.yaml:9:9 +suites\[0\]\.target\.headers: header name "bad name" is not valid/,
    );
    assert.match(
      out,
      /evals\.yaml:10:14 +suites\[0\]\.target\.headers\.x-a: header x-a: its value has a line break at character 6, which a header cannot carry/,
    );
    assert.match(
      out,
      /evals\.yaml:11:14 +suites\[0\]\.target\.headers\.x-u: header x-u: its value has U\+65E5 at character 6, outside Latin-1/,
    );
    assert.equal(out.includes('SECRET-VALUE'), false);
  });

  it('a model target header is checked too', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'target:',
        '  type: model',
        '  model: m',
        `  baseUrl: ${a.base}/v1`,
        '  prompt: "{{case.q}}"',
        '  headers: { "x y": v }',
      ],
    );
    const result = await runInProcess(['validate'], dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr + result.stdout, /target\.headers: header name "x y" is not valid/);
  });

  it('a templated header whose case value cannot be sent is a case error naming the header, not its value', async () => {
    const dir = httpProject(
      [{ q: 'café-日本-private' }],
      [`url: ${a.base}/echo`, 'headers: { x-q: "{{case.q}}" }'],
    );
    const result = await run(dir);
    assert.equal(result.code, 1);
    const error = artifactCases(dir)[0]!.cases[0]!.error ?? '';
    assert.match(
      error,
      /^GET http:\/\/127\.0\.0\.1:\d+\/echo: header x-q: its value has U\+65E5 at character 6/,
    );
    assert.equal(error.includes('private'), false);
    assert.equal(seenByA.length, 0);
  });

  it('a value read with a trailing newline is sent, as fetch strips it', async () => {
    const dir = httpProject([{ q: 'a' }], [`url: ${a.base}/echo`, 'headers: { x-t: "${TOKEN}" }']);
    const result = await run(dir, { TOKEN: `${SECRET}\n` });
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.equal(seenByA[0]?.headers['x-t'], SECRET);
  });
});

describe('redirects', () => {
  it('a redirect to another origin is not followed: the secret headers never reach it, and the case error names where it led', async () => {
    const dir = httpProject(
      [{ q: 'a' }],
      [
        `url: ${a.base}/to-b`,
        'headers: { x-api-key: "${TOKEN}", authorization: "Bearer ${TOKEN}" }',
        'body: { q: "{{case.q}}" }',
      ],
    );
    const result = await run(dir, { TOKEN: SECRET });
    assert.equal(result.code, 1);
    assert.equal(seenByA.length, 1);
    assert.equal(seenByA[0]?.headers['x-api-key'], SECRET);
    assert.equal(seenByB.length, 0, 'server B got a request');
    const error = artifactCases(dir)[0]!.cases[0]!.error ?? '';
    assert.equal(
      error,
      `POST ${a.base}/to-b answered 302, a redirect to ${b.base}/echo, another origin: not followed, since the request's headers (keys, tokens) are meant for ${a.base} only; point the URL at the final address`,
    );
    // Not retried: a redirect will not heal.
    assert.equal(seenByA.length, 1);
  });

  it("the model target's client does not follow one either, so an api-key header stays home", async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'target:',
        '  type: model',
        '  model: m',
        `  baseUrl: ${a.base}/to-b-307`,
        '  prompt: "{{case.q}}"',
        '  headers: { api-key: "${TOKEN}" }',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, {
      TOKEN: SECRET,
    });
    assert.equal(result.code, 1);
    assert.equal(seenByB.length, 0, 'server B got a request');
    assert.match(
      artifactCases(dir)[0]!.cases[0]!.error ?? '',
      /answered 307, a redirect to .*another origin/,
    );
  });

  it('a 307 within the origin is followed with its method and body', async () => {
    const dir = httpProject([{ q: 'a' }], [`url: ${a.base}/same-307`, 'body: { q: "{{case.q}}" }']);
    const result = await run(dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const output = artifactCases(dir)[0]!.cases[0]!.output as Record<string, unknown>;
    assert.deepEqual(
      { method: output.method, url: output.url, body: output.body },
      { method: 'POST', url: '/echo?from=307', body: '{"q":"a"}' },
    );
  });

  it('a 302 within the origin after a POST goes on as a GET without the body, as fetch does', async () => {
    const dir = httpProject([{ q: 'a' }], [`url: ${a.base}/same-302`, 'body: { q: "{{case.q}}" }']);
    await run(dir);
    const output = artifactCases(dir)[0]!.cases[0]!.output as Record<string, unknown>;
    assert.deepEqual({ method: output.method, body: output.body }, { method: 'GET', body: '' });
    assert.equal(seenByA[1]?.headers['content-type'], undefined);
  });

  it('a redirect loop stops after 10 redirects with an error', async () => {
    const dir = httpProject([{ q: 'a' }], [`url: ${a.base}/loop`]);
    await run(dir);
    assert.equal(seenByA.length, 11);
    assert.match(
      artifactCases(dir)[0]!.cases[0]!.error ?? '',
      /answered 302, a redirect to http:\/\/127\.0\.0\.1:\d+\/loop, after 10 redirects already/,
    );
  });
});
