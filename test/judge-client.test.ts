/**
 * The judge client against a fake OpenAI-compatible server: chat calls and what they send, the
 * on-disk cache, embeddings, and Azure-style endpoints. Rate limits, faults and the backoff
 * policy are in judge-client-faults.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createJudgeClient } from 'evalgate';
import { cacheKey } from '../src/judge/cache.ts';
import { canonicalJson } from '../src/shared/canonical-json.ts';
import { API_KEY, failure, fakeClient, judgeRequest } from './helpers/judge-client.ts';
import { server, tempDirs, useJudgeServer } from './helpers/judge-server.ts';

useJudgeServer();

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'evalgate-judge-'));
  tempDirs.push(dir);
  return dir;
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
