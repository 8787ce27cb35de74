/**
 * `latency` timed the call that produced the output; a model target re-run with nothing changed
 * is served from the response cache, whose few milliseconds passed any `max`. So a run that
 * failed its latency check passed it on the next run, with the same outputs and no request
 * made. A cache entry now records how long its call took, and a cached output is timed by that
 * (the case's `durationMs` too); an entry that recorded no time (an earlier evalgate's) makes
 * the evaluation an error, never a pass. The real CLI against a slow loopback model.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** The case durations an artifact records, by case id. */
function durations(dir: string, file: string): number[] {
  const artifact = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    runs: { cases: { durationMs: number }[] }[];
  };
  return artifact.runs[0]!.cases.map((c) => c.durationMs);
}

/** Every entry file of the project's response cache. */
function cacheEntries(dir: string): string[] {
  const root = join(dir, '.evalgate', 'cache');
  return readdirSync(root).flatMap((fan) =>
    readdirSync(join(root, fan)).map((name) => join(root, fan, name)),
  );
}

const SLOW = /latency 0 \(needs ≥ 1\): took [\d,]+ ms > max 2,000 ms/;

describe('latency of an output served from the response cache', () => {
  it('a slow model fails, and its cached re-run fails the same, timed by the recorded call', async () => {
    server.setDefault({ delayMs: 2500 });
    const dir = project();
    const first = await runCli(['run', '-o', 'first.json'], { cwd: dir });
    assert.equal(first.code, 1, first.stdout + first.stderr);
    assert.match(first.stdout, SLOW);

    const sent = server.requests.length;
    const second = await runCli(['run', '-o', 'second.json'], { cwd: dir });
    assert.equal(server.requests.length, sent, 'served from the cache');
    assert.equal(second.code, 1, second.stdout + second.stderr);
    assert.match(second.stdout, /model calls: 2, all from the cache/);
    assert.match(second.stdout, SLOW);
    // The cached cases are timed by the calls that got their answers, not by the look-up.
    for (const ms of durations(dir, 'second.json')) assert.ok(ms >= 2500, `durationMs ${ms}`);
  });

  it('an entry that recorded no time (an earlier evalgate) is an error, not a pass', async () => {
    server.setDefault({ delayMs: 2500 });
    const dir = project();
    assert.equal((await runCli(['run', '-o', 'first.json'], { cwd: dir })).code, 1);
    const entries = cacheEntries(dir);
    assert.equal(entries.length, 2);
    for (const file of entries) {
      const entry = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      assert.equal(typeof entry.latencyMs, 'number', 'the entry records its time');
      delete entry.latencyMs;
      writeFileSync(file, `${JSON.stringify(entry)}\n`);
    }
    const second = await runCli(['run', '-o', 'second.json'], { cwd: dir });
    assert.equal(second.code, 1, second.stdout + second.stderr);
    const shown = await runCli(['show', 'second.json', '--failed'], { cwd: dir });
    assert.match(
      shown.stdout,
      /error: the output came from a response cache entry that recorded no time \(written by an earlier evalgate\), so no call was timed: delete the response cache \(\.evalgate\/cache, or the --cache-dir folder\) and run again/,
    );
    // --no-cache stores nothing, so it is no cure (the message once said it was): the entries
    // still have no time on the next run.
    assert.equal((await runCli(['run', '--no-cache', '-o', 'fresh.json'], { cwd: dir })).code, 1);
    const third = await runCli(['run', '-o', 'third.json'], { cwd: dir });
    assert.equal(third.code, 1, third.stdout + third.stderr);
    assert.match(third.stdout, /2 × latency: error: the output/);
  });

  it('a fast model passes, on its first run and from the cache', async () => {
    const dir = project();
    for (const name of ['a.json', 'b.json']) {
      const r = await runCli(['run', '-o', name], { cwd: dir });
      assert.equal(r.code, 0, r.stdout + r.stderr);
    }
  });
});
