/**
 * A successful model call whose answer reports no token counts was billed all the same, for
 * tokens nobody knows: its cost is unknown (`null`), not $0, and the sums it enters (the run's,
 * the artifact's) are unknown too, with the summary saying why. A call that reported its counts
 * is still priced, and a cache hit still costs nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Usage } from '../src/types/index.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

const PRICES = ['defaults:', '  judge:', '    prices: { small: { prompt: 1, completion: 2 } }'];

function project(): string {
  return jsonlProject(
    [{ q: 'a' }, { q: 'b' }],
    [
      'concurrency: 1',
      'target:',
      '  type: model',
      '  model: small',
      `  baseUrl: ${server.url}`,
      '  apiKey: sk-usage-test-key-1',
      '  prompt: "{{case.q}}"',
      'evaluators: [ { use: contains, with: { values: ["{{case.q}}"] } } ]',
    ],
    {},
    PRICES,
  );
}

/** A chat answer as some compatible servers send it: a choice, no `usage`. */
function withoutUsage(text: string): { body: Record<string, unknown> } {
  return {
    body: {
      id: 'chatcmpl-no-usage',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    },
  };
}

interface View {
  usage?: Usage;
  runs: { summary: { usage?: Usage }; cases: { usage?: Usage }[] }[];
}

function artifact(dir: string, file: string): View {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as View;
}

describe('a model answer without usage', () => {
  it('has an unknown cost, not $0, in the case, the run and the artifact, and says why', async () => {
    const dir = project();
    // The first case's answer reports no usage; the second's the usual counts (42 + 7).
    server.script(withoutUsage('echo: a'));
    const r = await runInProcess(['run', '-o', 'out.json', '--no-cache'], dir, {});
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const out = artifact(dir, 'out.json');
    const [first, second] = out.runs[0]!.cases;
    assert.equal(first?.usage?.calls, 1);
    assert.equal(first?.usage?.promptTokens, 0);
    assert.equal(first?.usage?.cost, null, 'the call was billed for tokens nobody knows');
    assert.equal(second?.usage?.cost, (42 * 1 + 7 * 2) / 1e6, 'a reported answer is priced');
    assert.equal(out.runs[0]!.summary.usage?.cost, null);
    assert.equal(out.usage?.cost, null);
    assert.match(r.stdout, /cost: unknown \(no price for a model used, or tokens not reported\)/);
  });

  it('counts as unknown when only one of the counts is reported', async () => {
    const dir = project();
    const half = withoutUsage('echo: a');
    half.body.usage = { prompt_tokens: 5 };
    server.script(half, withoutUsage('echo: b'));
    const r = await runInProcess(['run', '-o', 'out.json', '--no-cache'], dir, {});
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const [first] = artifact(dir, 'out.json').runs[0]!.cases;
    assert.equal(first?.usage?.promptTokens, 5);
    assert.equal(first?.usage?.cost, null);
  });

  it('costs nothing when the answer is served from the cache', async () => {
    const dir = project();
    server.script(withoutUsage('echo: a'), withoutUsage('echo: b'));
    const cold = await runInProcess(['run', '-o', 'cold.json'], dir, {});
    assert.equal(cold.code, 0, cold.stdout + cold.stderr);
    assert.equal(artifact(dir, 'cold.json').usage?.cost, null);
    const warm = await runInProcess(['run', '-o', 'warm.json'], dir, {});
    assert.equal(warm.code, 0, warm.stdout + warm.stderr);
    const usage = artifact(dir, 'warm.json').usage;
    assert.equal(usage?.cacheHits, 2);
    assert.equal(usage?.cost, 0);
  });
});
