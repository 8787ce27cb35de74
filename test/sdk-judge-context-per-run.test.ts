/**
 * An SDK judge class instance shared by several `runTestSuite` calls (one after the other, or
 * awaited together) takes each call's `judge` settings and suite id for that call's cases: its
 * model calls go where that call says, and an automatic battle keeps each suite's baselines
 * under that suite. The context belongs to the run, not to the instance, so a first call does not
 * fix it for the ones after (nor a concurrent one swap it under another).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createJudgeClient } from '../src/judge/client.ts';
import {
  BaseAccuracy,
  BaseAutomaticBattle,
  runTestSuite,
  type SuiteJudgeSettings,
  type TestEvaluator,
} from 'evalgate/testing';
import { startOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

interface Case {
  input: string;
  expected: string;
}

let serverA: OpenAiServer;
let serverB: OpenAiServer;
const tempDirs: string[] = [];

before(async () => {
  [serverA, serverB] = await Promise.all([startOpenAiServer(), startOpenAiServer()]);
});
after(async () => {
  await Promise.all([serverA.close(), serverB.close()]);
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});
beforeEach(() => {
  for (const server of [serverA, serverB]) {
    server.reset();
    // Slow enough that two suites awaited together have calls in flight at the same time.
    server.setDefault({ delayMs: 15, toolArguments: { reason: 'same', choice: 'correct' } });
  }
});

/** A judge class without a `model` of its own: the run's `judge.model` applies. */
class Matches extends BaseAccuracy<Case, string> {
  id = 'matches';
  outputMapper({ output }: { output: string }): string {
    return output;
  }
  expectedOutputMapper({ testCase }: { testCase: Case }): string {
    return testCase.expected;
  }
}

class Battle extends BaseAutomaticBattle<Case, string> {
  id = 'battle';
  criteria = 'The more helpful answer.';
  outputMapper({ output }: { output: string }): string {
    return output;
  }
}

function settings(server: OpenAiServer, model: string): SuiteJudgeSettings {
  return {
    client: createJudgeClient({ baseUrl: server.url, apiKey: 'sk-test', cacheDir: null, env: {} }),
    model,
  };
}

/** A suite of three cases whose inputs start with its id, judged by `evaluator`. */
function suite(
  id: string,
  evaluator: TestEvaluator<Case, string>,
  judge: SuiteJudgeSettings,
  baselinesDir?: string,
) {
  return runTestSuite<Case, string>({
    id,
    testCases: [1, 2, 3].map((i) => ({ input: `${id} case ${i}`, expected: `${id} case ${i}` })),
    testCaseHash: ['input'],
    fn: ({ testCase }) => testCase.input,
    evaluators: [evaluator],
    judge,
    // Recorded whether or not the tests run in CI, where a plain run records nothing.
    ...(baselinesDir !== undefined ? { baselinesDir, updateBaselines: true } : {}),
    maxTestCaseConcurrency: 3,
    quiet: true,
    setExitCode: false,
  });
}

/** The model of each request `server` got, and which suite's case it judged. */
function callsOf(server: OpenAiServer): { model: string; suite: string }[] {
  return server.requests.map((request) => {
    const body = request.body as { model: string; messages: { content: string }[] };
    const text = body.messages.map((message) => message.content).join('\n');
    return { model: body.model, suite: /\b(one|two) case/.exec(text)?.[1] ?? '?' };
  });
}

function assertEachSuiteOnItsOwnServer(): void {
  assert.deepEqual(
    callsOf(serverA),
    [1, 2, 3].map(() => ({ model: 'model-a', suite: 'one' })),
    'suite one judged on server A with model-a',
  );
  assert.deepEqual(
    callsOf(serverB),
    [1, 2, 3].map(() => ({ model: 'model-b', suite: 'two' })),
    'suite two judged on server B with model-b',
  );
}

/** The outputs a baselines file holds, sorted. */
async function baselinesIn(dir: string, suiteId: string): Promise<string[]> {
  const text = await readFile(join(dir, 'battles', suiteId, 'battle.json'), 'utf8');
  const file = JSON.parse(text) as { baselines: Record<string, { output: unknown }> };
  return Object.values(file.baselines)
    .map((b) => String(b.output))
    .sort();
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'evalgate-judge-context-'));
  tempDirs.push(dir);
  return dir;
}

