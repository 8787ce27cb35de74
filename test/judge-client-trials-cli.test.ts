/**
 * With `trials: N`, a judge client made in code caches each trial's calls as that trial's
 * (docs/judges.md), so that the trials of one run never share an answer. Under `evals run` the
 * trials are the CLI bundle's, and the client the package's `createJudgeClient` (lib/index.js):
 * two copies of the module holding the trial scope. It is shared through the process; before,
 * the client saw no trial, and every trial after the first was served trial 1's cached answer.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli } from './helpers/cli.ts';
import { packageClientProject } from './helpers/package-client.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

describe('a judge client made in code, under evals run with trials', () => {
  it("caches each trial's call as that trial's: the trials get their own answers", async () => {
    server.reset();
    let calls = 0;
    server.setResponder(() => ({ content: `answer ${++calls}` }));
    const dir = packageClientProject(
      server.url,
      [
        'version: 1',
        // One call at a time: trials in flight together would all miss the cache anyway.
        'defaults: { concurrency: 1 }',
        'suites:',
        '  - id: s',
        '    testset: { path: rows.csv }',
        '    function: ./fn.mjs#fn',
        '    trials: 3',
        '    evaluators: [ { id: ok, use: contains, with: { values: [answer] } } ]',
        '',
      ].join('\n'),
      'answer.ok ? answer.message.content : answer.error.message',
    );
    const r = await runCli(['run', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as ResultsArtifact;
    const trials = out.runs[0]?.cases[0]?.trials?.map((trial) => trial.output);
    assert.deepEqual(trials?.toSorted(), ['answer 1', 'answer 2', 'answer 3'], r.stdout);
    assert.equal(calls, 3, 'one call a trial, none served another trial its answer');
  });
});
