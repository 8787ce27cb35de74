/**
 * A model target or judge call cut short by the suite's or an evaluator's
 * timeout: its usage is in the case, the evaluation and the run.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Usage } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

interface Run {
  summary: { usage?: Usage };
  cases: {
    usage?: Usage;
    error?: string;
    evaluations: { usage?: Usage; error: string | null }[];
  }[];
}
function runOf(dir: string): Run {
  return (JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as { runs: Run[] }).runs[0]!;
}
const PRICES = ['defaults:', '  judge:', '    prices: { small: { prompt: 1, completion: 2 } }'];

describe('timed-out calls count', () => {
  it('a model target past the suite timeout: one call, its time, cost 0', async () => {
    server.setDefault({ delayMs: 3000 });
    const dir = jsonlProject(
      [{ q: 'a' }, { q: 'b' }],
      [
        'concurrency: 2',
        'timeout: 300ms',
        'target:',
        '  type: model',
        '  model: small',
        `  baseUrl: ${server.url}`,
        '  apiKey: k-123456789',
        '  prompt: "{{case.q}}"',
        '  maxRetries: 0',
      ],
      {},
      PRICES,
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    assert.equal(result.code, 1);
    const run = runOf(dir);
    assert.equal(server.requests.length, 2);
    for (const c of run.cases) {
      assert.match(c.error ?? '', /timed out after 300 ms/);
      assert.equal(c.usage?.calls, 1, JSON.stringify(c));
      assert.equal(c.usage?.cost, 0);
      assert.ok((c.usage?.latencyMs ?? 0) >= 290);
    }
    assert.equal(run.summary.usage?.calls, 2);
  });

  it('aborted while retrying: the attempts sent are its retries', async () => {
    server.setDefault({ status: 503 });
    const dir = jsonlProject(
      [{ q: 'a' }],
      [
        'timeout: 1500ms',
        'target:',
        '  type: model',
        '  model: small',
        `  baseUrl: ${server.url}`,
        '  apiKey: k-123456789',
        '  prompt: "{{case.q}}"',
        '  maxRetries: 10',
      ],
      {},
      PRICES,
    );
    await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    const c = runOf(dir).cases[0]!;
    assert.match(c.error ?? '', /timed out after 1500 ms while retrying/);
    assert.equal(c.usage?.calls, 1);
    assert.equal(c.usage?.retries, server.requests.length - 1);
  });

  it('a judge past its evaluator timeout: the evaluation has the call', async () => {
    server.setDefault({ delayMs: 3000 });
    const dir = jsonlProject(
      [{ q: 'a', output: 'x' }],
      [
        'evaluators:',
        '  - id: helpful',
        '    use: llm-judge',
        '    timeout: 300ms',
        '    with: { prompt: "Is {{output}} good?", choices: { "yes": 1, "no": 0 } }',
      ],
      {},
      [
        ...PRICES,
        `    model: small`,
        `    baseUrl: ${server.url}`,
        '    apiKey: k-123456789',
        '    maxRetries: 0',
      ],
    );
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    assert.equal(result.code, 1, result.stderr);
    const run = runOf(dir);
    const e = run.cases[0]!.evaluations[0]!;
    assert.match(e.error ?? '', /timed out after 300 ms/);
    assert.equal(e.usage?.calls, 1, JSON.stringify(e));
    assert.equal(run.summary.usage?.calls, 1);
  });
});
