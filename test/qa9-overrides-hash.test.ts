/**
 * The human overrides a judge appends to its prompt are part of the config's hash: shards or a
 * resumed run whose judge was shown other overrides are refused, naming the store, as an edited
 * prompt file is.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

function project(overrides: number, module = false): string {
  const dir = scratch();
  const cases = Array.from({ length: 8 }, (_, i) => `        - { input: q${i}, output: "a${i}" }`);
  writeFiles(dir, {
    'exact.mjs': 'export const exact = () => ({ score: 1 });\n',
    'evals.yaml': [
      'version: 1',
      'defaults:',
      `  judge: { baseUrl: ${server.url}, apiKey: sk-test, model: judge-model }`,
      'suites:',
      '  - id: s',
      '    testset:',
      '      cases:',
      ...cases,
      '    evaluators:',
      '      - id: friendly',
      '        use: llm-judge',
      '        with:',
      '          prompt: "Is this friendly? {{output}}"',
      '          choices: { Friendly: 1, Not friendly: 0 }',
      `          overrides: ${overrides}`,
      ...(module ? ['      - { id: mine, use: ./exact.mjs#exact }'] : []),
      '',
    ].join('\n'),
  });
  return dir;
}

interface Artifact {
  configHash: string;
  configHashParts?: { promptFiles?: Record<string, string | null> };
  runs: { cases: { id: string }[] }[];
}

function artifact(dir: string, file: string): Artifact {
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as Artifact;
}

async function run(dir: string, ...args: string[]): Promise<void> {
  const r = await runInProcess(['run', '--no-cache', ...args], dir);
  assert.ok(r.code === 0 || r.code === 1, r.stderr + r.stdout);
}

describe('the overrides store in the configHash', () => {
  it('refuses to merge shards run before and after an override, naming the store', async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'polite', choice: 'Friendly' } }));
    const dir = project(2);
    await run(dir, '--shard', '1/2', '-o', 's1.json');
    const first = artifact(dir, 's1.json').runs[0]?.cases[0];
    assert.ok(first, 'shard 1 ran a case');
    const r = await runInProcess(
      ['override', 's1.json', '--case', first.id, '--evaluator', 'friendly', '--score', '0'],
      dir,
    );
    assert.equal(r.code, 0, r.stderr);
    await run(dir, '--shard', '2/2', '-o', 's2.json');
    assert.notEqual(artifact(dir, 's1.json').configHash, artifact(dir, 's2.json').configHash);

    const merged = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'm.json'], dir);
    assert.equal(merged.code, 2, merged.stdout);
    assert.match(merged.stderr, /evals-overrides\.jsonl changed/);
  });

  it('counts a store not written yet as an empty one', async () => {
    const dir = project(2);
    await run(dir, '-o', 'a.json');
    writeFileSync(join(dir, 'evals-overrides.jsonl'), '');
    await run(dir, '-o', 'b.json');
    const [a, b] = [artifact(dir, 'a.json'), artifact(dir, 'b.json')];
    assert.equal(a.configHash, b.configHash);
    assert.ok(a.configHashParts?.promptFiles?.['evals-overrides.jsonl'], 'the store is covered');
  });

  it('leaves the store out when nothing reads it, and covers it for module evaluators', async () => {
    const none = project(0);
    appendFileSync(join(none, 'evals-overrides.jsonl'), '');
    await run(none, '-o', 'a.json');
    assert.equal(artifact(none, 'a.json').configHashParts?.promptFiles, undefined);

    const withModule = project(0, true);
    await run(withModule, '-o', 'a.json');
    assert.equal(artifact(withModule, 'a.json').configHashParts?.promptFiles, undefined);
    appendFileSync(join(withModule, 'evals-overrides.jsonl'), '');
    await run(withModule, '-o', 'b.json');
    const parts = artifact(withModule, 'b.json').configHashParts?.promptFiles;
    assert.ok(parts?.['evals-overrides.jsonl'], 'a module evaluator may read the store');
  });
});
