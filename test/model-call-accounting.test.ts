/**
 * What failed and retried model calls add to `usage`: a failed call counts once, with the time
 * it actually took (every attempt and wait) and the cost of the tokens the server reported with
 * it (none when it reported none: providers bill what they report); retries are counted in `usage.retries`; a call the breaker stopped before
 * it was sent is no call. And what a judge or gateway error says: a reply without a choice, a 200
 * that carries an error message (scrubbed of secrets).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { callUsage, addUsage } from '../src/judge/usage.ts';
import { createJudgeClient } from '../src/judge/client.ts';
import type { ChatResult } from '../src/judge/types.ts';
import type { Usage } from '../src/types/index.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

const KEY = 'sk-accounting-secret-9876543210';
const PRICES = ['defaults:', '  judge:', '    prices: { small: { prompt: 1, completion: 2 } }'];

/** A one-suite project with a priced model target; `extra` lines go into the target. */
function project(
  rows: Record<string, unknown>[],
  extra: string[],
  suite: string[] = [],
  defaults: string[] = [],
): string {
  return jsonlProject(
    rows,
    [
      'concurrency: 1',
      ...suite,
      'target:',
      '  type: model',
      '  model: small',
      `  baseUrl: ${server.url}`,
      '  apiKey: ${KEY}',
      '  prompt: "{{case.q}}"',
      ...extra.map((line) => `  ${line}`),
    ],
    {},
    [...PRICES, ...defaults],
  );
}

interface RunView {
  summary: { usage?: Usage };
  cases: { error?: string; usage?: Usage; evaluations: { error: string | null }[] }[];
}

function runOf(dir: string): RunView {
  const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
    runs: RunView[];
  };
  return artifact.runs[0]!;
}

const run = (dir: string) =>
  runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, { KEY });

