/**
 * A `model` target's reply whose content is a list of parts with no text (an image, nothing at
 * all) is a case error that says what came, not "content: null"; the reply is the model's answer,
 * so a re-run replays it from the cache, and the error reads the same. Against the loopback
 * OpenAI-compatible server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

/** The error of one case whose reply has `content`, on the first run and on the cached re-run. */
async function errors(content: unknown): Promise<[string | undefined, string | undefined]> {
  server.setDefault({
    body: {
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 1 },
    },
  });
  const dir = jsonlProject(
    [{ q: 'draw it' }],
    [
      'target:',
      '  type: model',
      '  model: small',
      `  baseUrl: ${server.url}`,
      '  apiKey: sk-test',
      '  prompt: "{{case.q}}"',
      'evaluators: [ { use: length, with: { max: 200 } } ]',
    ],
  );
  const first = await runInProcess(['run', '-o', 'first.json'], dir, {});
  assert.equal(first.code, 1, first.stdout + first.stderr);
  const second = await runInProcess(['run', '-o', 'second.json'], dir, {});
  assert.equal(second.code, 1, second.stdout + second.stderr);
  assert.equal(server.requests.length, 1, 'the reply is an answer: the re-run replays it');
  return [
    artifactCases(dir, 'first.json')[0]!.cases[0]!.error,
    artifactCases(dir, 'second.json')[0]!.cases[0]!.error,
  ];
}

describe('a reply of parts with no text says what the parts were', () => {
  it('names the types of the parts', async () => {
    const [first, replayed] = await errors([
      { type: 'image_url', image_url: { url: 'http://127.0.0.1/a.png' } },
      { type: 'image_url', image_url: { url: 'http://127.0.0.1/b.png' } },
      { type: 'input_audio', input_audio: { data: '', format: 'wav' } },
    ]);
    const expected =
      "the model's reply has no text (content: a list of 3 parts, none with text (image_url, input_audio), finish_reason: stop)";
    assert.equal(first, expected);
    assert.equal(replayed, expected);
  });

  it('says an empty list is one', async () => {
    const [first, replayed] = await errors([]);
    const expected = "the model's reply has no text (content: an empty list, finish_reason: stop)";
    assert.equal(first, expected);
    assert.equal(replayed, expected);
  });

  it('names a text part whose text is not a string', async () => {
    const [first] = await errors([{ type: 'text', text: null }]);
    assert.equal(
      first,
      'the model\'s reply has no text (content: a list of 1 part, none with text (text without a "text" string), finish_reason: stop)',
    );
  });
});
