/**
 * A run whose judge errored on every case (its server answered 500 to each call) evaluated
 * nothing. Its cases failed, which the default gate fails; but `minPassRate: 0` passed it, exit 0,
 * although a run whose every case errored fails the `judged` condition under the same gate. It now
 * fails `judged` too, naming the evaluator; a judge that gave one verdict, a `pass:` function, and
 * one shard (judged whole once merged) are not failed for it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

/** Three recorded outputs judged by one LLM judge on the loopback server, with `suite` lines added. */
function judgedProject(suite: string[] = ['gate: { minPassRate: 0 }']): string {
  const dir = scratch();
  writeFiles(dir, {
    'rows.csv': 'q,output\nq1,a\nq2,b\nq3,c\n',
    'pass.mjs': 'export function decide() { return true; }\n',
    'evals.yaml': [
      'version: 1',
      'defaults:',
      `  judge: { model: judge-mini, baseUrl: ${server.url}, apiKey: test-key, maxRetries: 0 }`,
      'suites:',
      '  - id: s',
      '    testset: { path: rows.csv }',
      '    evaluators:',
      '      - id: helpful',
      '        use: llm-judge',
      '        with: { prompt: "Is {{ output }} helpful?", choices: { "yes": 1, "no": 0 } }',
      '        threshold: { gte: 1 }',
      ...suite.map((line) => `    ${line}`),
      '',
    ].join('\n'),
  });
  return dir;
}

interface Condition {
  name: string;
  actual: string;
  passed: boolean;
}

function conditions(dir: string, file = 'out.json'): Condition[] {
  const artifact = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    runs: { gate: { conditions: Condition[] } }[];
  };
  return artifact.runs[0]?.gate.conditions ?? [];
}

const JUDGED =
  /✗ judged: expected at least 1 case evaluated, got none of the 3 cases that ran: every evaluation of helpful errored/;

describe('a run whose every evaluation errored does not pass', () => {
  it('minPassRate: 0 with a judge answering 500 to every call: exit 1, judged failed', async () => {
    server.setDefault({ status: 500, body: { error: { message: 'down' } } });
    const dir = judgedProject();
    const r = await runCli(['run', '--no-cache', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, JUDGED);
    const judged = conditions(dir).find((c) => c.name === 'judged');
    assert.equal(judged?.passed, false);
  });

  it('one verdict among the errors is a check: minPassRate: 0 passes', async () => {
    // q1 gets a verdict, the others a 500.
    server.setResponder((request) =>
      request.text.includes('q1') || request.text.includes('Is a ')
        ? { toolArguments: { reason: 'fine', choice: 'no' } }
        : { status: 500, body: { error: { message: 'down' } } },
    );
    const dir = judgedProject();
    const r = await runCli(['run', '--no-cache', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(
      conditions(dir).some((c) => c.name === 'judged'),
      false,
    );
  });

  it('the default gate fails on its own condition, without a judged one', async () => {
    server.setDefault({ status: 500, body: { error: { message: 'down' } } });
    const dir = judgedProject([]);
    const r = await runCli(['run', '--no-cache', '-o', 'out.json'], { cwd: dir });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.deepEqual(
      conditions(dir).map((c) => [c.name, c.passed]),
      [['all cases pass', false]],
    );
  });

  it('a pass: function decides on its own, and one shard is judged once merged', async () => {
    server.setDefault({ status: 500, body: { error: { message: 'down' } } });
    const decided = judgedProject(['pass: ./pass.mjs#decide', 'gate: { minPassRate: 0 }']);
    const r = await runCli(['run', '--no-cache', '-o', 'out.json'], { cwd: decided });
    assert.equal(r.code, 0, r.stdout + r.stderr);

    const dir = judgedProject();
    const shard = await runCli(['run', '--no-cache', '--shard', '1/1', '-o', 'shard.json'], {
      cwd: dir,
    });
    assert.equal(shard.code, 0, shard.stdout + shard.stderr);
    const merged = await runCli(['merge', 'shard.json', '-o', 'out.json'], { cwd: dir });
    assert.equal(merged.code, 1, merged.stdout + merged.stderr);
    assert.match(merged.stdout, JUDGED);
  });
});
