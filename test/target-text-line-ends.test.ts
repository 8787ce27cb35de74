/**
 * A command's stdout, an http target's text answer and a model's text reply written with Windows
 * line ends (CRLF) are scored with LF line ends, as the testset's cells are read: `is-equals`
 * against a multi-line `expected` passes whether the program or server wrote `\r\n` or `\n`.
 * A lone CR is kept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';
import { chatReply, modelTarget, onlyCase } from './helpers/text-target.ts';

/**
 * Answers `/crlf` with two CRLF-ended lines as text, `/cr` with a lone CR in a line, and
 * `/v1/chat/completions` with a chat completion whose text has CRLF line ends.
 */
const server = useLoopbackServer((req, res) => {
  req.resume();
  if (req.url === '/v1/chat/completions') {
    chatReply(res, 'line one\r\nline two');
    return;
  }
  const body = req.url === '/cr' ? 'line one\rline two' : 'line one\r\nline two';
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(body);
});

const ROWS = [{ expected: 'line one\nline two' }];

const EQUALS = [
  'evaluators:',
  '  - { id: eq, use: is-equals, with: { expected: "{{ case.expected }}" } }',
];

describe('text outputs written with CRLF line ends', () => {
  it("a command's stdout is scored with LF line ends, its trailing line breaks dropped", async () => {
    const dir = jsonlProject(
      ROWS,
      ['target:', '  type: command', '  run: [node, script.cjs]', ...EQUALS],
      { 'script.cjs': "process.stdout.write('line one\\r\\nline two\\r\\n\\r\\n');" },
    );
    assert.deepEqual(await onlyCase(dir), { code: 0, output: 'line one\nline two', error: '' });
  });

  it("an http target's text answer is scored with LF line ends", async () => {
    const dir = jsonlProject(ROWS, [
      'target:',
      '  type: http',
      `  url: ${server.base}/crlf`,
      ...EQUALS,
    ]);
    assert.deepEqual(await onlyCase(dir), { code: 0, output: 'line one\nline two', error: '' });
  });

  it("a model target's text reply is scored with LF line ends", async () => {
    const dir = jsonlProject(ROWS, [...modelTarget(server.base), ...EQUALS]);
    assert.deepEqual(await onlyCase(dir), { code: 0, output: 'line one\nline two', error: '' });
  });

  it('a lone CR is not a line end and is kept', async () => {
    const dir = jsonlProject(ROWS, [
      'target:',
      '  type: http',
      `  url: ${server.base}/cr`,
      ...EQUALS,
    ]);
    const run = await onlyCase(dir);
    assert.equal(run.code, 1);
    assert.equal(run.output, 'line one\rline two');
  });
});
