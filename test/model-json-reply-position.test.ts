/**
 * A model target with `responseFormat: json` whose reply is not JSON says where and why: the
 * line and column, what was expected and what was found, and, for the usual cause, that the
 * model wrapped its JSON in a Markdown code fence. Not the engine's `Unexpected token` text.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

/** The reply's text per question. */
const REPLIES: Record<string, string> = {
  fenced: '```json\n{"answer": "Paris"}\n```',
  trailing: '{"answer": "Paris"} I hope this helps!',
  fine: '{"answer": "Paris"}',
};

const server = useLoopbackServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      messages: { content: string }[];
    };
    const content = REPLIES[body.messages.at(-1)?.content ?? ''] ?? '';
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      }),
    );
  });
});

describe('a model reply that is not the JSON responseFormat asks for', () => {
  it('says the line and column, what was found, and names a code fence', async () => {
    const dir = jsonlProject(
      Object.keys(REPLIES).map((q) => ({ q })),
      [
        'target:',
        '  type: model',
        '  model: m',
        `  baseUrl: ${server.base}/v1`,
        '  responseFormat: json',
        '  prompt: "{{ case.q }}"',
      ],
    );
    await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir);
    const [fenced, trailing, fine] = artifactCases(dir)[0]!.cases.map((c) => c.error ?? '');
    assert.equal(
      fenced,
      "the model's reply is not JSON (responseFormat asks for JSON): line 1, column 1: expected a value, found '`'; it is wrapped in a Markdown code fence (```): the server did not hold the model to JSON mode (ask for bare JSON in the prompt)",
    );
    assert.equal(
      trailing,
      'the model\'s reply is not JSON (responseFormat asks for JSON): line 1, column 21: unexpected "I" after the JSON value',
    );
    assert.equal(fine, '');
  });
});
