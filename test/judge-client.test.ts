import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createJudgeClient } from 'evalgate';
import type { ChatRequest, JudgeClientOptions, JudgeError } from 'evalgate';
import {
  backoffDelay,
  parseResetDuration,
  parseRetryAfter,
  serverRequestedDelay,
} from '../src/judge/backoff.ts';
import { cacheKey } from '../src/judge/cache.ts';
import { canonicalJson } from '../src/shared/canonical-json.ts';
import { useOpenAiServer } from './helpers/openai-server.ts';
import type { OpenAiServer } from './helpers/openai-server.ts';
import { freePort } from './helpers/free-port.ts';

const API_KEY = 'sk-test-SECRET-4f9c2e';

let server: OpenAiServer;
const tempDirs: string[] = [];
useOpenAiServer(
  (started) => (server = started),
  () => Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true }))),
);

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'evalgate-judge-'));
  tempDirs.push(dir);
  return dir;
}

/** A client against the fake whose backoff is recorded instead of slept. */
function fakeClient(options: JudgeClientOptions = {}) {
  const waits: number[] = [];
  const client = createJudgeClient({
    baseUrl: server.url,
    apiKey: API_KEY,
    env: {},
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    random: () => 0.999,
    ...options,
  });
  return { client, waits };
}

const judgeRequest = (question = 'Is Paris the capital of France?'): ChatRequest => ({
  model: 'judge-small',
  messages: [
    { role: 'system', content: 'You grade answers.' },
    { role: 'user', content: question },
  ],
  tools: [
    {
      type: 'function',
      function: {
        name: 'grade',
        parameters: { type: 'object', properties: { choice: { type: 'string' } } },
      },
    },
  ],
  tool_choice: { type: 'function', function: { name: 'grade' } },
});

