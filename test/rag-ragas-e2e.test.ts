/**
 * `context-entities-recall`, `factual-correctness` and `noise-sensitivity` named in evals.yaml,
 * end to end through `evals run` against the loopback OpenAI-compatible server: the scores and
 * pass states in the artifact (noise sensitivity gating with `lte`), and the model calls
 * `--dry-run` plans for them, mode by mode.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import {
  useOpenAiServer,
  type OpenAiServer,
  type RecordedRequest,
} from './helpers/openai-server.ts';
import { numbered } from './helpers/judge-evaluators.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

const REFERENCE = 'The Eiffel Tower is 300 meters tall. It stands in Paris.';
const CONTEXTS = ['The Eiffel Tower is 300 meters tall.', 'Rome is in Italy.'];
const ROWS = [
  {
    name: 'misled',
    reference: REFERENCE,
    output: { answer: 'The Eiffel Tower is 300 meters tall. It is in Rome.', contexts: CONTEXTS },
  },
  {
    name: 'right',
    reference: REFERENCE,
    output: { answer: 'The Eiffel Tower is 300 meters tall.', contexts: CONTEXTS },
  },
];

/**
 * A judge with fixed rules: a statement is supported when it is about the 300 meters, every
 * passage is relevant and states every claim put to it; the reference names the Eiffel Tower
 * and Paris, the passages only the tower.
 */
function judgeByRules(request: RecordedRequest) {
  const body = request.body as { tool_choice: { function: { name: string } } };
  const tool = body.tool_choice.function.name;
  if (tool === 'record_entities') {
    return {
      toolArguments: {
        referenceEntities: ['Eiffel Tower', 'Paris'],
        contextEntities: ['eiffel tower'],
      },
    };
  }
  const tag = { record_relevance: 'passage', record_passage_support: 'claim' }[tool] ?? 'statement';
  const verdict = (text: string): number => (tag !== 'statement' || text.includes('300') ? 1 : 0);
  return {
    toolArguments: {
      verdicts: numbered(request, tag).map((text) => ({ reason: tool, verdict: verdict(text) })),
    },
  };
}

function project(evaluators: string[]): string {
  return jsonlProject(ROWS, ['evaluators:', ...evaluators.map((line) => `  ${line}`)], {}, [
    'defaults:',
    `  judge: { baseUrl: ${server.url}, apiKey: sk-test, model: judge-model }`,
  ]);
}

const ALL_THREE = [
  '- id: entities',
  '  use: context-entities-recall',
  '  threshold: { gte: 0.5 }',
  '- id: correct',
  '  use: factual-correctness',
  '  with: { answer: "{{output.answer}}" }',
  '  threshold: { gte: 0.6 }',
  '- id: noise',
  '  use: noise-sensitivity',
  '  threshold: { lte: 0.2 }',
];

describe('Ragas-style judges in evals.yaml', () => {
  it('score every case from the model, noise sensitivity passing when low', async () => {
    server.setResponder(judgeByRules);
    const dir = project(ALL_THREE);
    const r = await runInProcess(['run', '--no-cache'], dir);
    assert.equal(r.code, 1, r.stderr + r.stdout);
    const cases = artifactCases(dir, 'evals-results.json')[0]?.cases ?? [];
    const scores = (name: string) => {
      const found = cases.find((c) => c.data.name === name);
      assert.ok(found, name);
      return Object.fromEntries(
        found.evaluations.map((e) => [e.evaluator, [e.score, e.passed, e.error]]),
      );
    };
    // misled: P = 1/2, R = 1/2; "It is in Rome." is wrong and a (relevant) passage states it.
    assert.deepEqual(scores('misled'), {
      entities: [0.5, true, null],
      correct: [0.5, false, null],
      noise: [0.5, false, null],
    });
    // right: P = 1, R = 1/2, F1 = 2/3; no wrong claim.
    const right = scores('right');
    assert.deepEqual(right.noise, [0, true, null]);
    assert.ok(Math.abs(Number(right.correct?.[0]) - 2 / 3) < 1e-9);
    assert.equal(right.correct?.[1], true);
    // 1 + 2 + 3 calls for the misled case; the right one stops noise sensitivity after one.
    assert.equal(server.requests.length, 6 + 4);
    const artifact = readFileSync(join(dir, 'evals-results.json'), 'utf8');
    assert.ok(artifact.includes('"noisyClaims":[{"claim":"It is in Rome."'));
    assert.ok(artifact.includes('"missing":["Paris"]'));
  });

  it('plan their model calls for --dry-run, mode by mode', async () => {
    const all = await runInProcess(['run', '--dry-run'], project(ALL_THREE));
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /model calls at most 12 \(6 calls a case execution\)/);
    const modes = await runInProcess(
      ['run', '--dry-run'],
      project([
        '- { use: factual-correctness, with: { mode: recall } }',
        '- { use: noise-sensitivity, with: { mode: irrelevant } }',
      ]),
    );
    assert.equal(modes.code, 0, modes.stderr);
    assert.match(modes.stdout, /model calls at most 10 \(5 calls a case execution\)/);
    assert.equal(server.requests.length, 0);
  });
});
