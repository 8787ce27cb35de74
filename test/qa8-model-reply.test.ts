/**
 * A `model` target's reply with no text (a refusal, only tool calls, a content filter, the
 * token limit reached first) is a case error saying what came back, never the output "" that
 * checks for something NOT to be there would pass. Against the loopback OpenAI-compatible
 * server, through the whole run.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';
import { replyText } from '../src/targets/model-reply.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

/** The suite lines of a model target on the loopback server, with `extra` keys. */
const modelTarget = (extra: string[] = []): string[] => [
  'target:',
  '  type: model',
  '  model: small',
  `  baseUrl: ${server.url}`,
  '  apiKey: sk-test',
  '  prompt: "{{case.q}}"',
  ...extra.map((line) => `  ${line}`),
];

/** A chat answer whose first choice is `choice` (its `message` and `finish_reason`). */
const answer = (choice: Record<string, unknown>): Record<string, unknown> => ({
  choices: [{ index: 0, ...choice }],
  usage: { prompt_tokens: 5, completion_tokens: 1 },
});

/**
 * One case, checked only for what must NOT be in the output: the empty string passes both, so
 * a run that scored a reply with no text as "" would pass.
 */
async function runOne(
  body: Record<string, unknown>,
  extra: string[] = [],
): Promise<{ code: number; output: unknown; error: string | null }> {
  server.setDefault({ body });
  const dir = jsonlProject(
    [{ q: 'help me' }],
    [
      ...modelTarget(extra),
      'evaluators:',
      '  - { id: no-apology, use: regex, with: { pattern: "sorry|cannot", flags: i }, not: true }',
      '  - { id: short, use: length, with: { max: 200 } }',
    ],
  );
  const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, {});
  const c = artifactCases(dir)[0]!.cases[0]!;
  return { code: result.code, output: c.output, error: c.error ?? null };
}

describe('a model reply with no text is a case error, not an empty output', () => {
  it('a refusal is an error quoting it, and the run fails', async () => {
    const run = await runOne(
      answer({
        message: { role: 'assistant', content: null, refusal: "I'm sorry, I cannot help." },
        finish_reason: 'stop',
      }),
    );
    assert.equal(run.code, 1);
    assert.equal(run.output, null);
    assert.equal(run.error, "the model refused: I'm sorry, I cannot help.");
  });

  it('a reply of tool calls only names the calls', async () => {
    const call = (name: string, args: string): Record<string, unknown> => ({
      id: `call_${name}`,
      type: 'function',
      function: { name, arguments: args },
    });
    const run = await runOne(
      answer({
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [call('lookup', '{"q":"x"}'), call('search', '{}')],
        },
        finish_reason: 'tool_calls',
      }),
    );
    assert.equal(run.code, 1);
    assert.equal(
      run.error,
      'the model answered with 2 tool calls and no text: lookup({"q":"x"}), search({})',
    );
  });

  it('a content-filtered reply is an error even with the text written before the filter', async () => {
    const run = await runOne(
      answer({
        message: { role: 'assistant', content: 'Here is how to' },
        finish_reason: 'content_filter',
      }),
    );
    assert.equal(run.code, 1);
    assert.match(
      run.error ?? '',
      /content filter stopped the reply \(finish_reason: content_filter\)/,
    );
  });

  it('the token limit reached before any text says to raise maxTokens', async () => {
    const run = await runOne(
      answer({ message: { role: 'assistant', content: '' }, finish_reason: 'length' }),
      ['maxTokens: 5'],
    );
    assert.equal(run.code, 1);
    assert.match(
      run.error ?? '',
      /token limit before any text \(finish_reason: length\): raise maxTokens/,
    );
  });

  it('content null with nothing else says so, with the finish reason', async () => {
    const run = await runOne(
      answer({ message: { role: 'assistant', content: null }, finish_reason: 'stop' }),
    );
    assert.equal(run.error, "the model's reply has no text (content: null, finish_reason: stop)");
  });

  it('the same replies with responseFormat json say what came back, not "not JSON"', async () => {
    const run = await runOne(
      answer({ message: { role: 'assistant', content: null, refusal: 'No.' } }),
      ['responseFormat: json'],
    );
    assert.equal(run.error, 'the model refused: No.');
  });
});

