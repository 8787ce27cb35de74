/**
 * A judge's reason may quote the output, and the output may hold a secret. The verdict
 * built-ins (accuracy, llm-judge, the safety judges, answer-relevancy, the battles) and
 * llm-context-precision cut the reason, and a refusal's error message quotes the refusal cut at
 * 200 characters: each cut came before the scrub, so a cut within the secret kept its start
 * (1 to 5 characters are too few for the scrub of the finished case to recognise, and a judge
 * client of one's own, made in code, does not scrub answers of the run's secrets at all).
 * Here the built-ins scrub with the run's secrets, the client knows none, and the fake judge
 * quotes the secret after a run of `p`s as long as the one in its prompt, which each case sets so
 * that the cut falls at every character of the secret. What follows the `p`s must be the start
 * of `[redacted]`, and no three characters of the secret may show anywhere.
 *
 * llm-judge's `overrides: N` examples quote a corrected case's output, cut at 2,000 characters:
 * that cut came before any scrub too, so a secret's start reached the judge in the prompt. The
 * last test runs one from evals.yaml and reads what the judge was sent.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { BuiltinEvaluatorName } from '../src/evaluators/registry.ts';
import { scratch } from './helpers/cli.ts';
import { runInProcess } from './helpers/in-process.ts';
import { loopbackJudge } from './helpers/loopback-judge.ts';
import {
  useOpenAiServer,
  type OpenAiServer,
  type RecordedRequest,
} from './helpers/openai-server.ts';
import { X_SECRET, quote, refusal, scrubbedOutcome } from './helpers/secret-cut-judge.ts';

let server: OpenAiServer;
useOpenAiServer((s) => (server = s));

/** Pads that leave 1 to all characters of the secret before a cut at `limit`. */
const pads = (limit: number): number[] =>
  Array.from({ length: X_SECRET.length }, (_, i) => limit - (i + 1));

/** Marks a prompt whose answer is a refusal rather than a verdict. */
const REFUSE = 'please refuse';

/** The judge's answer: its forced tool called with a quote of the prompt's pad, or a refusal. */
function answer(request: RecordedRequest) {
  const body = request.body as {
    messages: { content: string }[];
    tools: { function: { name: string; parameters: Record<string, unknown> } }[];
  };
  const prompt = body.messages.map((m) => m.content).join('\n');
  const n = /p{20,}/.exec(prompt)?.[0].length ?? 0;
  const said = quote(n);
  if (prompt.includes(REFUSE)) return refusal(said);
  const tool = body.tools[0]?.function;
  if (tool?.name === 'record_usefulness') {
    return { toolArguments: { verdicts: [{ reason: said, verdict: 0 }] } };
  }
  const properties = tool?.parameters.properties as { choice: { enum: string[] } };
  return { toolArguments: { reason: said, choice: properties.choice.enum[0] } };
}

/**
 * Each cut piece after a run of `p`s that is not the start of `[redacted]`: a leak. (The run is
 * matched whole, so that a long run with no cut after it does not backtrack at every start.)
 */
