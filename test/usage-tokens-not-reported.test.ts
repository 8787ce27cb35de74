/**
 * A server that answers without `usage` (some gateways, a local server) reports no token
 * counts: the summary said `tokens: 0 prompt + 0 completion`, which reads as calls that cost
 * nothing. It now says `tokens: none reported`, as the cost beside it says why it is unknown.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useLoopbackServer } from './helpers/loopback-server.ts';

const server = useLoopbackServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Paris' } }] }));
  });
});

describe('model calls whose answers report no token counts', () => {
  it('say tokens: none reported, not 0 prompt + 0 completion', async () => {
    const dir = jsonlProject(
      [{ q: 'a' }, { q: 'b' }],
      [
        'target:',
        '  type: model',
        '  model: m',
        `  baseUrl: ${server.base}/v1`,
        '  apiKey: local',
        '  prompt: "{{ case.q }}"',
      ],
    );
    const result = await runInProcess(['run', '--no-cache', '-o', 'results.json'], dir);
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(
      result.stdout,
      /model calls: 2 · tokens: none reported · cost: unknown \(no price for a model used, or tokens not reported\) · time in calls: /,
    );
    const shown = await runInProcess(['show', 'results.json', '--limit', '1'], dir);
    assert.match(shown.stdout, /model calls: 1 · tokens: none reported · cost: unknown/);
  });
});