describe('replies that do have text', () => {
  // Scored, "" passed both checks, as a command's empty stdout and an HTTP target's empty body
  // did: the three targets agree that an empty output is no answer unless the target allows it.
  it('an empty string the model sent is a case error, unless allowEmptyOutput', async () => {
    const empty = answer({ message: { role: 'assistant', content: '' }, finish_reason: 'stop' });
    const run = await runOne(empty);
    assert.equal(run.code, 1);
    assert.equal(run.output, '');
    assert.equal(
      run.error,
      'the model\'s reply is empty (content: "", finish_reason: stop): no output to score (allowEmptyOutput: true on the target scores it as it is)',
    );
    const blank = await runOne(
      answer({ message: { role: 'assistant', content: ' \n ' }, finish_reason: 'stop' }),
    );
    assert.match(blank.error ?? '', /^the model's reply is empty \(content: only white space,/);
    const allowed = await runOne(empty, ['allowEmptyOutput: true']);
    assert.equal(allowed.code, 0);
    assert.equal(allowed.output, '');
    assert.equal(allowed.error, null);
  });

  it('content as a list of parts is read as the text of its text parts', async () => {
    const run = await runOne(
      answer({
        message: {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Happy ' },
            { type: 'image_url', image_url: { url: 'http://127.0.0.1/x.png' } },
            { type: 'text', text: 'to help.' },
          ],
        },
        finish_reason: 'stop',
      }),
    );
    assert.equal(run.error, null);
    assert.equal(run.output, 'Happy to help.');
  });

  it('text cut at the token limit is still the output: the user set the limit', () => {
    assert.deepEqual(replyText({ content: 'Happy to', toolCalls: [], finishReason: 'length' }), {
      ok: true,
      text: 'Happy to',
    });
  });
});

describe('replyText quoting', () => {
  it('cuts a long refusal and names at most three tool calls', () => {
    const long = replyText({ content: null, toolCalls: [], refusal: `no ${'x'.repeat(500)}` });
    assert.ok(!long.ok);
    assert.equal(long.error.length, 'the model refused: '.length + 201);
    const calls = Array.from({ length: 5 }, (_, i) => ({ name: `t${i}`, arguments: '{}' }));
    const many = replyText({ content: null, toolCalls: calls });
    assert.ok(!many.ok);
    assert.equal(
      many.error,
      'the model answered with 5 tool calls and no text: t0({}), t1({}), t2({}) and 2 more',
    );
  });
});

describe('token counts a server cannot mean', () => {
  it('a count of 1e308 is not reported: the call is still counted, its cost unknown', async () => {
    server.setDefault({
      body: {
        choices: [
          { index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' },
        ],
        usage: { prompt_tokens: 1e308, completion_tokens: 3 },
      },
    });
    const dir = jsonlProject([{ q: 'a' }, { q: 'b' }], modelTarget(), {}, [
      'defaults:',
      '  judge:',
      '    prices: { small: { prompt: 1, completion: 2 } }',
    ]);
    const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, {});
    assert.equal(result.code, 0, result.stdout + result.stderr);
    for (const c of artifactCases(dir)[0]!.cases) {
      assert.equal(c.usage?.calls, 1);
      assert.equal(c.usage?.promptTokens, 0);
      assert.equal(c.usage?.completionTokens, 3);
      assert.equal(c.usage?.cost, null);
    }
    assert.match(result.stdout, /model calls: 2/);
  });
});

describe('a cache folder that cannot be written', () => {
  it('is said once, and every call still goes to the server', async () => {
    server.setDefault({ content: 'fine' });
    const dir = jsonlProject(
      [{ q: 'a' }, { q: 'b' }, { q: 'c' }],
      modelTarget(),
      // A file where the cache's folder would have to be.
      { 'blocked/readme.txt': 'not a folder' },
    );
    const args = ['run', '-o', 'results.json', '--cache-dir', 'blocked/readme.txt/cache'];
    const first = await runInProcess(args, dir, {});
    assert.equal(first.code, 0, first.stdout + first.stderr);
    const warnings = first.stderr.split('\n').filter((line) => line.startsWith('warning: '));
    assert.equal(warnings.length, 1, first.stderr);
    assert.match(
      warnings[0] ?? '',
      /^warning: cannot write the response cache in .*blocked\/readme\.txt\/cache \(ENOTDIR\): model calls are not cached$/,
    );
    const before = server.requests.length;
    await runInProcess(args, dir, {});
    assert.equal(server.requests.length - before, 3, 'nothing was served from a cache');
  });
});
