/**
 * Judges checked against people, end to end: the built CLI runs an llm-judge suite whose testset
 * carries a human label per row, against the loopback OpenAI server. The server's judge agrees
 * with the labels on 36 of 40 rows (90%), so the table and κ are known by hand; the gate on κ
 * passes or fails the run, and a baseline whose judge agreed perfectly shows the drop as a row.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { validateArtifact } from '../src/artifact/schema.ts';
import type { Comparison } from '../src/types/comparison.ts';
import type { ResultsArtifact } from '../src/types/index.ts';
import { runCli, scratch, writeFiles } from './helpers/cli.ts';
import {
  useOpenAiServer,
  type OpenAiServer,
  type RecordedRequest,
  type ScriptedAnswer,
} from './helpers/openai-server.ts';

const ROWS = 40;

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

/** Row i's human label: even rows are helpful ("yes"), odd ones not. */
function label(i: number): 'yes' | 'no' {
  return i % 2 === 0 ? 'yes' : 'no';
}

/** The judge: the human's label, except on every tenth row (4 of 40), where it says "no". */
function judge(request: RecordedRequest, disagreeEvery = 10): ScriptedAnswer {
  const i = Number(/Row (\d+)\b/.exec(JSON.stringify(request.body))?.[1]);
  const choice = i % disagreeEvery === 0 ? 'no' : label(i);
  return { toolArguments: { reason: 'checked', choice } };
}

beforeEach(() => server.setResponder((request) => judge(request)));

function project(kappaGate: number): string {
  const dir = scratch();
  const lines = ['id,question,human_friendly'];
  for (let i = 1; i <= ROWS; i++) lines.push(`r${i},Row ${i},${label(i)}`);
  writeFiles(dir, {
    'cases.csv': `${lines.join('\n')}\n`,
    'answer.js':
      'export function answer({ testCase }) { return `An answer to ${testCase.question}`; }\n',
    'evals.yaml': `version: 1
defaults:
  judge:
    model: judge-mini
    baseUrl: ${server.url}
    apiKey: sk-test
suites:
  - id: qa
    testset: { path: cases.csv }
    function: ./answer.js#answer
    evaluators:
      - id: friendly
        use: llm-judge
        with:
          prompt: "{{case.question}}: {{output}}. Is this answer friendly?"
          choices: { "yes": 1, "no": 0 }
        agreement: { column: human_friendly }
    gate:
      minPassRate: 0
      evaluators:
        friendly: { agreement: { kappa: { gte: ${kappaGate} } } }
`,
  });
  return dir;
}

function run(dir: string, ...args: string[]) {
  return runCli(['run', 'evals.yaml', '-o', 'results.json', '--no-cache', ...args], {
    cwd: dir,
    env: { OPENAI_API_KEY: '', OPENAI_BASE_URL: '' },
    timeoutMs: 90_000,
  });
}

function artifactOf(dir: string, name = 'results.json'): ResultsArtifact {
  return JSON.parse(readFileSync(join(dir, name), 'utf8')) as ResultsArtifact;
}

describe('agreement: a judge checked against human labels', () => {
  it('reports accuracy and κ against the labels, and passes a κ ≥ 0.6 gate', async () => {
    const dir = project(0.6);
    const result = await run(dir);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(server.requests.length, ROWS);
    assert.deepEqual(validateArtifact(artifactOf(dir)), [], 'the artifact matches its schema');
    const agreement = artifactOf(dir).runs[0]?.summary.evaluators.friendly?.agreement;
    assert.ok(agreement);
    // Rows: human no, yes; columns: judge no, yes. The 20 "no" rows agree; of the 20 "yes"
    // rows, rows 10, 20, 30 and 40 get "no". p_o = 36/40 = 0.9; margins 0.5/0.5 and 0.6/0.4:
    // p_e = 0.5, κ = (0.9 − 0.5) / (1 − 0.5) = 0.8.
    assert.deepEqual(agreement.table, [
      [20, 0],
      [4, 16],
    ]);
    assert.deepEqual(agreement.categories, ['no', 'yes']);
    assert.equal(agreement.compared, ROWS);
    assert.equal(agreement.accuracy, 0.9);
    assert.ok(Math.abs((agreement.kappa ?? 0) - 0.8) < 1e-12);
    assert.ok(agreement.kappaCi && agreement.kappaCi.low < 0.8 && agreement.kappaCi.high > 0.8);
    assert.match(
      result.stdout,
      /friendly vs human labels \(column human_friendly\): κ 0\.800 \(95% CI 0\.\d{3}…\d\.\d{3}\) · accuracy 90\.0% \(95% CI [\d.]+%…[\d.]+%\) · 40 labelled rows/,
    );
    const condition = artifactOf(dir).runs[0]?.gate.conditions.find((c) =>
      c.name.endsWith('agreement.kappa'),
    );
    assert.deepEqual(condition, {
      name: 'evaluators.friendly.agreement.kappa',
      expected: '≥ 0.6',
      actual: '0.8',
      passed: true,
    });
  });

  it('fails the run when κ is below the gate, saying so', async () => {
    const dir = project(0.85);
    const result = await run(dir);
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stdout,
      /evaluators\.friendly\.agreement\.kappa: expected ≥ 0\.85, got 0\.8/,
    );
  });

  it('merges shards into the same agreement as one run (the plan carries agreement:)', async () => {
    const dir = project(0.6);
    const whole = await run(dir);
    assert.equal(whole.code, 0, whole.stderr);
    for (const shard of ['1/2', '2/2']) {
      const part = await run(dir, '--shard', shard, '-o', `s${shard[0]}.json`);
      assert.equal(part.code, 0, part.stderr);
    }
    const merged = await runCli(['merge', 's1.json', 's2.json', '-o', 'merged.json'], { cwd: dir });
    assert.equal(merged.code, 0, merged.stderr);
    const mergedRun = artifactOf(dir, 'merged.json').runs[0];
    assert.deepEqual(mergedRun?.plan?.agreement, {
      friendly: { column: 'human_friendly', choices: { yes: 1, no: 0 } },
    });
    assert.deepEqual(
      mergedRun?.summary.evaluators.friendly?.agreement,
      artifactOf(dir).runs[0]?.summary.evaluators.friendly?.agreement,
    );
  });

  it('compares κ with a baseline whose judge agreed perfectly: the drop is a row', async () => {
    const dir = project(0.6);
    server.setResponder((request) => judge(request, Infinity));
    const before = await run(dir, '-o', 'base.json');
    assert.equal(before.code, 0, before.stderr);
    assert.equal(
      artifactOf(dir, 'base.json').runs[0]?.summary.evaluators.friendly?.agreement?.kappa,
      1,
    );

    server.setResponder((request) => judge(request));
    const after = await run(dir, '--baseline', 'base.json');
    assert.equal(after.code, 0, after.stderr);
    assert.deepEqual(validateArtifact(artifactOf(dir)), []);
    const comparison = artifactOf(dir).comparison as Comparison;
    const row = comparison.runs[0]?.agreement[0];
    assert.ok(row);
    assert.equal(row.evaluator, 'friendly');
    assert.equal(row.baseKappa, 1);
    assert.ok(Math.abs((row.delta ?? 0) + 0.2) < 1e-12);
    assert.ok(row.pValue !== null && row.adjustedP !== null && row.qValue !== null);
    assert.match(
      after.stdout,
      /friendly agreement +κ 1\.000 → 0\.800 \(-0\.200, 95% CI -0\.\d{3}…[-+]0\.\d{3}\)/,
    );
  });
});
