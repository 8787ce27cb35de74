/**
 * The RAG built-ins say why they scored as they did, in the summary of `evals run` and in
 * `evals show`, as the other built-ins do: the counts behind the score and the claims, items,
 * entities or contexts that cost it (a failing `faithfulness` or `context-recall` once said only
 * its score). The two measures with no model run docs/evaluators.md's own examples, read from
 * the markdown, on the rankings the doc scores (≈ 0.83 and ≈ 0.58); the judged ones run against
 * the loopback OpenAI-compatible server, which answers by fixed rules.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from './helpers/cli.ts';
import { artifactCases, jsonlProject, runInProcess } from './helpers/in-process.ts';
import {
  useOpenAiServer,
  type OpenAiServer,
  type RecordedRequest,
} from './helpers/openai-server.ts';
import { numbered } from './helpers/judge-evaluators.ts';

let server: OpenAiServer;
useOpenAiServer((started) => (server = started));

const docs = readFileSync(join(repoRoot, 'docs/evaluators.md'), 'utf8');

/** The ```yaml example of docs/evaluators.md that starts with `- id: <id>`, as suite lines. */
function docExample(id: string): string[] {
  const block = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1] ?? '')
    .find((text) => text.startsWith(`- id: ${id}\n`));
  assert.ok(block, `docs/evaluators.md has no example "- id: ${id}"`);
  return block.trimEnd().split('\n');
}

const TOWER = 'The Eiffel Tower is in Paris.';
const BUILT = 'It was completed in 1889.';
const OTHER = 'Bananas are yellow fruit.';

void describe('the reasons of the RAG measures with no model', () => {
  void it("score docs/evaluators.md's rankings as it says, and name what was not found", async () => {
    assert.ok(docs.includes('`[relevant, other, relevant]` scores (1/1 + 2/3) / 2 ≈ 0.83'));
    assert.ok(docs.includes('`[other, relevant, relevant]` scores (1/2 + 2/3) / 2 ≈ 0.58'));
    const rows = [
      { name: 'first', contexts: [TOWER, OTHER, BUILT], sources: [TOWER] },
      { name: 'late', contexts: [OTHER, TOWER, BUILT], sources: [TOWER, BUILT] },
    ].map(({ name, contexts, sources }) => ({
      name,
      reference: `${TOWER} ${BUILT}`,
      facts: [TOWER, BUILT],
      output: { answer: 'Paris.', contexts, sources },
    }));
    const dir = jsonlProject(rows, [
      'evaluators:',
      ...[...docExample('retrieval-order'), ...docExample('retrieval-coverage')].map(
        (line) => `  ${line}`,
      ),
    ]);
    const run = await runInProcess(['run'], dir, { COLUMNS: '200' });
    assert.equal(run.code, 1, run.stderr + run.stdout);
    const cases = artifactCases(dir, 'evals-results.json')[0]?.cases ?? [];
    const score = (name: string, evaluator: string): number =>
      Number(
        cases.find((c) => c.data.name === name)?.evaluations.find((e) => e.evaluator === evaluator)
          ?.score,
      );
    assert.equal(score('first', 'retrieval-order').toFixed(2), '0.83');
    assert.equal(score('late', 'retrieval-order').toFixed(2), '0.58');
    // The summary lists only the failing case, with what retrieval missed.
    assert.match(
      run.stdout,
      /retrieval-coverage 0\.5 \(needs ≥ 1\):\s+1 of 2 reference items found in the contexts; not found: "It was completed in 1889\."/,
    );
    const show = await runInProcess(['show', 'evals-results.json'], dir);
    assert.equal(show.code, 0, show.stderr);
    assert.ok(show.stdout.includes('2 of 3 contexts relevant, at ranks 1, 3'), show.stdout);
    assert.ok(show.stdout.includes('2 of 3 contexts relevant, at ranks 2, 3'), show.stdout);
    assert.ok(show.stdout.includes('2 of 2 reference items found in the contexts\n'), show.stdout);
  });
});

/**
 * A judge with fixed rules: the answer's claims and the reference's sentences hold when they are
 * about the 300 meters; only the passage about them is useful, every passage is relevant and
 * states every claim put to it; the reference names the tower and Paris, the passages the tower.
 */