describe('an SDK judge instance shared by two runTestSuite calls', () => {
  it("one after the other: each call's cases go to its own judge server and model", async () => {
    const judge = new Matches();
    const one = await suite('one', judge, settings(serverA, 'model-a'));
    const two = await suite('two', judge, settings(serverB, 'model-b'));
    assert.deepEqual([one.verdict, two.verdict], ['pass', 'pass']);
    assertEachSuiteOnItsOwnServer();
  });

  it("awaited together: each call's cases go to its own judge server and model", async () => {
    const judge = new Matches();
    const results = await Promise.all([
      suite('one', judge, settings(serverA, 'model-a')),
      suite('two', judge, settings(serverB, 'model-b')),
    ]);
    assert.deepEqual(
      results.map((r) => r.verdict),
      ['pass', 'pass'],
    );
    assertEachSuiteOnItsOwnServer();
  });

  it("awaited together, keeps the instance's maxConcurrency across both calls", async () => {
    const judge = new Matches();
    judge.maxConcurrency = 1;
    await Promise.all([
      suite('one', judge, settings(serverA, 'model-a')),
      suite('two', judge, settings(serverA, 'model-b')),
    ]);
    assert.equal(serverA.requests.length, 6);
    assert.equal(serverA.maxInFlight, 1);
    assert.deepEqual(
      callsOf(serverA)
        .map((c) => `${c.model} ${c.suite}`)
        .sort(),
      ['model-a one', 'model-a one', 'model-a one', 'model-b two', 'model-b two', 'model-b two'],
    );
  });

  it('an automatic battle, one after the other, records each suite under its own id', async () => {
    const dir = await tempDir();
    const battle = new Battle();
    await suite('one', battle, settings(serverA, 'model-a'), dir);
    await suite('two', battle, settings(serverB, 'model-b'), dir);
    assert.deepEqual(await baselinesIn(dir, 'one'), ['one case 1', 'one case 2', 'one case 3']);
    assert.deepEqual(await baselinesIn(dir, 'two'), ['two case 1', 'two case 2', 'two case 3']);
  });

  it('an automatic battle, awaited together, records each suite under its own id', async () => {
    const dir = await tempDir();
    const battle = new Battle();
    await Promise.all([
      suite('one', battle, settings(serverA, 'model-a'), dir),
      suite('two', battle, settings(serverB, 'model-b'), dir),
    ]);
    assert.deepEqual(await baselinesIn(dir, 'one'), ['one case 1', 'one case 2', 'one case 3']);
    assert.deepEqual(await baselinesIn(dir, 'two'), ['two case 1', 'two case 2', 'two case 3']);
  });

  it('an automatic battle battles each suite against its own baselines, on its own server', async () => {
    const dir = await tempDir();
    const battle = new Battle();
    // Recorded first, one suite at a time, by instances of their own.
    await suite('one', new Battle(), settings(serverA, 'model-a'), dir);
    await suite('two', new Battle(), settings(serverB, 'model-b'), dir);
    for (const server of [serverA, serverB]) {
      server.reset();
      server.setDefault({ delayMs: 15, toolArguments: { reason: 'same', choice: 'tie' } });
    }
    const results = await Promise.all([
      suite('one', battle, settings(serverA, 'model-a'), dir),
      suite('two', battle, settings(serverB, 'model-b'), dir),
    ]);
    for (const result of results) {
      const cases = result.runs[0]?.cases ?? [];
      assert.equal(cases.length, 3);
      for (const c of cases) assert.equal(c.evaluations[0]?.metadata?.recorded, undefined);
    }
    // Each battle is judged twice (both orders): six calls a suite, each on its suite's server.
    assert.deepEqual(
      [...new Set(callsOf(serverA).map((c) => `${c.model} ${c.suite}`))],
      ['model-a one'],
    );
    assert.deepEqual(
      [...new Set(callsOf(serverB).map((c) => `${c.model} ${c.suite}`))],
      ['model-b two'],
    );
    assert.equal(serverA.requests.length + serverB.requests.length, 12);
  });
});
