/**
 * The prompt and message files of a model target are part of the config (configHash): a run
 * interrupted before `prompts/p.md` was edited is not resumed with the edited prompt, and shards
 * run with two versions of it are not merged, since either would make one artifact of two
 * prompts' answers. A checkout that changes only the file's line ends or adds a BOM is the same.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { writeInterrupted } from './helpers/interrupted-artifact.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

const ROWS = [{ q: 'a' }, { q: 'b' }, { q: 'c' }, { q: 'd' }];

function project(): string {
  return jsonlProject(
    ROWS,
    [
      'grid: { prompt: [p] }',
      'target:',
      '  type: model',
      '  model: m',
      `  baseUrl: ${server.url}`,
      '  apiKey: sk-test-key-1',
      '  messages:',
      '    - { role: system, content: { file: "prompts/{{params.prompt}}.md" } }',
      '    - { role: user, content: "{{case.q}}" }',
      'evaluators: [ { use: contains, with: { values: ["{{case.q}}"] } } ]',
    ],
    { 'prompts/p.md': 'Answer briefly.\n' },
  );
}

const NO_CACHE = ['--no-cache'];

describe('prompt files in the configHash', () => {
  it('refuses to resume a run whose prompt file was edited since', async () => {
    const dir = project();
    const full = await runInProcess(['run', '-o', 'full.json', ...NO_CACHE], dir, {});
    assert.equal(full.code, 0, full.stderr);
    writeInterrupted(dir, 'full.json', 'partial.json', 2);
    writeFileSync(join(dir, 'prompts/p.md'), 'Answer at length.\n');
    const r = await runInProcess(['run', '--resume', 'partial.json', ...NO_CACHE], dir, {});
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /partial\.json was written by another config .*prompt/);
  });

  it('resumes when only the line ends or a BOM of the prompt file changed', async () => {
    const dir = project();
    const full = await runInProcess(['run', '-o', 'full.json', ...NO_CACHE], dir, {});
    assert.equal(full.code, 0, full.stderr);
    writeInterrupted(dir, 'full.json', 'partial.json', 2);
    writeFileSync(join(dir, 'prompts/p.md'), '\ufeffAnswer briefly.\r\n');
    const r = await runInProcess(
      ['run', '--resume', 'partial.json', '-o', 'out.json', ...NO_CACHE],
      dir,
      {},
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const out = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as { interrupted: boolean };
    assert.equal(out.interrupted, false);
  });

  it('refuses to merge shards run with two versions of the prompt file', async () => {
    const dir = project();
    const one = await runInProcess(
      ['run', '--shard', '1/2', '-o', 's1.json', ...NO_CACHE],
      dir,
      {},
    );
    assert.equal(one.code, 0, one.stderr);
    writeFileSync(join(dir, 'prompts/p.md'), 'Answer at length.\n');
    const two = await runInProcess(
      ['run', '--shard', '2/2', '-o', 's2.json', ...NO_CACHE],
      dir,
      {},
    );
    assert.equal(two.code, 0, two.stderr);
    const r = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'm.json'], dir, {});
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.match(r.stderr, /different configs \(configHash\).*prompt/);
  });
});
