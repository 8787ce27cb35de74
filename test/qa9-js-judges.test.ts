/**
 * QA round 9, judges (LOW-1..3), through whole runs against the loopback OpenAI-compatible
 * server: a judge's refusal is named and kept; a number whose text is an offered choice is that
 * choice, and a near miss says why it is refused; accuracy 100% has a 95% CI ending at 100.0%.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { wilson } from '../src/evaluators/agreement.ts';
import { jsonlProject, runInProcess } from './helpers/in-process.ts';
import { useOpenAiServer, type OpenAiServer } from './helpers/openai-server.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

interface Evaluation {
  evaluator: string;
  score: number | null;
  error: string | null;
  metadata: Record<string, unknown> | null;
}

interface Artifact {
  runs: {
    cases: { evaluations: Evaluation[] }[];
    summary: {
      evaluators: Record<
        string,
        { agreement?: { accuracy: number | null; accuracyCi: { low: number; high: number } } }
      >;
    };
  }[];
}

/** One suite judged by `judge` (an llm-judge with `choices`), over `rows`. */
async function judged(
  rows: Record<string, unknown>[],
  choices: string,
  extra: string[] = [],
): Promise<{ code: number; stdout: string; artifact: Artifact }> {
  const dir = jsonlProject(
    rows,
    [
      'function: ./answer.js#answer',
      'evaluators:',
      '  - id: judge',
      '    use: llm-judge',
      `    with: { prompt: "Is {{output}} fine?", choices: ${choices} }`,
      ...extra.map((line) => `    ${line}`),
      'gate: { minPassRate: 0 }',
    ],
    { 'answer.js': 'export function answer() { return "an answer"; }\n' },
    [
      'defaults:',
      '  judge:',
      '    model: judge-mini',
      `    baseUrl: ${server.url}`,
      '    apiKey: sk-test',
      '    maxRetries: 0',
    ],
  );
  const result = await runInProcess(['run', '-o', 'results.json', '--no-cache'], dir, {
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
  });
  assert.ok(result.code === 0 || result.code === 1, result.stderr);
  const artifact = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Artifact;
  return { code: result.code, stdout: result.stdout, artifact };
}

function firstEvaluation(artifact: Artifact): Evaluation {
  const evaluation = artifact.runs[0]?.cases[0]?.evaluations[0];
  assert.ok(evaluation !== undefined);
  return evaluation;
}

describe("a judge's refusal (QA9 LOW-1)", () => {
  it('is named as a refusal, quoted in the error and kept in the metadata', async () => {
    server.setDefault({
      body: {
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: null, refusal: "I can't help with that." },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 1 },
      },
    });
    const { artifact } = await judged([{ q: 'x' }], '{ "yes": 1, "no": 0 }');
    const evaluation = firstEvaluation(artifact);
    assert.equal(evaluation.score, null);
    assert.equal(evaluation.error, "the judge refused: I can't help with that.");
    assert.equal(evaluation.metadata?.refusal, "I can't help with that.");
  });
});

describe('a judge choosing a number or a near miss (QA9 LOW-3)', () => {
  it('takes the JSON number 3 as the choice "3"', async () => {
    server.setDefault({ toolArguments: { reason: 'fine', choice: 3 } });
    const { artifact } = await judged(
      [{ q: 'x' }],
      '{ "1": 0, "2": 0.25, "3": 0.5, "4": 0.75, "5": 1 }',
    );
    const evaluation = firstEvaluation(artifact);
    assert.equal(evaluation.error, null);
    assert.equal(evaluation.score, 0.5);
    assert.equal(evaluation.metadata?.choice, '3');
  });

  it('takes the JSON boolean true as the choice "true"', async () => {
    server.setDefault({ toolArguments: { reason: 'fine', choice: true } });
    const { artifact } = await judged([{ q: 'x' }], '{ "true": 1, "false": 0 }');
    const evaluation = firstEvaluation(artifact);
    assert.equal(evaluation.error, null);
    assert.equal(evaluation.score, 1);
  });

  it('refuses " Yes " for "yes", saying choices are matched exactly', async () => {
    server.setDefault({ toolArguments: { reason: 'fine', choice: ' Yes ' } });
    const { artifact } = await judged([{ q: 'x' }], '{ "yes": 1, "no": 0 }');
    const evaluation = firstEvaluation(artifact);
    assert.equal(evaluation.score, null);
    assert.equal(
      evaluation.error,
      'the judge chose " Yes ", not one of "yes", "no": choices are matched exactly, case and spaces included (the nearest is "yes")',
    );
  });
});

describe('accuracy 100% (QA9 LOW-2)', () => {
  it('has a Wilson interval whose upper end is exactly 1 (and lower end 0 at 0%)', () => {
    // n where the formula's rounding lands a hair inside: 0.9999999999999999 for 30 rows.
    for (const n of [10, 13, 30, 60]) assert.equal(wilson(1, n).high, 1, `n = ${n}`);
    for (const n of [3, 12, 24, 56]) assert.equal(wilson(0, n).low, 0, `n = ${n}`);
  });

  it('prints its 95% CI as ending at 100.0% when the judge agrees with all 30 labels', async () => {
    server.setDefault({ toolArguments: { reason: 'fine', choice: 'yes' } });
    const rows = Array.from({ length: 30 }, (_, i) => ({ id: `r${i}`, human: 'yes' }));
    const { stdout, artifact } = await judged(rows, '{ "yes": 1, "no": 0 }', [
      'agreement: { column: human }',
    ]);
    const agreement = artifact.runs[0]?.summary.evaluators.judge?.agreement;
    assert.ok(agreement !== undefined);
    assert.equal(agreement.accuracy, 1);
    assert.equal(agreement.accuracyCi.high, 1);
    assert.match(stdout, /accuracy 100\.0% \(95% CI 88\.6%…100\.0%\)/);
  });
});
