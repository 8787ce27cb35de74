/**
 * The configHash covers the human overrides a judge is shown, and only those: an `llm-judge`
 * with `overrides: N` reads the N most recent overrides of its own evaluator id, so an override
 * of another evaluator (or one behind the N newest) must leave the hash alone — else `--resume`
 * refuses, shards will not merge and comparisons see a changed config where the judge saw none.
 * A module evaluator, which may read any of the store, still has the whole file covered.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig } from '../src/pipeline/load.ts';
import { scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

const STORE = 'evals-overrides.jsonl';

/** An llm-judge evaluator, as YAML lines of a suite's `evaluators:`. */
function judge(id: string, overrides: number): string[] {
  return [
    `      - id: ${id}`,
    '        use: llm-judge',
    '        with:',
    '          prompt: "Is this friendly? {{output}}"',
    '          choices: { Friendly: 1, Not friendly: 0 }',
    `          overrides: ${overrides}`,
  ];
}

/** A project whose suites (id → evaluator lines) each run 8 recorded cases. */
function project(suites: Record<string, string[]>, url = 'http://127.0.0.1:8/v1'): string {
  const dir = scratch();
  const cases = Array.from({ length: 8 }, (_, i) => `        - { input: q${i}, output: "a${i}" }`);
  writeFiles(dir, {
    'exact.mjs': 'export const exact = () => ({ score: 1 });\n',
    'evals.yaml': [
      'version: 1',
      'defaults:',
      `  judge: { baseUrl: ${url}, apiKey: sk-test, model: judge-model }`,
      'suites:',
      ...Object.entries(suites).flatMap(([id, evaluators]) => [
        `  - id: ${id}`,
        '    testset:',
        '      cases:',
        ...cases,
        '    evaluators:',
        ...evaluators,
      ]),
      '',
    ].join('\n'),
  });
  return dir;
}

/** Appends an override of `evaluator`'s verdict on `caseId` to the project's store. */
function override(dir: string, evaluator: string, caseId: string, comments = 'too curt'): void {
  const line = {
    evaluator,
    suite: 's',
    caseId,
    createdAt: '2026-11-27T12:00:00.000Z',
    originalScore: { value: 1, name: 'Friendly' },
    overrideScore: { value: 0, name: 'Not friendly' },
    inputFields: { input: 'q0' },
    outputFields: { output: 'a0' },
    comments,
  };
  appendFileSync(join(dir, STORE), `${JSON.stringify(line)}\n`);
}

/** The configHash `evals run` would record for the project now. */
async function configHash(dir: string): Promise<string> {
  const ctx = {
    cwd: dir,
    env: { PATH: process.env.PATH },
    stdout: { write: () => true },
    stderr: { write: () => true },
  };
  return (await loadConfig(undefined, ctx)).hash;
}

describe('the overrides a judge is shown, in the configHash', () => {
  it("an override of another evaluator leaves the hash as it was; one of the judge's changes it", async () => {
    const dir = project({ s: [...judge('friendly', 2), ...judge('other', 0)] });
    override(dir, 'friendly', 'c1');
    const before = await configHash(dir);

    override(dir, 'other', 'c2');
    override(dir, 'not-in-the-config', 'c3');
    assert.equal(await configHash(dir), before, 'overrides of other evaluators are not shown');

    override(dir, 'friendly', 'c4');
    assert.notEqual(await configHash(dir), before, 'the judge is shown the new override');
  });

  it('covers the N newest of the judge, by the largest N any suite gives that id', async () => {
    const dir = project({ s: judge('friendly', 1) });
    override(dir, 'friendly', 'c1', 'first label');
    override(dir, 'friendly', 'c2');
    const before = await configHash(dir);
    // The older line is behind the newest one, the only one `overrides: 1` shows.
    const store = join(dir, STORE);
    writeFileSync(store, readFileSync(store, 'utf8').replace('first label', 'edited label'));
    assert.equal(await configHash(dir), before);
    // A second suite showing the same evaluator's two newest is shown that line.
    const wider = project({ s: judge('friendly', 1), t: judge('friendly', 2) });
    override(wider, 'friendly', 'c1', 'first label');
    override(wider, 'friendly', 'c2');
    const widerBefore = await configHash(wider);
    const widerStore = join(wider, STORE);
    writeFileSync(
      widerStore,
      readFileSync(widerStore, 'utf8').replace('first label', 'edited label'),
    );
    assert.notEqual(await configHash(wider), widerBefore);
  });

  it('a store with nothing for the judge hashes as one not written yet', async () => {
    const dir = project({ s: judge('friendly', 2) });
    const none = await configHash(dir);
    override(dir, 'other', 'c1');
    assert.equal(await configHash(dir), none);
  });

  it('with a module evaluator, which may read any override, the whole store stays covered', async () => {
    const dir = project({
      s: [...judge('friendly', 2), '      - { id: mine, use: ./exact.mjs#exact }'],
    });
    override(dir, 'friendly', 'c1');
    const before = await configHash(dir);
    override(dir, 'other', 'c2');
    assert.notEqual(await configHash(dir), before);
  });

  it('merges shards run before and after an override of another evaluator', async () => {
    server.setResponder(() => ({ toolArguments: { reason: 'polite', choice: 'Friendly' } }));
    const dir = project({ s: [...judge('friendly', 2), ...judge('other', 0)] }, server.url);
    const run = async (...args: string[]): Promise<void> => {
      const r = await runInProcess(['run', '--no-cache', ...args], dir);
      assert.ok(r.code === 0 || r.code === 1, r.stderr + r.stdout);
    };
    await run('--shard', '1/2', '-o', 's1.json');
    const first = (
      JSON.parse(readFileSync(join(dir, 's1.json'), 'utf8')) as {
        runs: { cases: { id: string }[] }[];
      }
    ).runs[0]?.cases[0];
    assert.ok(first, 'shard 1 ran a case');
    const r = await runInProcess(
      ['override', 's1.json', '--case', first.id, '--evaluator', 'other', '--score', '0'],
      dir,
    );
    assert.equal(r.code, 0, r.stderr);
    await run('--shard', '2/2', '-o', 's2.json');

    const merged = await runInProcess(['merge', 's1.json', 's2.json', '-o', 'm.json'], dir);
    assert.equal(merged.code, 0, merged.stderr);
  });
});