describe('usage of failed and retried model calls', () => {
  it('a 503 retried until the retries run out: one call, its retries, the time it took, no cost', async () => {
    server.setDefault({ status: 503, delayMs: 120 });
    const dir = project([{ q: 'a' }], ['maxRetries: 1']);
    const result = await run(dir);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.equal(server.requests.length, 2);
    const { cases, summary } = runOf(dir);
    const usage = cases[0]!.usage!;
    assert.match(cases[0]!.error ?? '', /503/);
    assert.equal(usage.calls, 1);
    assert.equal(usage.retries, 1);
    // Priced model, no tokens reported: nothing billed, and the run's total stays known.
    assert.equal(usage.cost, 0);
    assert.equal(usage.promptTokens, 0);
    // Two answers of 120 ms each, and a backoff wait between them.
    assert.ok(usage.latencyMs >= 240, `latencyMs ${usage.latencyMs}`);
    assert.equal(summary.usage?.calls, 1);
    assert.equal(summary.usage?.cost, 0);
    assert.equal(summary.usage?.retries, 1);
  });

  it('a success after a 429 is one call with one retry, priced from its usage', async () => {
    server.script({ status: 429, headers: { 'retry-after': '0' } });
    const dir = project([{ q: 'a' }], []);
    const result = await run(dir);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    const usage = runOf(dir).cases[0]!.usage!;
    assert.equal(usage.calls, 1);
    assert.equal(usage.retries, 1);
    assert.ok(Math.abs((usage.cost ?? -1) - (42 * 1 + 7 * 2) / 1e6) < 1e-12);
    assert.ok(usage.latencyMs > 0);
  });

  it('a call without retries has no retries field (artifacts stay as they were)', async () => {
    const dir = project([{ q: 'a' }], []);
    await run(dir);
    const usage = runOf(dir).cases[0]!.usage!;
    assert.equal('retries' in usage, false);
    assert.equal(usage.calls, 1);
  });

  it('calls the breaker stopped are not counted as calls', async () => {
    server.setDefault({ status: 401 });
    const rows = [{ q: 'a' }, { q: 'b' }, { q: 'c' }, { q: 'd' }, { q: 'e' }];
    const dir = project(rows, ['maxRetries: 0'], [], ['  stopAfterErrors: 2']);
    const result = await run(dir);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.equal(server.requests.length, 2);
    const { cases, summary } = runOf(dir);
    assert.equal(cases.filter((c) => /not called/.test(c.error ?? '')).length, 3);
    for (const c of cases.slice(2)) assert.equal(c.usage, undefined, JSON.stringify(c));
    assert.equal(summary.usage?.calls, 2);
    assert.equal(summary.usage?.cost, 0);
  });

  it('callUsage: tokens an unusable answer reported are priced; a call never sent is no call', () => {
    const prices = { small: { prompt: 1, completion: 2 } };
    const malformed: ChatResult = {
      ok: false,
      error: {
        code: 'judge.malformed',
        message: 'm',
        attempts: 3,
        latencyMs: 3600,
        usage: { promptTokens: 10, completionTokens: 5 },
      },
    };
    assert.deepEqual(callUsage(malformed, 'small', prices), {
      calls: 1,
      cacheHits: 0,
      promptTokens: 10,
      completionTokens: 5,
      cost: (10 + 5 * 2) / 1e6,
      latencyMs: 3600,
      retries: 2,
    });
    assert.equal(callUsage(malformed, 'other', prices).cost, null);
    const dropped: ChatResult = {
      ok: false,
      error: { code: 'judge.network', message: 'm', attempts: 2, latencyMs: 900 },
    };
    assert.equal(callUsage(dropped, 'small', prices).cost, 0);
    assert.equal(callUsage(dropped, 'other', prices).cost, null);
    const refused: ChatResult = {
      ok: false,
      error: { code: 'judge.http', status: 401, message: 'not called', attempts: 0 },
    };
    assert.equal(callUsage(refused, 'small', prices).calls, 0);
    const sum = addUsage(
      callUsage(malformed, 'small', prices),
      callUsage(refused, 'small', prices),
    );
    assert.equal(sum.calls, 1);
    assert.equal(sum.retries, 2);
  });
});

describe('what judge and gateway errors say', () => {
  it('a 200 carrying an error says the server message, scrubbed of the key', async () => {
    server.setDefault({ body: { error: { message: `quota exceeded for key ${KEY}` } } });
    const dir = project([{ q: 'a' }], []);
    await run(dir);
    const error = artifactCases(dir)[0]!.cases[0]!.error ?? '';
    assert.match(error, /answered 200 with an error: quota exceeded/);
    assert.equal(error.includes(KEY), false);
    const client = createJudgeClient({ baseUrl: server.url, apiKey: KEY });
    const direct = await client.chat({
      model: 'small',
      messages: [{ role: 'user', content: 'x' }],
    });
    assert.ok(!direct.ok);
    assert.equal(direct.error.code, 'judge.malformed');
    assert.match(direct.error.message, /quota exceeded/);
    assert.equal(direct.error.message.includes(KEY), false);
  });

  it('a judge reply without a choice says it returned no choice', async () => {
    server.setDefault({ toolArguments: { reason: 'hmm' } });
    const dir = jsonlProject(
      [{ q: 'a', output: 'x' }],
      [
        'evaluators:',
        '  - id: judged',
        '    use: llm-judge',
        '    with:',
        '      prompt: "Is {{output}} right?"',
        '      choices: { "yes": 1, "no": 0 }',
      ],
      {},
      [
        'defaults:',
        '  judge:',
        '    model: judge-mini',
        `    baseUrl: ${server.url}`,
        '    apiKey: ${KEY}',
      ],
    );
    await run(dir);
    const error = runOf(dir).cases[0]!.evaluations[0]!.error ?? '';
    assert.match(error, /returned no choice/);
    assert.doesNotMatch(error, /undefined/);
  });
});
