/**
 * An SDK judge class instance exported once and named by two suites of evals.yaml judges each
 * suite's cases with that entry's `judge:` settings, and an exported automatic battle keeps each
 * suite's baselines under that suite: the context is the entry's, not the instance's, so the
 * first entry bound does not fix it for the others. An exported instance without an `id` of its
 * own (a JavaScript module may leave it out) is named by the config and runs all the same.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, beforeEach, describe, it } from 'node:test';
import { repoRoot, scratch, writeFiles } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { startOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

const TESTING = pathToFileURL(join(repoRoot, 'src', 'testing.ts')).href;

let serverA: OpenAiServer;
let serverB: OpenAiServer;

before(async () => {
  [serverA, serverB] = await Promise.all([startOpenAiServer(), startOpenAiServer()]);
});
after(() => Promise.all([serverA.close(), serverB.close()]));
beforeEach(() => {
  for (const server of [serverA, serverB]) {
    server.reset();
    server.setDefault({ toolArguments: { reason: 'warm', choice: 'Friendly' } });
  }
});

const MODULE = [
  `import { BaseAutomaticBattle, BaseLLMJudge } from ${JSON.stringify(TESTING)};`,
  // Without an id of their own, as a JavaScript module may leave them: the config names them.
  'class FriendlyJudge extends BaseLLMJudge<{ input: string }, string> {',
  "  scoreChoices = [{ name: 'Friendly', value: 1 }, { name: 'Not friendly', value: 0 }];",
  '  makePrompt({ output }: { output: string }): string {',
  '    return `Is the output friendly?\\n\\n[Output]\\n${output}`;',
  '  }',
  '}',
  'class BattleJudge extends BaseAutomaticBattle<{ input: string }, string> {',
  '  outputMapper({ output }: { output: string }): string {',
  '    return output;',
  '  }',
  '}',
  "class IsFriendly extends FriendlyJudge { id = 'friendly'; }",
  "class Battle extends BattleJudge { id = 'battle'; }",
  'export const friendly = new IsFriendly();',
  'export const battle = new Battle();',
  'export const nameless = new FriendlyJudge();',
  'export const namelessBattle = new BattleJudge();',
  '',
].join('\n');

/** Suites `one` and `two`, each naming the export `name` with its own server and model. */
function project(name: string): string {
  const dir = scratch();
  const suite = (id: string, server: OpenAiServer, model: string) => [
    `  - id: ${id}`,
    '    testset:',
    '      cases:',
    `        - { input: hi, output: "${id} says hello" }`,
    '    evaluators:',
    `      - use: ./judges.ts#${name}`,
    `        judge: { baseUrl: ${server.url}, model: ${model} }`,
  ];
  writeFiles(dir, {
    'judges.ts': MODULE,
    'evals.yaml': [
      'version: 1',
      'defaults:',
      '  judge: { apiKey: sk-test }',
      'suites:',
      ...suite('one', serverA, 'model-a'),
      ...suite('two', serverB, 'model-b'),
      '',
    ].join('\n'),
  });
  return dir;
}

/** The model of each request `server` got, and the output it judged. */
function callsOf(server: OpenAiServer): string[] {
  return server.requests.map((request) => {
    const body = request.body as { model: string; messages: { content: string }[] };
    const text = body.messages.map((message) => message.content).join('\n');
    return `${body.model}: ${/\b(one|two) says hello/.exec(text)?.[0] ?? '?'}`;
  });
}

describe('an SDK judge instance two evals.yaml suites name', () => {
  it("judges each suite's cases with that entry's judge: settings", async () => {
    const dir = project('friendly');
    const r = await runInProcess(['run', '--no-cache'], dir);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.deepEqual(callsOf(serverA), ['model-a: one says hello']);
    assert.deepEqual(callsOf(serverB), ['model-b: two says hello']);
  });

  it("keeps an automatic battle's baselines under each suite", async () => {
    await assertBaselinesPerSuite('battle', 'battle');
  });

  it('without an id of its own, judges under the config id with each entry settings', async () => {
    const dir = project('nameless');
    const r = await runInProcess(['run', '--no-cache'], dir);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.deepEqual(callsOf(serverA), ['model-a: one says hello']);
    assert.deepEqual(callsOf(serverB), ['model-b: two says hello']);
  });

  it('an automatic battle without an id of its own keeps its baselines under the config id', async () => {
    await assertBaselinesPerSuite('namelessBattle', 'namelessBattle');
  });
});

/** Runs the suites with the battle exported as `name`: each suite's file holds its own output. */
async function assertBaselinesPerSuite(name: string, evaluatorId: string): Promise<void> {
  const dir = project(name);
  const r = await runInProcess(['run', '--no-cache', '--update-baselines'], dir);
  // The SDK's class gives a case it records no evaluation (as in the SDK), so a suite of that
  // battle alone judged nothing on the run that recorded it: it passes, saying so.
  assert.equal(r.code, 0, r.stderr + r.stdout);
  assert.match(
    r.stdout,
    /note: judged: expected at least 1 case evaluated, got baselines recorded for 1 case; nothing judged yet/,
  );
  for (const id of ['one', 'two']) {
    const path = join(dir, 'battles', id, `${evaluatorId}.json`);
    const file = JSON.parse(readFileSync(path, 'utf8')) as {
      baselines: Record<string, { output: unknown }>;
    };
    assert.deepEqual(
      Object.values(file.baselines).map((b) => b.output),
      [`${id} says hello`],
      `battles/${id}/${evaluatorId}.json`,
    );
  }
}