function judgeByRules(request: RecordedRequest) {
  const body = request.body as { tool_choice: { function: { name: string } } };
  const tool = body.tool_choice.function.name;
  if (tool === 'record_claims') {
    const claims = [
      { claim: 'The Eiffel Tower is 300 meters tall.', supported: true, reason: 'passage 1' },
      { claim: 'It is in Rome.', supported: false, reason: 'no passage says so' },
    ];
    return { toolArguments: { claims } };
  }
  if (tool === 'record_entities') {
    return {
      toolArguments: {
        referenceEntities: ['Eiffel Tower', 'Paris'],
        contextEntities: ['eiffel tower'],
      },
    };
  }
  const tag =
    { record_relevance: 'passage', record_usefulness: 'passage', record_passage_support: 'claim' }[
      tool
    ] ?? 'statement';
  const holds = (text: string): boolean =>
    tag === 'statement' || tool === 'record_usefulness' ? text.includes('300') : true;
  return {
    toolArguments: {
      verdicts: numbered(request, tag).map((text) => ({
        reason: tool,
        verdict: holds(text) ? 1 : 0,
      })),
    },
  };
}

void describe('the reasons of the judged RAG measures', () => {
  void it('name the claims, sentences, entities and contexts behind each score', async () => {
    server.setResponder(judgeByRules);
    const row = {
      name: 'misled',
      reference: 'The Eiffel Tower is 300 meters tall. It stands in Paris.',
      output: {
        answer: 'The Eiffel Tower is 300 meters tall. It is in Rome.',
        contexts: ['Rome is in Italy.', 'The Eiffel Tower is 300 meters tall.'],
      },
    };
    const dir = jsonlProject(
      [row],
      [
        'evaluators:',
        '  - { id: grounded, use: faithfulness, threshold: { gte: 0.9 } }',
        '  - { id: precise, use: llm-context-precision, threshold: { gte: 0.9 } }',
        '  - { id: recalled, use: llm-context-recall, threshold: { gte: 0.9 } }',
        '  - { id: entities, use: context-entities-recall, threshold: { gte: 0.9 } }',
        '  - { id: correct, use: factual-correctness, threshold: { gte: 0.9 } }',
        '  - { id: noise, use: noise-sensitivity, threshold: { lte: 0.2 } }',
      ],
      {},
      ['defaults:', `  judge: { baseUrl: ${server.url}, apiKey: sk-test, model: judge-model }`],
    );
    const run = await runInProcess(['run', '--no-cache'], dir, { COLUMNS: '300' });
    assert.equal(run.code, 1, run.stderr + run.stdout);
    const expected = [
      'grounded 0.5 (needs ≥ 0.9): 1 of 2 claims supported by the contexts; unsupported: "It is in Rome."',
      'precise 0.5 (needs ≥ 0.9): 1 of 2 contexts useful, at rank 2',
      'recalled 0.5 (needs ≥ 0.9): 1 of 2 reference sentences supported by the contexts; unsupported: "It stands in Paris."',
      'entities 0.5 (needs ≥ 0.9): 1 of 2 reference entities found in the contexts; missing: "Paris"',
      'correct 0.5 (needs ≥ 0.9): precision 0.5, recall 0.5; not in the reference: "It is in Rome."; missing: "It stands in Paris."',
      'noise 0.5 (needs ≤ 0.2): 1 of 2 claims not in the reference, 1 of them stated by a relevant context; misled: "It is in Rome."',
    ];
    for (const line of expected) assert.ok(run.stdout.includes(line), `${line}\n${run.stdout}`);
  });
});

/** A judge that prefers the answer saying "Paris", wherever it is shown. */
function prefersParis(request: RecordedRequest) {
  const body = request.body as { messages: { content: string }[] };
  const text = body.messages.map((m) => m.content).join('\n');
  const first = /<response_a>\n([\s\S]*?)\n<\/response_a>/.exec(text)?.[1] ?? '';
  return { toolArguments: { choice: first.includes('Paris') ? 'A' : 'B', reason: 'names Paris' } };
}

void describe('the reason of a battle', () => {
  void it('says who won in both orders, with the judge reason, not only the outcome', async () => {
    server.setResponder(prefersParis);
    const dir = jsonlProject(
      [
        { name: 'lost', question: 'Capital of France?', output: 'Lyon', v1_answer: 'Paris' },
        { name: 'won', question: 'Capital of France?', output: 'Paris', v1_answer: 'Lyon' },
      ],
      ['evaluators:', ...docExample('vs-v1').map((line) => `  ${line}`)],
      {},
      ['defaults:', `  judge: { baseUrl: ${server.url}, apiKey: sk-test, model: judge-model }`],
    );
    const run = await runInProcess(['run', '--no-cache'], dir, { COLUMNS: '200' });
    assert.equal(run.code, 1, run.stderr + run.stdout);
    assert.ok(
      run.stdout.includes('vs-v1 0 (needs ≥ 0.5): the baseline won in both orders: names Paris'),
      run.stdout,
    );
    const show = await runInProcess(['show', 'evals-results.json'], dir);
    assert.ok(show.stdout.includes('the output won in both orders: names Paris'), show.stdout);
  });
});
