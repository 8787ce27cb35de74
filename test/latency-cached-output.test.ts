/**
 * `latency` timed the call that produced the output; a model target re-run with nothing changed
 * is served from the response cache, whose few milliseconds passed any `max`. So a run that
 * failed its latency check passed it on the next run, with the same outputs and no request
 * made. A cached output is now that evaluation's error, saying to run with `--no-cache`; an
 * output the model answered is timed as before. The real CLI against a slow loopback model.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

/** A model target over two rows, checked by `latency` with a 2 s limit. */
function project(): string {
  const dir = scratch();
  writeFiles(dir, {
    'rows.csv': 'q\nq1\nq2\n',
    'evals.yaml': [
      'version: 1',
      'suites:',
      '  - id: s',
      '    testset: { path: rows.csv }',
      '    target:',
      '      type: model',
      '      model: m',
      `      baseUrl: ${server.url}`,
      '      apiKey: test-key',
      '      prompt: "Say {{ case.q }}"',
      '    evaluators:',
      '      - { use: latency, with: { max: 2s } }',
      '',
    ].join('\n'),
  });
  return dir;
}

const CACHED =
  /error: the output came from the response cache, so no call was timed: run with --no-cache to measure latency/;

describe('latency of an output served from the response cache', () => {
  it('a slow model fails, and its cached re-run does not pass', async () => {
    server.setDefault({ delayMs: 2500 });
    const dir = project();
    const first = await runCli(['run', '-o', 'first.json'], { cwd: dir });
    assert.equal(first.code, 1, first.stdout + first.stderr);
    assert.match(first.stdout, /latency 0 \(needs ≥ 1\): took [\d,]+ ms > max 2,000 ms/);

    const sent = server.requests.length;
    const second = await runCli(['run', '-o', 'second.json'], { cwd: dir });
    assert.equal(server.requests.length, sent, 'served from the cache');
    assert.equal(second.code, 1, second.stdout + second.stderr);
    assert.match(second.stdout, /model calls: 2, all from the cache/);
    const shown = await runCli(['show', 'second.json', '--failed'], { cwd: dir });
    assert.match(shown.stdout, CACHED);
  });

  it('a fast model passes, timed on every run with --no-cache', async () => {
    const dir = project();
    for (const name of ['a.json', 'b.json']) {
      const r = await runCli(['run', '--no-cache', '-o', name], { cwd: dir });
      assert.equal(r.code, 0, r.stdout + r.stderr);
    }
  });
});
