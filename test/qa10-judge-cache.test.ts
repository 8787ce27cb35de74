/**
 * A judge's answer it cannot use — no call of the forced verdict function, a choice that was not
 * offered — is that evaluation's error, and an error is never replayed: the cache neither stores
 * nor serves it, so the next run asks the judge again (the same prompt may well be answered
 * right). Good answers stay cached, a digit-like choice sent as a number among them. Against the
 * loopback OpenAI-compatible server, through the whole run and through the client.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cacheKey, createFileCache } from '../src/judge/cache.ts';
import { createJudgeClient } from '../src/judge/client.ts';
import type { ChatRequest } from '../src/judge/types.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { scratch } from './helpers/cli.ts';
import {
  useOpenAiServer,
  type OpenAiServer,
  type RecordedRequest,
  type ScriptedAnswer,
} from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

/** The judged text of a request: the last message's content. */
function prompt(request: RecordedRequest): string {
  const body = request.body as { messages?: { content?: unknown }[] } | undefined;
  const content = body?.messages?.at(-1)?.content;
  return typeof content === 'string' ? content : '';
}

/** One case per output, each judged by an llm-judge asked for "yes" or "no", on the cache. */
function judgedProject(outputs: readonly string[]): string {
  return jsonlProject(
    outputs.map((output, index) => ({ id: `c${index}`, output })),
    [
      'hash: [id]',
      'evaluators:',
      '  - id: helpful',
      '    use: llm-judge',
      '    with: { prompt: "Is {{output}} good?", choices: { "yes": 1, "no": 0 } }',
      '    threshold: { gte: 1 }',
    ],
    {},
    [
      'defaults:',
      `  judge: { model: fake, baseUrl: "${server.url}", apiKey: sk-cache-test, maxRetries: 0 }`,
    ],
  );
}

/** The judge's answer to a prompt, by the mode the judged output names; `fixed`: always "yes". */
function judge(fixed: boolean): (request: RecordedRequest) => ScriptedAnswer {
  return (request) => {
    const text = prompt(request);
    if (fixed) return { toolArguments: { reason: 'fine', choice: 'yes' } };
    if (text.includes('MODE_NOTOOL')) return { noToolCall: true, content: 'I think yes.' };
    if (text.includes('MODE_BADCHOICE'))
      return { toolArguments: { reason: 'hm', choice: 'maybe' } };
    if (text.includes('MODE_NOCHOICE')) return { toolArguments: { reason: 'hm' } };
    return { toolArguments: { reason: 'fine', choice: 'yes' } };
  };
}

describe("a judge's unusable answer is not replayed from the cache", () => {
  it('asks again on the next run: no tool call, a choice not offered, no choice', async () => {
    const dir = judgedProject(['MODE_NOTOOL', 'MODE_BADCHOICE', 'MODE_NOCHOICE']);
    server.setResponder(judge(false));
    const first = await runInProcess(['run', '-o', 'first.json'], dir, {});
    assert.equal(first.code, 1, first.stdout + first.stderr);
    const errors = artifactCases(dir, 'first.json')[0]!.cases.map((c) => c.evaluations[0]?.error);
    assert.match(errors[0] ?? '', /the judge answered without calling verdict/);
    assert.match(errors[1] ?? '', /the judge chose "maybe", not one of "yes", "no"/);
    assert.match(errors[2] ?? '', /the judge returned no choice/);
    assert.equal(server.requests.length, 3);

    // The judge now answers well: every case is asked again, and passes.
    server.setResponder(judge(true));
    const second = await runInProcess(['run', '-o', 'second.json'], dir, {});
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.equal(server.requests.length, 6, 'each unusable answer is asked again, not replayed');
    for (const c of artifactCases(dir, 'second.json')[0]!.cases) {
      assert.equal(c.passed, true, JSON.stringify(c.evaluations));
      assert.equal(c.evaluations[0]?.error, null);
    }
  });

  it('still serves a good answer from the cache', async () => {
    const dir = judgedProject(['MODE_GOOD']);
    server.setResponder(judge(false));
    const first = await runInProcess(['run', '-o', 'first.json'], dir, {});
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const second = await runInProcess(['run', '-o', 'second.json'], dir, {});
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.equal(server.requests.length, 1, 'the re-run is served from the cache');
    assert.match(second.stdout, /model calls: 1, from the cache/);
  });
});