function leaks(text: string): string[] {
  const kept = [...text.matchAll(/(?<!p)p{90,}(?!p)([^"\\\u2026]*)\u2026/g)];
  return kept
    .filter(([, piece = '']) => !'[redacted]'.startsWith(piece))
    .map(([w]) => w.slice(-30));
}

/** Every 3 characters of the secret found in `text`. */
function pieces(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 3 <= X_SECRET.length; i++) {
    const piece = X_SECRET.slice(i, i + 3);
    if (text.includes(piece)) found.push(piece);
  }
  return found;
}

describe('judge reasons and refusals quoting a secret, cut', () => {
  it('keep no part of it, whatever character the cut falls on', async () => {
    server.setResponder(answer);
    // A client knowing no secret, as one made in code; the built-in's scrub knows it.
    const judge = loopbackJudge(server.url, { maxRetries: 1 });
    /** The metadata and error of built-in `name` with `options` on one case, as JSON text. */
    const evaluate = async (
      name: BuiltinEvaluatorName,
      options: Record<string, unknown>,
      testCase: Record<string, unknown>,
      output: unknown,
    ): Promise<string> => {
      const { message, metadata } = await scrubbedOutcome(judge, name, options, testCase, output);
      return JSON.stringify(message === undefined ? metadata : { message, metadata });
    };
    const texts: string[] = [];
    for (const n of pads(2000)) {
      const output = 'p'.repeat(n);
      texts.push(await evaluate('accuracy', { expected: 'x' }, {}, output));
      texts.push(await evaluate('toxicity', {}, {}, output));
      texts.push(
        await evaluate(
          'llm-judge',
          { prompt: `Judge {{output}}`, choices: { yes: 1, no: 0 } },
          {},
          output,
        ),
      );
      texts.push(await evaluate('answer-relevancy', { question: 'q' }, {}, output));
      texts.push(await evaluate('manual-battle', { baseline: 'b' }, {}, output));
    }
    for (const n of pads(200)) {
      texts.push(
        await evaluate(
          'llm-context-precision',
          {},
          { contexts: ['p'.repeat(n)], reference: 'r' },
          'x',
        ),
      );
      // A refusal's message, cut at 200 (its metadata keeps 500: the pad fits whole).
      texts.push(await evaluate('accuracy', { expected: REFUSE }, {}, 'p'.repeat(n)));
    }
    const text = texts.join('\n');
    assert.deepEqual(leaks(text), []);
    // Scrubbed first, the text is cut within `[redacted]` where the cut fell within the secret's
    // first 9 characters (further on, the scrubbed text is short enough to be kept whole): 9
    // pads, each with 6 reasons cut at 2000 and 1 at 200, and 1 refusal.
    assert.equal([...text.matchAll(/"reason":"p{90,}\[[a-z]*\u2026/g)].length, 9 * 7);
    assert.equal([...text.matchAll(/"the judge refused: p{90,}\[[a-z]*\u2026/g)].length, 9);
    assert.match(text, /"reason":"p{1990,}\[redacted\]"/);
    assert.deepEqual(pieces(text), []);
  });

  it("keep none of it out of llm-judge's override examples sent to the judge", async () => {
    server.setResponder(answer);
    const dir = scratch();
    // Corrected cases whose output has the secret where the example's cut at 2000 falls.
    const stored = pads(2000).map((n, i) => ({
      evaluator: 'judged',
      suite: 'main',
      caseId: `c${i}`,
      createdAt: '2026-01-01T00:00:00.000Z',
      originalScore: { value: 1 },
      overrideScore: { value: 0 },
      inputFields: {},
      outputFields: { output: `${quote(n)} and more` },
    }));
    writeFileSync(
      join(dir, 'evals-overrides.jsonl'),
      stored.map((s) => JSON.stringify(s)).join('\n') + '\n',
    );
    writeFileSync(join(dir, 'cases.jsonl'), '{"output":"x"}\n');
    writeFileSync(
      join(dir, 'evals.yaml'),
      [
        'version: 1',
        'defaults:',
        '  judge:',
        `    baseUrl: "${server.url}"`,
        '    apiKey: sk-test',
        '    model: judge-model',
        '    maxRetries: 0',
        'suites:',
        '  - id: main',
        '    testset: { path: cases.jsonl }',
        '    evaluators:',
        '      - id: judged',
        '        use: llm-judge',
        '        with:',
        '          prompt: "Is {{output}} right?"',
        '          choices: { yes: 1, no: 0 }',
        `          overrides: ${stored.length}`,
        '',
      ].join('\n'),
    );
    const r = await runInProcess(['run', '--no-cache', '-o', 'results.json'], dir, { X_SECRET });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const sent = server.requests.map((request) => request.text).join('\n');
    // Every example was sent, the secret in it redacted (and cut within `[redacted]` or after).
    assert.equal([...sent.matchAll(/(?<!p)p{1900,}\[/g)].length, stored.length);
    assert.match(sent, /p{1900,}\[\u2026/);
    assert.deepEqual(pieces(sent), []);
  });
});
