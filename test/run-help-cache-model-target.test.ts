/**
 * `evals run --help` says what `--no-cache` and `--cache-dir` cover as docs/config.md does: a
 * model target's calls share the judges' cache (`type: model`: "the same cache (`--no-cache`,
 * `--cache-dir`…)"). The help named judge and embedding calls only, so a user of a model target
 * had no reason to think `--no-cache` would make it ask the model again. The behaviour itself:
 * a run against a loopback chat server, once cached, once with `--no-cache`.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { tempFolder } from './helpers/temp.ts';

describe('evals run --help: the cache flags', () => {
  it('names model target calls under --no-cache and --cache-dir', async () => {
    const r = await runInProcess(['run', '--help'], tempFolder('evalgate-help-'));
    assert.equal(r.code, 0, r.stderr);
    const help = r.stdout.replace(/\s+/g, ' ');
    assert.match(help, /--no-cache Send every model call \(a model target's, a judge's/);
    assert.match(help, /--cache-dir DIR Cache of model target, judge and embedding calls/);
  });

  it('--no-cache sends a model target call the cache would have served', async () => {
    let calls = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        calls++;
        res.setHeader('content-type', 'application/json');
        const message = { role: 'assistant', content: 'hello' };
        res.end(JSON.stringify({ choices: [{ index: 0, message, finish_reason: 'stop' }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const dir = jsonlProject(
        [{ q: 'hi' }],
        [
          `target: { type: model, baseUrl: "http://127.0.0.1:${port}/v1", apiKey: k, model: m, prompt: "{{case.q}}" }`,
          'evaluators: [{ use: is-equals, with: { expected: hello } }]',
        ],
      );
      const first = await runInProcess(['run'], dir);
      assert.equal(first.code, 0, first.stderr);
      const cached = await runInProcess(['run'], dir);
      assert.equal(cached.code, 0, cached.stderr);
      assert.equal(calls, 1, 'the second run is served from the cache');
      const fresh = await runInProcess(['run', '--no-cache'], dir);
      assert.equal(fresh.code, 0, fresh.stderr);
      assert.equal(calls, 2, '--no-cache asks the server again');
    } finally {
      server.close();
    }
  });
});
