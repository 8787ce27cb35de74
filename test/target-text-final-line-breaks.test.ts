/**
 * A text output ends without its trailing line breaks, whichever target made it, as a shell's
 * `$(...)` reads a program's output: a command's stdout, an http target's text answer and a
 * model target's text reply ending in `Paris\n` are all scored as `Paris`, so `is-equals:
 * Paris` passes for each. A line break inside the text, and a JSON answer's string, are kept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';
import { chatReply, modelTarget, onlyCase } from './helpers/text-target.ts';

/**
 * `/v1/chat/completions`: a chat completion whose text is `Paris\n`; `/json`: the JSON string
 * `"Paris\n"`; anything else: `line\nParis\r\n\n` as text.
 */
const server = useLoopbackServer((req, res) => {
  req.resume();
  if (req.url === '/v1/chat/completions') {
    chatReply(res, 'Paris\n');
    return;
  }
  if (req.url === '/json') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify('Paris\n'));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('line\nParis\r\n\n');
});

const EQUALS = ['evaluators:', '  - { id: eq, use: is-equals, with: { expected: Paris } }'];

describe('the trailing line breaks of a text output', () => {
  it("are dropped from a command's stdout", async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: command', '  run: [node, p.cjs]', ...EQUALS],
      {
        'p.cjs': "process.stdout.write('Paris\\n\\n');",
      },
    );
    assert.deepEqual(await onlyCase(dir), { code: 0, output: 'Paris', error: '' });
  });

  it("are dropped from an http target's text answer, a line break inside it kept", async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: http', `  url: ${server.base}/text`],
    );
    assert.deepEqual(await onlyCase(dir), { code: 0, output: 'line\nParis', error: '' });
  });

  it("are dropped from a model target's text reply", async () => {
    const dir = jsonlProject([{ q: 'a' }], [...modelTarget(server.base), ...EQUALS]);
    assert.deepEqual(await onlyCase(dir), { code: 0, output: 'Paris', error: '' });
  });

  it("are kept in a JSON answer's string, which is data as sent", async () => {
    const dir = jsonlProject(
      [{ q: 'a' }],
      ['target:', '  type: http', `  url: ${server.base}/json`],
    );
    assert.deepEqual(await onlyCase(dir), { code: 0, output: 'Paris\n', error: '' });
  });
});
