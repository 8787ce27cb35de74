/**
 * The judge client's rate limits and faults against a fake OpenAI-compatible server (429 waits,
 * 5xx, timeouts, malformed answers, refused connections, aborts, the in-flight cap, the key kept
 * out of errors), and the backoff policy behind its retries.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createJudgeClient } from 'evalgate';
import type { JudgeError } from 'evalgate';
import {
  backoffDelay,
  parseResetDuration,
  parseRetryAfter,
  serverRequestedDelay,
} from '../src/judge/backoff.ts';
import { API_KEY, failure, fakeClient, judgeRequest } from './helpers/judge-client.ts';
import { server, useJudgeServer } from './helpers/judge-server.ts';
import { freePort } from './helpers/free-port.ts';

useJudgeServer();

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

  // The 429 asks for a 30 s wait: the test's timeout fails it if the abort did not end that wait.
  it('an abort is judge.aborted, also during a backoff wait', { timeout: 10_000 }, async () => {
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
    const error = failure(await waiting);
    assert.equal(error.code, 'judge.aborted');
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