describe('the client keeps only answers to a forced call that make it as asked', () => {
  const request: ChatRequest = {
    model: 'fake',
    messages: [{ role: 'user', content: 'Pick one.' }],
    tools: [
      {
        type: 'function',
        function: {
          name: 'verdict',
          parameters: {
            type: 'object',
            properties: {
              reason: { type: 'string' },
              choice: { type: 'string', enum: ['1', '2'] },
            },
            required: ['reason', 'choice'],
          },
        },
      },
    ],
    tool_choice: { type: 'function', function: { name: 'verdict' } },
  };

  it('does not serve an unusable answer a cache already holds', async () => {
    const cacheDir = scratch();
    // What an earlier version stored: an answer without the forced call.
    const key = cacheKey({
      baseUrl: server.url,
      model: 'fake',
      body: { ...request, temperature: 0 },
    });
    await createFileCache(cacheDir).set(key, {
      message: { content: 'maybe', toolCalls: [] },
      usage: { promptTokens: 1, completionTokens: 1 },
    });
    const client = createJudgeClient({ baseUrl: server.url, apiKey: 'sk-x', cacheDir });
    server.script({ toolArguments: { reason: 'r', choice: '2' } });
    const result = await client.chat(request);
    assert.equal(result.ok, true);
    assert.equal(result.ok && result.cached, false, 'the stale entry is a miss');
    assert.equal(server.requests.length, 1);
    // The good answer replaced it.
    const again = await client.chat(request);
    assert.equal(again.ok && again.cached, true);
    assert.equal(server.requests.length, 1);
  });

  it('keeps a digit-like choice sent as a number, and honours the keep option of the caller', async () => {
    const cacheDir = join(scratch(), 'cache');
    const client = createJudgeClient({ baseUrl: server.url, apiKey: 'sk-x', cacheDir });
    server.script({ toolArguments: { reason: 'r', choice: 2 } });
    assert.equal((await client.chat(request)).ok, true);
    const hit = await client.chat(request);
    assert.equal(hit.ok && hit.cached, true, 'the number 2 is the choice "2"');
    // A caller that finds the answer unusable (a judge counting its verdicts) is asked again.
    const refuse = { keep: () => false };
    const miss = await client.chat(request, refuse);
    assert.equal(miss.ok && miss.cached, false);
    assert.equal(server.requests.length, 2);
  });
});

describe("a judge's answer that does not fit its judge's own shape is not replayed either", () => {
  it('faithfulness: claims that are not an array are asked again on the next run', async () => {
    const dir = jsonlProject(
      [{ id: 'c0', output: 'Paris is the capital of France.', contexts: ['Paris is in France.'] }],
      [
        'hash: [id]',
        'evaluators:',
        '  - id: grounded',
        '    use: faithfulness',
        '    with: { contexts: "{{case.contexts}}" }',
        '    threshold: { gte: 0.5 }',
      ],
      {},
      [
        'defaults:',
        `  judge: { model: fake, baseUrl: "${server.url}", apiKey: sk-cache-test, maxRetries: 0 }`,
      ],
    );
    server.setResponder(() => ({ toolArguments: { claims: 'Paris is the capital' } }));
    const first = await runInProcess(['run', '-o', 'first.json'], dir, {});
    assert.equal(first.code, 1, first.stdout + first.stderr);
    const error = artifactCases(dir, 'first.json')[0]!.cases[0]?.evaluations[0]?.error;
    assert.match(
      error ?? '',
      /the judge's record_claims arguments do not fit: "claims" is not an array/,
    );
    assert.equal(server.requests.length, 1);

    server.setResponder(() => ({
      toolArguments: {
        claims: [{ claim: 'Paris is the capital of France.', supported: true, reason: 'p1' }],
      },
    }));
    const second = await runInProcess(['run', '-o', 'second.json'], dir, {});
    assert.equal(second.code, 0, second.stdout + second.stderr);
    assert.equal(server.requests.length, 2, 'the unfit answer is asked again, not replayed');
    assert.equal(artifactCases(dir, 'second.json')[0]!.cases[0]?.evaluations[0]?.score, 1);
  });
});