function failure(result: { ok: true } | { ok: false; error: JudgeError }): JudgeError {
  assert.equal(result.ok, false, 'expected a failed call');
  return (result as { error: JudgeError }).error;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe('chat', () => {
  it('returns the tool call, usage and call facts, and sends the key only as a bearer header', async () => {
    const { client } = fakeClient();
    const result = await client.chat(judgeRequest());
    assert.ok(result.ok);
    assert.deepEqual(result.message.toolCalls, [
      { name: 'grade', arguments: '{"choice":"A","reason":"fits"}' },
    ]);
    assert.equal(result.message.content, null);
    assert.deepEqual(result.usage, { promptTokens: 42, completionTokens: 7 });
    assert.equal(result.cached, false);
    assert.equal(result.attempts, 1);
    assert.ok(result.latencyMs >= 0);

    assert.equal(server.requests.length, 1);
    const [request] = server.requests;
    assert.equal(request?.path, '/v1/chat/completions');
    assert.equal(request?.headers.authorization, `Bearer ${API_KEY}`);
    assert.ok(!request?.text.includes(API_KEY), 'the key is not in the body');
    assert.equal((request?.body as { temperature: number }).temperature, 0);
  });

  it('reads OPENAI_BASE_URL and OPENAI_API_KEY from the injected env', async () => {
    const client = createJudgeClient({
      env: { OPENAI_BASE_URL: `${server.url}/`, OPENAI_API_KEY: 'from-env' },
    });
    assert.equal(client.baseUrl, server.url);
    const result = await client.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    assert.ok(result.ok);
    assert.equal(result.message.content, 'echo: hi');
    assert.deepEqual(result.message.toolCalls, []);
    assert.equal(server.requests[0]?.headers.authorization, 'Bearer from-env');
  });

  it('defaults to OpenAI and sends no Authorization header without a key', async () => {
    assert.equal(createJudgeClient({ env: {} }).baseUrl, 'https://api.openai.com/v1');
    const keyless = createJudgeClient({ baseUrl: server.url, env: { OPENAI_API_KEY: '' } });
    assert.ok((await keyless.chat(judgeRequest())).ok);
    assert.equal(server.requests[0]?.headers.authorization, undefined);
  });

  it('answers without a tool call are ok with no tool calls (the evaluator decides)', async () => {
    server.script({ noToolCall: true });
    const { client } = fakeClient();
    const result = await client.chat(judgeRequest('say it'));
    assert.ok(result.ok);
    assert.deepEqual(result.message.toolCalls, []);
    assert.equal(result.message.content, 'echo: say it');
  });
});

describe('rate limits and faults', () => {
  it('429 with Retry-After: 1 twice, then success: waits at least 1 s each time', async () => {
    server.script(
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 429, headers: { 'retry-after': '1' } },
    );
    const { client, waits } = fakeClient({ random: () => 0 });
    const result = await client.chat(judgeRequest());
    assert.ok(result.ok);
    assert.equal(result.attempts, 3);
    assert.equal(server.requests.length, 3);
    assert.deepEqual(waits, [1000, 1000]);
  });

  it('429 with Retry-After: 1 twice takes at least 2 s of real time', async () => {
    server.script(
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 429, headers: { 'retry-after': '1' } },
    );
    const client = createJudgeClient({ baseUrl: server.url, apiKey: API_KEY, env: {} });
    const started = performance.now();
    const result = await client.chat(judgeRequest());
    const elapsed = performance.now() - started;
    assert.ok(result.ok);
    assert.ok(elapsed >= 2000, `took ${elapsed} ms`);
    assert.ok(result.latencyMs >= 2000);
  });

  it('honours x-ratelimit-reset-* of the exhausted limit and retry-after-ms', async () => {
    server.script(
      {
        status: 429,
        headers: {
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-reset-requests': '1s500ms',
          'x-ratelimit-remaining-tokens': '9000',
          'x-ratelimit-reset-tokens': '6m0s',
        },
      },
      { status: 503, headers: { 'retry-after-ms': '750' } },
    );
    const { client, waits } = fakeClient({ random: () => 0 });
    const result = await client.chat(judgeRequest());
    assert.ok(result.ok);
    assert.deepEqual(waits, [1500, 750]);
  });

  it('gives up rather than wait less than a server asks, beyond two minutes', async () => {
    server.script({ status: 429, headers: { 'retry-after': '3600' } });
    const { client, waits } = fakeClient();
    const error = failure(await client.chat(judgeRequest()));
    assert.equal(error.code, 'judge.http');
    assert.equal(error.status, 429);
    assert.match(error.message, /asked to wait 3600 s/);
    assert.deepEqual(waits, []);
    assert.equal(server.requests.length, 1);
  });

  it('always 500: judge.http after maxRetries + 1 attempts, backoff within the jitter window', async () => {
    server.setDefault({ status: 500 });
    const { client, waits } = fakeClient({ maxRetries: 3 });
    const error = failure(await client.chat(judgeRequest()));
    assert.equal(error.code, 'judge.http');
    assert.equal(error.status, 500);
    assert.equal(error.attempts, 4);
    assert.match(error.message, /answered 500: scripted 500/);
    assert.equal(server.requests.length, 4);
    assert.equal(waits.length, 3);
    waits.forEach((ms, retry) => assert.ok(ms <= 500 * 2 ** retry, `wait ${ms} at ${retry}`));
  });

  it('does not retry a 4xx other than 429', async () => {
    server.script({ status: 400, body: { error: { message: 'bad tool schema' } } });
    const { client } = fakeClient();
    const error = failure(await client.chat(judgeRequest()));
    assert.equal(error.code, 'judge.http');
    assert.equal(error.status, 400);
    assert.match(error.message, /bad tool schema/);
    assert.equal(server.requests.length, 1);
  });

  it('a timeout is judge.timeout and is retried', async () => {
    server.script({ delayMs: 1000 });
    const { client } = fakeClient({ timeoutMs: 150 });
    const result = await client.chat(judgeRequest());
    assert.ok(result.ok);
    assert.equal(result.attempts, 2);

    server.reset();
    server.setDefault({ delayMs: 1000 });
    const error = failure(
      await fakeClient({ timeoutMs: 150, maxRetries: 1 }).client.chat(judgeRequest()),
    );
    assert.equal(error.code, 'judge.timeout');
    assert.equal(error.attempts, 2);
    assert.equal(server.requests.length, 2);
  });

  it('malformed JSON is judge.malformed with the raw body, not retried', async () => {
    server.script({ body: '{"choices": [oops' });
    const { client } = fakeClient();
    const error = failure(await client.chat(judgeRequest()));
    assert.equal(error.code, 'judge.malformed');
    assert.equal(error.raw, '{"choices": [oops');
    assert.equal(server.requests.length, 1);

    server.script({ body: { id: 'x', choices: [] } });
    const noChoices = failure(await client.chat(judgeRequest()));
    assert.equal(noChoices.code, 'judge.malformed');
    assert.equal(noChoices.raw, '{"id":"x","choices":[]}');
  });

  it('keeps only the first 2 KB of a malformed body', async () => {
    server.script({ body: `<html>${'x'.repeat(5000)}` });
    const error = failure(await fakeClient().client.chat(judgeRequest()));
    assert.equal(error.raw?.length, 2048);
  });

  it('a refused connection is judge.network, retried', async () => {
    const port = await freePort();
    const { client, waits } = fakeClient({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 2 });
    const error = failure(await client.chat(judgeRequest()));
    assert.equal(error.code, 'judge.network');
    assert.match(error.message, /ECONNREFUSED/);
    assert.equal(error.attempts, 3);
    assert.equal(waits.length, 2);
  });

  it('an invalid base URL is a result, not a throw', async () => {
    const error = failure(await fakeClient({ baseUrl: 'not a url' }).client.chat(judgeRequest()));
    assert.equal(error.code, 'judge.network');
    assert.match(error.message, /"not a url\/chat\/completions" is not a valid URL/);
  });

  it('an abort is judge.aborted, also during a backoff wait', async () => {
    server.script({ delayMs: 1000 });
    const { client } = fakeClient();
    const controller = new AbortController();
    const pending = client.chat(judgeRequest(), { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    assert.equal(failure(await pending).code, 'judge.aborted');

    server.script({ status: 429, headers: { 'retry-after': '30' } });
    const sleeping = createJudgeClient({ baseUrl: server.url, env: {} });
    const second = new AbortController();
    const waiting = sleeping.chat(judgeRequest(), { signal: second.signal });
    setTimeout(() => second.abort(), 100);
    const started = performance.now();
    const error = failure(await waiting);
    assert.equal(error.code, 'judge.aborted');
    assert.ok(performance.now() - started < 5000);
  });

  it('caps requests in flight per host: 10 concurrent calls, cap 3', async () => {
    server.setDefault({ delayMs: 60 });
    const { client } = fakeClient({ maxConcurrentPerHost: 3 });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.chat(judgeRequest(`question ${i}`))),
    );
    assert.ok(results.every((r) => r.ok));
    assert.equal(server.requests.length, 10);
    assert.equal(server.maxInFlight, 3);
  });

  it('never puts the API key in an error message or raw body, even when the server echoes it', async () => {
    const echo = { error: { message: `Incorrect API key provided: ${API_KEY}` } };
    server.script(
      { status: 401, body: echo },
      { body: `not json ${API_KEY}` },
      { status: 500, body: echo },
    );
    const { client } = fakeClient({ maxRetries: 0 });
    const errors: JudgeError[] = [];
    for (let i = 0; i < 3; i++) errors.push(failure(await client.chat(judgeRequest())));
    const port = await freePort();
    const refused = fakeClient({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
    errors.push(failure(await refused.client.chat(judgeRequest())));
    server.script({ delayMs: 500 });
    errors.push(
      failure(await fakeClient({ timeoutMs: 50, maxRetries: 0 }).client.chat(judgeRequest())),
    );

    assert.deepEqual(
      errors.map((e) => e.code),
      ['judge.http', 'judge.malformed', 'judge.http', 'judge.network', 'judge.timeout'],
    );
    for (const error of errors) assert.ok(!JSON.stringify(error).includes(API_KEY), error.message);
    assert.match(errors[0]?.message ?? '', /\[redacted\]/);
  });
});

describe('cache', () => {
  it('serves an identical second call from disk with zero requests', async () => {
    const cacheDir = await tempDir();
    const { client } = fakeClient({ cacheDir });
    const first = await client.chat(judgeRequest());
    assert.ok(first.ok);
    assert.equal(first.cached, false);

    const second = await client.chat(judgeRequest());
    assert.ok(second.ok);
    assert.equal(second.cached, true);
    assert.equal(second.latencyMs, 0);
    assert.equal(second.attempts, 0);
    assert.deepEqual(second.message, first.message);
    assert.deepEqual(second.usage, first.usage);
    assert.equal(server.requests.length, 1);

    // a new client (another run) with another key shares the entry: the key is not in the hash
    const rerun = fakeClient({ cacheDir, apiKey: 'sk-other' }).client;
    assert.equal(((await rerun.chat(judgeRequest())) as { cached: boolean }).cached, true);
    assert.equal(server.requests.length, 1);
  });

  it('a different model or body is a miss', async () => {
    const { client } = fakeClient({ cacheDir: await tempDir() });
    await client.chat(judgeRequest());
    const other = await client.chat({ ...judgeRequest(), model: 'judge-large' });
    assert.ok(other.ok);
    assert.equal(other.cached, false);
    const warmer = await client.chat({ ...judgeRequest(), temperature: 0.7 });
    assert.ok(warmer.ok);
    assert.equal(warmer.cached, false);
    assert.equal(server.requests.length, 3);
  });

  it('writes <2 hex>/<sha256>.json files that hold no API key', async () => {
    const cacheDir = await tempDir();
    const { client } = fakeClient({ cacheDir });
    await client.chat(judgeRequest('one'));
    await client.chat(judgeRequest('two'));
    await client.embed(['a', 'bb'], 'embed-small');
    const files = await listFiles(cacheDir);
    assert.equal(files.length, 3);
    for (const file of files) {
      assert.match(file, /[/\\]([0-9a-f]{2})[/\\]\1[0-9a-f]{62}\.json$/);
      const text = await readFile(file, 'utf8');
      assert.ok(!text.includes(API_KEY), `${file} holds the key`);
      assert.ok(!text.includes('SECRET'));
    }
  });

  it('never caches an error, and treats a corrupt file as a miss it then overwrites', async () => {
    const cacheDir = await tempDir();
    const { client } = fakeClient({ cacheDir, maxRetries: 0 });
    server.script({ status: 500 });
    assert.equal(failure(await client.chat(judgeRequest())).code, 'judge.http');
    assert.deepEqual(await listFiles(cacheDir), []);
    const retried = await client.chat(judgeRequest());
    assert.ok(retried.ok);
    assert.equal(retried.cached, false);

    const [file] = await listFiles(cacheDir);
    assert.ok(file !== undefined);
    await writeFile(file, '{"format":1,"key":');
    const afterCorruption = await client.chat(judgeRequest());
    assert.ok(afterCorruption.ok);
    assert.equal(afterCorruption.cached, false);
    assert.equal(server.requests.length, 3);
    JSON.parse(await readFile(file, 'utf8'));
    const hit = await client.chat(judgeRequest());
    assert.equal((hit as { cached: boolean }).cached, true);
  });

  it('keys on canonical JSON: key order does not matter', () => {
    assert.equal(
      canonicalJson({ b: [1, { d: 1, c: 2 }], a: null }),
      '{"a":null,"b":[1,{"c":2,"d":1}]}',
    );
    const one = cacheKey({ baseUrl: 'u', model: 'm', body: { x: 1, y: 2 } });
    assert.equal(one, cacheKey({ baseUrl: 'u', model: 'm', body: { y: 2, x: 1 } }));
    assert.notEqual(one, cacheKey({ baseUrl: 'v', model: 'm', body: { x: 1, y: 2 } }));
    assert.match(one, /^[0-9a-f]{64}$/);
  });
});

describe('embed', () => {
  it('returns one vector per text in order, with usage, and caches them', async () => {
    const { client } = fakeClient({ cacheDir: await tempDir() });
    const result = await client.embed(['a', 'bbb'], 'embed-small');
    assert.ok(result.ok);
    assert.deepEqual(result.embeddings, [
      [1, 1, 0],
      [3, 1, 1],
    ]);
    assert.deepEqual(result.usage, { promptTokens: 6 });
    assert.equal(server.requests[0]?.path, '/v1/embeddings');
    const again = await client.embed(['a', 'bbb'], 'embed-small');
    assert.ok(again.ok);
    assert.equal(again.cached, true);
    assert.equal(server.requests.length, 1);
  });
});

describe('backoff policy', () => {
  it('parses Go-style reset durations', () => {
    assert.equal(parseResetDuration('1s'), 1000);
    assert.equal(parseResetDuration('6m0s'), 360_000);
    assert.equal(parseResetDuration('120ms'), 120);
    assert.equal(parseResetDuration('1h2m3.5s'), 3_723_500);
    assert.equal(parseResetDuration('2'), 2000);
    assert.equal(parseResetDuration('soon'), undefined);
    assert.equal(parseResetDuration('1s garbage'), undefined);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.UTC(2025, 0, 1, 0, 0, 0);
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('later', now), undefined);
  });

  it('takes the largest applicable server wait', () => {
    const headers = new Headers({ 'retry-after': '2', 'x-ratelimit-reset-tokens': '3s' });
    assert.equal(serverRequestedDelay(headers, 0), 3000);
    assert.equal(serverRequestedDelay(new Headers(), 0), undefined);
  });

  it('full jitter within an exponential window capped at 20 s', () => {
    assert.equal(
      backoffDelay(0, () => 0.5),
      250,
    );
    assert.equal(
      backoffDelay(3, () => 0.5),
      2000,
    );
    assert.equal(
      backoffDelay(10, () => 0.999),
      19_980,
    );
  });
});

describe('Azure-style endpoints', () => {
  it('keeps the base URL query after the path and sends extra headers, scrubbed from errors', async () => {
    const client = createJudgeClient({
      baseUrl: `${server.url}/?api-version=2024-06-01`,
      headers: { 'api-key': 'azure-SECRET-77aa' },
      env: {},
      maxRetries: 0,
    });
    server.script({ status: 400, body: { error: { message: 'bad key azure-SECRET-77aa' } } });
    const failed = await client.chat(judgeRequest());
    assert.equal(failed.ok, false);
    if (!failed.ok) {
      assert.equal(failed.error.message.includes('azure-SECRET-77aa'), false);
      assert.equal(failed.error.raw?.includes('azure-SECRET-77aa'), false);
    }
    const result = await client.chat(judgeRequest());
    assert.ok(result.ok);
    const request = server.requests.at(-1);
    assert.equal(request?.url, '/v1/chat/completions?api-version=2024-06-01');
    assert.equal(request?.headers['api-key'], 'azure-SECRET-77aa');
    assert.equal(request?.headers.authorization, undefined);
  });
});
