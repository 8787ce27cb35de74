/**
 * What a model call that did not answer adds to `usage`. A call counts when a request reached
 * the server, however it ended: stopped by its signal (a time limit, an interrupt) mid-request
 * or while waiting between retries, it is one call with the time it took and its attempts; one
 * stopped while still queued for the host cap never sent anything and is none. An error answer
 * whose JSON body reports `usage` is priced by those tokens (config.md: a failed call "is priced
 * by the tokens the server reported with it"), summed over the attempts that reported some.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import { createHostLimiter } from '../src/judge/host-limiter.ts';
import { callUsage } from '../src/judge/usage.ts';
import { CallTimeout } from '../src/shared/call-timeout.ts';
import type { Usage } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

const PRICES = { small: { prompt: 1, completion: 2 } };
const ASK = { model: 'small', messages: [{ role: 'user' as const, content: 'q' }] };

/** An error body that reports the tokens the server spent, as some gateways send. */
const BILLED_500 = {
  status: 500,
  body: {
    error: { message: 'the model crashed mid-answer' },
    usage: { prompt_tokens: 30, completion_tokens: 5 },
  },
};

/** The usage of the one case of a one-suite run over a priced model target. */
async function caseUsage(extra: string[]): Promise<{ usage?: Usage; error?: string }> {
  const dir = jsonlProject(
    [{ q: 'a' }],
    [
      'concurrency: 1',
      'target:',
      '  type: model',
      '  model: small',
      `  baseUrl: ${server.url}`,
      '  apiKey: sk-usage-test-123456',
      '  prompt: "{{case.q}}"',
      ...extra.map((line) => `  ${line}`),
    ],
    {},
    ['defaults:', '  judge:', '    prices: { small: { prompt: 1, completion: 2 } }'],
  );
  const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
    runs: { cases: { usage?: Usage; error?: string }[] }[];
  };
  return artifact.runs[0]!.cases[0]!;
}

describe('an error answer that reports usage', () => {
  it('a 500 with usage in its body is priced by those tokens', async () => {
    server.setDefault(BILLED_500);
    const { usage, error } = await caseUsage(['maxRetries: 0']);
    assert.match(error ?? '', /500/);
    assert.equal(usage?.calls, 1);
    assert.equal(usage?.promptTokens, 30);
    assert.equal(usage?.completionTokens, 5);
    assert.ok(Math.abs((usage?.cost ?? -1) - (30 * 1 + 5 * 2) / 1e6) < 1e-12, String(usage?.cost));
  });

  it('retried: the tokens every attempt reported add up, on one call', async () => {
    server.setDefault(BILLED_500);
    const { usage } = await caseUsage(['maxRetries: 1']);
    assert.equal(server.requests.length, 2);
    assert.equal(usage?.calls, 1);
    assert.equal(usage?.retries, 1);
    assert.equal(usage?.promptTokens, 60);
    assert.equal(usage?.completionTokens, 10);
  });
});

describe('a call stopped by its signal', () => {
  it('while queued for the host cap, before any request went out, is no call', async () => {
    server.setDefault({ delayMs: 300 });
    const client = createJudgeClient({
      baseUrl: server.url,
      apiKey: 'k',
      hostLimiter: createHostLimiter(1),
      env: {},
    });
    const holding = client.chat(ASK);
    const controller = new AbortController();
    const queued = client.chat(ASK, { signal: controller.signal });
    setTimeout(() => controller.abort(new CallTimeout(50)), 50);
    const [held, stopped] = await Promise.all([holding, queued]);
    assert.equal(held.ok, true);
    assert.equal(server.requests.length, 1);
    assert.equal(stopped.ok, false);
    if (stopped.ok) return;
    assert.equal(stopped.error.code, 'judge.aborted');
    assert.equal(stopped.error.attempts, 0);
    assert.equal(callUsage(stopped, 'small', PRICES).calls, 0);
  });

  it('mid-request (a time limit): one call with its time; cost 0 when priced, null when not', async () => {
    server.setDefault({ delayMs: 2000 });
    const client = createJudgeClient({ baseUrl: server.url, apiKey: 'k', env: {} });
    const signal = AbortSignal.timeout(150);
    const t0 = performance.now();
    const result = await client.chat(ASK, { signal });
    const elapsed = performance.now() - t0;
    assert.equal(server.requests.length, 1);
    assert.equal(result.ok, false);
    const usage = callUsage(result, 'small', PRICES);
    assert.equal(usage.calls, 1);
    assert.equal('retries' in usage, false);
    // The call's time, from its attempt's start to the abort: within the time it was awaited (a
    // loaded machine may start the attempt late, so no fixed floor near the 150 ms).
    assert.ok(
      usage.latencyMs > 0 && usage.latencyMs <= elapsed + 1 && usage.latencyMs < 2000,
      `${usage.latencyMs} of ${elapsed}`,
    );
    assert.equal(usage.cost, 0);
    assert.equal(callUsage(result, 'unpriced', PRICES).cost, null);
  });

  it('while waiting to retry: one call, the attempts sent are its retries', async () => {
    server.setDefault({ status: 503 });
    const client = createJudgeClient({
      baseUrl: server.url,
      apiKey: 'k',
      maxRetries: 5,
      env: {},
      // Answers at once; the abort comes 400 ms into the third wait, whatever the machine's load
      // (a time limit on the whole call would race the first two attempts on a busy machine).
      sleep: (ms, signal) =>
        new Promise((resolve) => {
          const timer = setTimeout(resolve, server.requests.length < 3 ? 10 : 5000);
          signal?.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
          if (server.requests.length >= 3) {
            setTimeout(() => controller.abort(new CallTimeout(400)), 400);
          }
        }),
    });
    const controller = new AbortController();
    const result = await client.chat(ASK, { signal: controller.signal });
    assert.equal(server.requests.length, 3);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.error.code, 'judge.aborted');
    const usage = callUsage(result, 'small', PRICES);
    assert.equal(usage.calls, 1);
    assert.equal(usage.retries, 2);
    assert.ok(usage.latencyMs >= 390, String(usage.latencyMs));
  });
});
