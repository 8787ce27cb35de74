/**
 * `defaults.stopAfterErrors` and a model that does not exist: a model API's "model not found"
 * 404 says something about one model, not the host, so it stops the calls for that model only.
 * A healthy model on the same server (the other grid point) is called for every case, whichever
 * order the grid lists them in. Other systematic failures (401, connection refused) stop the host.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBreaker } from '../src/judge/breaker.ts';
import type { JudgeError } from '../src/judge/types.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

const ROWS = Array.from({ length: 6 }, (_, i) => ({ q: `q${i}` }));

/** A grid over `models` on the fake server, stopping after 2 identical failures. */
function gridProject(models: string[]): string {
  return jsonlProject(
    ROWS,
    [
      'concurrency: 1',
      `grid: { model: [${models.join(', ')}] }`,
      'target:',
      '  type: model',
      "  model: '{{params.model}}'",
      `  baseUrl: "${server.url}"`,
      '  apiKey: sk-breaker-test-123456',
      '  prompt: "{{case.q}}"',
      '  maxRetries: 0',
    ],
    {},
    ['defaults: { stopAfterErrors: 2 }'],
  );
}

/** The model each request asked for. */
function modelsAsked(): string[] {
  return server.requests.map((request) => (request.body as { model: string }).model);
}

describe('a missing model stops its own calls, not the host', () => {
  for (const order of [
    ['missing', 'healthy'],
    ['healthy', 'missing'],
  ]) {
    it(`grid [${order.join(', ')}]: the healthy model answers every case`, async () => {
      server.setResponder((request) =>
        (request.body as { model?: string }).model === 'missing'
          ? { status: 404, body: { error: { message: 'model "missing" not found' } } }
          : undefined,
      );
      const dir = gridProject(order);
      const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
      assert.equal(result.code, 1, result.stdout + result.stderr);
      const asked = modelsAsked();
      assert.equal(asked.filter((m) => m === 'healthy').length, ROWS.length, asked.join(','));
      assert.equal(asked.filter((m) => m === 'missing').length, 2, asked.join(','));
      const runs = artifactCases(dir);
      const healthy = runs.find((run) => run.params.model === 'healthy')!;
      const missing = runs.find((run) => run.params.model === 'missing')!;
      assert.ok(
        healthy.cases.every((c) => (c.error ?? null) === null),
        JSON.stringify(healthy.cases.map((c) => c.error)),
      );
      assert.equal(missing.cases.length, ROWS.length);
      assert.ok(missing.cases.every((c) => /404/.test(c.error ?? '')));
      const stopped = missing.cases.filter((c) => (c.error ?? '').startsWith('not called'));
      assert.equal(stopped.length, ROWS.length - 2);
      assert.match(stopped[0]!.error!, /for model "missing"/);
      assert.match(result.stderr, /warning: stopped calling \S+ for model "missing"/);
      assert.equal(result.stderr.match(/warning: stopped calling/g)?.length, 1, result.stderr);
    });
  }

  it('a wrong key (401) still stops every model on the host', async () => {
    server.setDefault({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const dir = gridProject(['first', 'second']);
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    assert.equal(result.code, 1);
    assert.deepEqual(modelsAsked(), ['first', 'first']);
    const second = artifactCases(dir).find((run) => run.params.model === 'second')!;
    assert.ok(second.cases.every((c) => (c.error ?? '').startsWith('not called: 2 calls')));
  });
});

describe('the breaker, per host and model', () => {
  const e404: JudgeError = { code: 'judge.http', status: 404, message: 'model not found' };
  const e401: JudgeError = { code: 'judge.http', status: 401, message: 'bad key' };

  it("counts a model API's 404 against the model: the host and its other models stay open", () => {
    const opened: string[] = [];
    const breaker = createBreaker(2, (who) => opened.push(who));
    breaker.record('h', e404, true, 'a');
    breaker.record('h', undefined, true, 'b');
    breaker.record('h', e404, true, 'a');
    assert.match(breaker.refused('h', 'a')?.message ?? '', /to h for model "a" failed/);
    assert.equal(breaker.refused('h', 'b'), undefined);
    assert.equal(breaker.refused('h'), undefined);
    assert.deepEqual(opened, ['h for model "a"']);
  });

  it("a model's 404s do not add to the host's streak, nor break it", () => {
    const breaker = createBreaker(2);
    breaker.record('h', e401, true, 'a');
    breaker.record('h', e404, true, 'b');
    assert.equal(breaker.refused('h', 'c'), undefined);
    breaker.record('h', e401, true, 'c');
    assert.match(
      breaker.refused('h', 'b')?.message ?? '',
      /^not called: 2 calls in a row to h failed/,
    );
  });

  it("an answer for the model, or a host-wide failure, ends the model's streak", () => {
    const breaker = createBreaker(2);
    breaker.record('h', e404, true, 'a');
    breaker.record('h', undefined, true, 'a');
    breaker.record('h', e404, true, 'a');
    assert.equal(breaker.refused('h', 'a'), undefined);
    breaker.record('h', e401, true, 'a');
    breaker.record('h', e404, true, 'a');
    assert.equal(breaker.refused('h', 'a'), undefined);
  });
});
