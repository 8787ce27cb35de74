/**
 * `--cache-dir` takes an absolute folder as well as one relative to the working folder: the
 * judge's cache lands exactly there (it used to be put under the working folder, path and all).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

/** A two-case project scored by one LLM judge on the loopback server. */
function judgedProject(): string {
  const dir = scratch();
  writeFiles(dir, {
    'cases.csv': 'id,question\nq1,What is 1 + 1?\nq2,What is 2 + 2?\n',
    'answer.js': 'export function answer({ testCase }) { return `About ${testCase.question}`; }\n',
    'evals.yaml': `version: 1
defaults:
  judge: { model: judge-mini, baseUrl: ${server.url}, apiKey: test-key }
suites:
  - id: qa
    testset: { path: cases.csv }
    function: ./answer.js#answer
    evaluators:
      - id: relevant
        use: llm-judge
        with:
          prompt: "Question: {{case.question}}\\nAnswer: {{output}}\\nIs it on topic?"
          choices: { "yes": 1, "no": 0 }
`,
  });
  return dir;
}

describe('--cache-dir', () => {
  it('an absolute folder holds the cache itself, and a second run is served from it', async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'on topic', choice: 'yes' } }));
    const dir = judgedProject();
    const cache = join(scratch(), 'judge-cache');
    const first = await runCli(['run', '--cache-dir', cache], { cwd: dir });
    assert.equal(first.code, 0, first.stderr);
    assert.ok(existsSync(cache), 'the cache is in the folder given');
    assert.ok(readdirSync(cache, { recursive: true }).length > 0);
    assert.equal(existsSync(join(dir, cache)), false, 'nothing under the working folder');

    const sent = server.requests.length;
    const second = await runCli(['run', '--cache-dir', cache], { cwd: dir });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(server.requests.length, sent, 'every call came from the cache');
  });
});
