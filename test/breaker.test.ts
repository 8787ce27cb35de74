/**
 * A systematic error stops early: after `defaults.stopAfterErrors` identical failures in a row
 * (a wrong key, a missing model, a server that is not there) the run stops calling that server,
 * the remaining cases error at once with the same cause, and the run says so once. 429 and 5xx
 * never stop it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBreaker } from '../src/judge/breaker.ts';
import { freePort } from './helpers/free-port.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

function project(target: string[], top: string[] = []): string {
  const rows = Array.from({ length: 30 }, (_, i) => ({ q: `q${i}` }));
  return jsonlProject(rows, ['concurrency: 1', 'target:', ...target.map((l) => `  ${l}`)], {}, top);
}

const model = (baseUrl: string): string[] => [
  'type: model',
  'model: m',
  `baseUrl: "${baseUrl}"`,
  'apiKey: wrong-key-123456',
  'prompt: "{{case.q}}"',
  'maxRetries: 0',
];

describe('stopping after systematic errors', () => {
  it('a wrong key (401): five calls, then every other case errors at once with the same cause', async () => {
    server.setDefault({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const dir = project(model(server.url));
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    assert.equal(result.code, 1);
    assert.equal(server.requests.length, 5);
    const cases = artifactCases(dir)[0]!.cases;
    assert.equal(cases.length, 30);
    assert.ok(cases.every((c) => /401/.test(c.error ?? '')));
    assert.equal(
      cases.filter((c) => (c.error ?? '').startsWith('not called: 5 calls in a row')).length,
      25,
    );
    assert.equal(result.stderr.match(/warning: stopped calling/g)?.length, 1, result.stderr);
  });

  it('a server that is not there (connection refused) is given up on too', async () => {
    const port = await freePort();
    const dir = project(model(`http://127.0.0.1:${port}/v1`));
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    assert.equal(result.code, 1);
    const cases = artifactCases(dir)[0]!.cases;
    assert.ok(cases.every((c) => /ECONNREFUSED/.test(c.error ?? '')));
    assert.equal(cases.filter((c) => (c.error ?? '').startsWith('not called')).length, 25);
  });

  it('5xx answers never stop the run: every case is tried', async () => {
    server.setDefault({ status: 500, body: { error: { message: 'overloaded' } } });
    const dir = project(model(server.url));
    await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    assert.equal(server.requests.length, 30);
  });

  it('stopAfterErrors: 0 never stops', async () => {
    server.setDefault({ status: 401, body: { error: { message: 'no' } } });
    const dir = project(model(server.url), ['defaults: { stopAfterErrors: 0 }']);
    await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    assert.equal(server.requests.length, 30);
  });

  it('an answer in between breaks the streak', async () => {
    let n = 0;
    // Four failures, one answer, four failures, …: never five in a row.
    server.setResponder(() =>
      n++ % 5 === 4 ? {} : { status: 403, body: { error: { message: 'forbidden' } } },
    );
    const dir = project(model(server.url));
    await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    assert.equal(server.requests.length, 30);
  });
});

describe('the breaker', () => {
  it('counts only the same systematic cause in a row, per server', () => {
    const opened: string[] = [];
    const breaker = createBreaker(3, (host) => opened.push(host));
    const e401 = { code: 'judge.http' as const, status: 401, message: '401' };
    const e404 = { code: 'judge.http' as const, status: 404, message: '404' };
    breaker.record('a', e401, true);
    breaker.record('a', e404, true);
    breaker.record('a', e401, true);
    breaker.record('a', e401, true);
    assert.equal(breaker.refused('a'), undefined);
    breaker.record('b', e404, false);
    breaker.record('b', e404, false);
    breaker.record('b', e404, false);
    assert.equal(breaker.refused('b'), undefined, 'a 404 of a per-case URL is not systematic');
    breaker.record('a', e401, true);
    assert.match(
      breaker.refused('a')?.message ?? '',
      /^not called: 3 calls in a row to a failed the same way/,
    );
    assert.deepEqual(opened, ['a']);
  });
});
